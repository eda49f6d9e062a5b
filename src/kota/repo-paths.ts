/** Paths from callers (relative to the root or absolute inside it) to the index's repo-relative form. */
import { existsSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, posix, relative } from "node:path";
import { fail, type Result } from "../errors.ts";
import { excludedBy, type FileView, fileView, MAX_FILE_BYTES, SKIP_DIRS, SOURCE_FILE } from "./builtin/files/scan.ts";
import { KOTA_ERRORS } from "./contract.ts";

export function toRepoPath(root: string, input: string): Result<{ path: string }> {
  const raw = input.trim().replace(/\\/g, "/");
  if (!raw) return fail(KOTA_ERRORS.BAD_INPUT, "Empty file path: pass a path relative to the repository root, e.g. src/index.ts.");
  let rel: string;
  if (isAbsolute(raw)) {
    let abs = raw;
    try {
      if (existsSync(abs)) abs = realpathSync(abs);
    } catch {
      // keep it as given
    }
    rel = relative(root, abs).replace(/\\/g, "/");
    if (rel.startsWith("../") || rel === ".." || isAbsolute(rel)) rel = relative(root, raw).replace(/\\/g, "/");
  } else rel = raw;
  const path = posix.normalize(rel).replace(/\/$/, "");
  if (path === ".." || path.startsWith("../") || isAbsolute(path)) {
    return fail(
      KOTA_ERRORS.FILE_OUTSIDE_REPO,
      `${input} is outside the repository ${root}. Pass a path relative to the repository root (e.g. src/index.ts) or an absolute path inside it.`,
    );
  }
  if (path === ".") return fail(KOTA_ERRORS.BAD_INPUT, `${input} is the repository root itself: pass a file inside it, e.g. src/index.ts.`);
  return { ok: true, path };
}

/** Why a repo-relative path is not in the index, in words that say what to do instead. */
export function whyNotIndexed(root: string, path: string, similar: string[], view: FileView = fileView(root)): string {
  const hint = similar.length > 0 ? ` Indexed files with a similar name: ${similar.slice(0, 5).join(", ")}.` : "";
  let st: ReturnType<typeof statSync> | null = null;
  try {
    st = statSync(posix.join(root, path));
  } catch {
    st = null;
  }
  if (!st) return `${path} does not exist in ${root}.${hint || " Use kota search to find the file you mean."}`;
  if (st.isDirectory()) return `${path} is a folder; pass one of its files.${hint}`;
  if (!SOURCE_FILE.test(path))
    return `${path} is not a TypeScript/JavaScript file (only .ts .tsx .mts .cts .js .jsx .mjs .cjs are indexed).`;
  if (st.size > MAX_FILE_BYTES) return `${path} is larger than 1 MiB, so it is not indexed; read the parts you need directly.`;
  const parts = path.split("/");
  const skipped = parts.slice(0, -1).find((p) => SKIP_DIRS.has(p));
  if (skipped) return `${path} is inside ${skipped}/, which is never indexed (dependencies or build output).`;
  const why = excludedBy(root, path, false, view);
  if (why === "sensitive")
    return `${path} looks like it holds secrets (a sensitive file name, as the read cache treats it), so it is never indexed.`;
  if (why === "ignored")
    return view.git
      ? `${path} is ignored by .gitignore (or git's exclude files) and git does not track it, so it is not indexed.`
      : `${path} is ignored by .gitignore, so it is not indexed.`;
  return `${path} is not indexed yet: run kota index (it was probably created after the last index run).`;
}
