/**
 * .gitignore rules, the subset that matters for choosing source files: patterns with `*`, `?`,
 * `**` and `[...]`, negation (`!`), directory-only patterns (`dir/`), anchoring (a `/` at the start
 * or in the middle), and one .gitignore per folder applying below it, deeper files last.
 */
export type IgnoreRule = { base: string; regex: RegExp; negate: boolean; dirOnly: boolean; basename: boolean };

function classBody(pattern: string, i: number): { text: string; end: number } | null {
  let j = i + 1;
  if (pattern[j] === "!" || pattern[j] === "^") j++;
  if (pattern[j] === "]") j++;
  while (j < pattern.length && pattern[j] !== "]") j++;
  if (j >= pattern.length) return null;
  let body = pattern.slice(i + 1, j);
  if (body.startsWith("!")) body = `^${body.slice(1)}`;
  return { text: `[${body.replace(/\\/g, "\\\\")}]`, end: j };
}

function toRegExp(pattern: string): RegExp {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      const atStart = i === 0 || pattern[i - 1] === "/";
      const atEnd = i + 2 === pattern.length || pattern[i + 2] === "/";
      if (atStart && atEnd) {
        if (i + 2 === pattern.length) re += ".*";
        else {
          re += "(?:.*/)?";
          i += 2; // also eat the slash
          continue;
        }
        i += 1;
        continue;
      }
      re += "[^/]*";
      i += 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const cls = classBody(pattern, i);
      if (cls) {
        re += cls.text;
        i = cls.end;
      } else re += "\\[";
    } else if (c === "\\" && i + 1 < pattern.length) {
      i++;
      re += pattern[i]!.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/** Parses one .gitignore found in folder `base` ("." for the root). */
export function parseGitignore(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
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
    rules.push({ base, regex: toRegExp(line), negate, dirOnly, basename: !anchored });
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
      if (r.regex.test(r.basename ? name : rel)) ignored = !r.negate;
    }
  }
  return ignored;
}
