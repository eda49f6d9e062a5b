/** Paths the read cache never tracks or stores: secrets, keys, credentials. */
import { basename } from "node:path";
import { globMatch } from "../glob.ts";
import { realPath } from "../paths.ts";

const BUILT_IN: RegExp[] = [
  /^\.env(\..*)?$/i,
  /\.(pem|key|p12|pfx|crt|cer|der|pk8|kdbx|jks|keystore)$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/i,
  /^\.npmrc$/i,
  /^\.netrc$/i,
  /^\.pgpass$/i,
  /^credentials.*/i,
  /^\.git-credentials$/i,
  /^secrets?\.(json|ya?ml|toml)$/i,
];

/** The path, or the file it links to, looks sensitive (an absolute path; see absolutePath). */
export function isSensitiveFile(path: string, extraGlobs: readonly string[] = []): boolean {
  return isSensitivePath(path, extraGlobs) || isSensitivePath(realPath(path), extraGlobs);
}

export function isSensitivePath(path: string, extraGlobs: readonly string[] = []): boolean {
  const name = basename(path);
  if (BUILT_IN.some((re) => re.test(name))) return true;
  // A glob with a slash is matched against the whole path, any other against the file's name.
  return extraGlobs.some((g) => globMatch(g, g.includes("/") ? path : name, { ignoreCase: true }));
}
