/**
 * Which files are tests: by the project's own test patterns where its configs state them (jest's
 * testMatch/testRegex in jest.config.* or package.json, vitest's test.include, .mocharc's spec),
 * else by the test runners' defaults (jest, vitest, node, bun): `*.test.*`, `*.spec.*`, `*_test.*`,
 * files under `__tests__/`. A helper in a `test/` folder is not a test. And where a file's
 * conventional test would sit.
 *
 * Runner globs are micromatch globs (`**\/?(*.)+(spec|test).[jt]s?(x)`): braces and extglobs are
 * expanded into plain globs, which match without backtracking (src/glob.ts).
 */
import { posix } from "node:path";
import { compileGlob, type Glob } from "../glob.ts";

const DEFAULT_TEST = /(?:^|\/)__tests__\/|[._-](?:test|spec)\.[cm]?[jt]sx?$/;

/** Default rule, for callers that know no project (KotaDB's answers). */
export function isTestFile(path: string): boolean {
  return DEFAULT_TEST.test(path);
}

export type TestMatcher = (path: string) => boolean;

/** Files that state test patterns: checked into the index's list of config files. */
export const TEST_CONFIG =
  /^(?:jest\.config\.[cm]?[jt]s|jest\.config\.json|vitest\.config\.[cm]?[jt]s|vitest\.workspace\.[cm]?[jt]s|vite\.config\.[cm]?[jt]s|\.mocharc\.(?:json|ya?ml|[cm]?js))$/;

const MAX_EXPANSIONS = 64;

/**
 * `a{b,c}` -> ab, ac; `?(x)` -> "", x; `+(a|b)`, `@(a|b)` and `(a|b)` -> a, b; `*(x)` and `(x)?` -> "", x;
 * `(x)+` -> x. A repeatable group stands for one occurrence, which is what file names hold. Bounded.
 */
export function expandGlob(glob: string): string[] {
  const m = /([?+@*!]?)\(([^()]*)\)([+*?]?)|\{([^{}]*)\}/.exec(glob);
  if (!m) return [glob];
  if (m[1] === "!") return []; // negated extglobs are left out (rare in test patterns)
  const options = m[4] !== undefined ? m[4].split(",") : m[2]!.split("|");
  const optional = m[1] === "?" || m[1] === "*" || m[3] === "?" || m[3] === "*";
  const choices = optional ? ["", ...options] : options;
  const out: string[] = [];
  for (const c of choices) {
    for (const e of expandGlob(glob.slice(0, m.index) + c + glob.slice(m.index + m[0].length))) {
      if (out.length >= MAX_EXPANSIONS) return out;
      out.push(e);
    }
  }
  return out;
}

/** The string literals of a JS/JSON array literal's text. */
function literals(text: string): string[] {
  return [...text.matchAll(/(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g)].map((m) => m[2]!.replace(/\\(.)/g, "$1"));
}

/** The array (or single string) a key holds in a config file, read without running it. */
function valuesOf(text: string, key: string): string[] | null {
  const m = new RegExp(`["']?\\b${key}["']?\\s*:\\s*`).exec(text);
  if (!m) return null;
  let i = m.index + m[0].length;
  const open = text[i];
  if (open !== "[" && open !== '"' && open !== "'" && open !== "`") return null;
  // To the closing bracket (or quote), skipping string literals: a glob's `[jt]` is inside one.
  const start = i;
  let quote: string | null = open === "[" ? null : open;
  for (i++; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) {
        quote = null;
        if (open !== "[") break;
      }
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "]") break;
  }
  return literals(text.slice(start, i + 1));
}

/** A regex from a project's config, refused when it could backtrack badly (a quantified group with a quantifier inside). */
function safeRegex(source: string): RegExp | null {
  if (source.length > 200 || /\([^)]*[+*}][^)]*\)\s*[+*{]/.test(source)) return null;
  try {
    return new RegExp(source);
  } catch {
    return null;
  }
}

type Patterns = { globs: string[]; regexes: RegExp[] };

function patternsOf(file: string, text: string): Patterns | null {
  const name = posix.basename(file);
  const dir = posix.dirname(file);
  const rooted = (g: string) => {
    const p = g.replace(/^<rootDir>\//, "").replace(/^\.\//, "");
    return dir === "." || p.startsWith("**/") ? p : `${dir}/${p}`;
  };
  let globs: string[] | null = null;
  let regexes: string[] | null = null;
  if (name === "package.json") {
    try {
      const jest = (JSON.parse(text) as { jest?: { testMatch?: unknown; testRegex?: unknown } }).jest;
      if (Array.isArray(jest?.testMatch)) globs = jest.testMatch.filter((g): g is string => typeof g === "string");
      const r = jest?.testRegex;
      if (typeof r === "string") regexes = [r];
      else if (Array.isArray(r)) regexes = r.filter((g): g is string => typeof g === "string");
    } catch {
      return null;
    }
  } else if (name.startsWith("jest.config")) {
    globs = valuesOf(text, "testMatch");
    regexes = valuesOf(text, "testRegex");
  } else if (name.startsWith("vitest") || name.startsWith("vite.config")) {
    const test = /\btest\s*:\s*\{/.exec(text);
    if (test) globs = valuesOf(text.slice(test.index), "include");
  } else if (name.startsWith(".mocharc")) {
    globs =
      valuesOf(text, "spec") ??
      (/^spec:\s*(.+)$/m.exec(text)?.[1] ? [/^spec:\s*(.+)$/m.exec(text)![1]!.replace(/^["']|["']$/g, "")] : null);
  }
  if (!globs && !regexes) return null;
  return {
    globs: (globs ?? []).flatMap((g) => expandGlob(rooted(g))),
    regexes: (regexes ?? []).map(safeRegex).filter((r): r is RegExp => r !== null),
  };
}

/**
 * The project's rule: the patterns of every config file that states some (each applies below its
 * folder), or the defaults when none does.
 */
export function projectTestMatcher(configs: { path: string; text: string | null }[]): TestMatcher {
  const globs: Glob[] = [];
  const regexes: { dir: string; re: RegExp }[] = [];
  for (const c of configs) {
    // A config's patterns are read without running it; a huge one is not a config worth reading.
    if (c.text === null || c.text.length > 64 * 1024) continue;
    const p = patternsOf(c.path, c.text);
    if (!p) continue;
    for (const g of p.globs) globs.push(compileGlob(g, { gitignore: true }));
    const dir = posix.dirname(c.path);
    for (const re of p.regexes) regexes.push({ dir, re });
  }
  if (globs.length === 0 && regexes.length === 0) return isTestFile;
  return (path) =>
    globs.some((g) => g.test(path)) ||
    regexes.some((r) => (r.dir === "." || path.startsWith(`${r.dir}/`)) && r.re.test(r.dir === "." ? path : path.slice(r.dir.length + 1)));
}

/** Paths where a test of `path` would conventionally live (`a.ts` -> `a.test.ts`, `__tests__/a.spec.ts`, ...). */
export function conventionalTests(path: string): string[] {
  const dir = posix.dirname(path);
  const ext = posix.extname(path);
  const stem = posix.basename(path, ext);
  const exts = [ext, ".ts", ".tsx", ".js", ".mts"].filter((e, i, a) => a.indexOf(e) === i);
  const out: string[] = [];
  for (const e of exts) {
    for (const kind of ["test", "spec"]) {
      const name = `${stem}.${kind}${e}`;
      out.push(posix.join(dir, name), posix.join(dir, "__tests__", name), posix.join(dir, "..", "__tests__", name));
      out.push(posix.join(dir, "test", name), posix.join(dir, "tests", name));
    }
  }
  if (stem === "index") out.push(...conventionalTests(`${dir}${ext}`).filter((p) => !p.startsWith("..")));
  return out.filter((p) => !p.startsWith(".."));
}
