/** Paths the read cache never tracks or stores: secrets, keys, credentials. */
import { basename } from "node:path";
import { realPath } from "../paths.ts";

const BUILT_IN: RegExp[] = [
  /^\.env(\..*)?$/i, /\.(pem|key|p12|pfx|crt|cer|der|pk8|kdbx|jks|keystore)$/i, /^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/i,
  /^\.npmrc$/i, /^\.netrc$/i, /^\.pgpass$/i, /^credentials.*/i, /^\.git-credentials$/i, /^secrets?\.(json|ya?ml|toml)$/i,
];

/** A glob on the basename, or on the whole path when it contains a slash ("*" and "?" only). */
function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*\*/g, "\u0000").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]").replace(/\u0000/g, ".*");
  return new RegExp(`^${body}$`, "i");
}

/** The path, or the file it links to, looks sensitive (an absolute path; see absolutePath). */
export function isSensitiveFile(path: string, extraGlobs: readonly string[] = []): boolean {
  return isSensitivePath(path, extraGlobs) || isSensitivePath(realPath(path), extraGlobs);
}

export function isSensitivePath(path: string, extraGlobs: readonly string[] = []): boolean {
  const name = basename(path);
  if (BUILT_IN.some((re) => re.test(name))) return true;
  return extraGlobs.some((g) => (g.includes("/") ? globToRegExp(g).test(path) : globToRegExp(g).test(name)));
}
