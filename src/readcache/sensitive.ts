/** Paths the read cache never tracks or stores: secrets, keys, credentials (the list: src/sensitive-paths.ts). */
import { realPath } from "../paths.ts";
import { isSensitivePath } from "../sensitive-paths.ts";

export { isSensitivePath };

/** The path, or the file it links to, looks sensitive (an absolute path; see absolutePath). */
export function isSensitiveFile(path: string, extraGlobs: readonly string[] = []): boolean {
  return isSensitivePath(path, extraGlobs) || isSensitivePath(realPath(path), extraGlobs);
}
