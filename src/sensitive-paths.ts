/**
 * File names that hold secrets, keys or credentials: never cached by the read cache, never indexed
 * by the code index (`.env.ts` included). Shared by both, so they agree on what is sensitive; the
 * user's extra globs (`readcache.sensitive`) count for both too.
 */
import { basename } from "node:path";
import { globMatch } from "./glob.ts";

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

/** A glob with a slash is matched against the whole path, any other against the file's name. */
export function isSensitivePath(path: string, extraGlobs: readonly string[] = []): boolean {
  const name = basename(path);
  if (BUILT_IN.some((re) => re.test(name))) return true;
  return extraGlobs.some((g) => globMatch(g, g.includes("/") ? path : name, { ignoreCase: true }));
}
