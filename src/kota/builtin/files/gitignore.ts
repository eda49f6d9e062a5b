/**
 * .gitignore rules, the subset that matters for choosing source files: patterns with `*`, `?`,
 * `**` and `[...]`, negation (`!`), directory-only patterns (`dir/`), anchoring (a `/` at the start
 * or in the middle), and one .gitignore per folder applying below it, deeper files last. Patterns
 * match without backtracking (src/glob.ts), so no line of a hostile .gitignore can stall a scan.
 */
import { compileGlob, type Glob } from "../../../glob.ts";

export type IgnoreRule = { base: string; glob: Glob; negate: boolean; dirOnly: boolean; basename: boolean };

/** Trailing blanks are dropped unless the last one is escaped with `\` (a loop: no regex to backtrack). */
function trimTrailing(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === " " || line[end - 1] === "\t" || line[end - 1] === "\r")) end--;
  if (end < line.length && end > 0 && line[end - 1] === "\\") end++;
  return line.slice(0, end);
}

/** Parses one .gitignore found in folder `base` ("." for the root). */
export function parseGitignore(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = trimTrailing(raw);
    if (!line || line.startsWith("#")) continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) line = line.slice(1);
    let dirOnly = false;
    if (line.endsWith("/")) {
      dirOnly = true;
      line = line.slice(0, -1);
    }
    if (!line) continue;
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    rules.push({ base, glob: compileGlob(line, { gitignore: true }), negate, dirOnly, basename: !anchored });
  }
  return rules;
}

/** Whether `path` (repo-relative) is ignored by `rules` (ordered root first); the last matching rule wins. */
export function isIgnored(rules: readonly IgnoreRule[], path: string, isDir: boolean): boolean {
  let ignored = false;
  const slash = path.lastIndexOf("/");
  const name = slash === -1 ? path : path.slice(slash + 1);
  for (const r of rules) {
    if (r.dirOnly && !isDir) continue;
    if (r.negate === ignored) {
      // Only a rule that would flip the verdict needs testing.
      let rel: string;
      if (r.base === ".") rel = path;
      else if (path.startsWith(`${r.base}/`)) rel = path.slice(r.base.length + 1);
      else continue;
      if (r.glob.test(r.basename ? name : rel)) ignored = !r.negate;
    }
  }
  return ignored;
}
