/**
 * A package's build entries as its bundler config names them (rollup `input`, tsup/tsdown `entry`,
 * unbuild `entries`, vite `build.lib.entry`), where an output's name need not mirror its source's
 * path (`'workers/forks': 'src/runtime/workers/forks.ts'` builds `dist/workers/forks.js`).
 *
 * The config is read as a syntax tree, never run: every object literal whose properties all map a
 * plain key to a string that names an existing source file of the package is an entry map (output
 * name -> source), and every array literal whose elements all are such strings is an entry list
 * (output name = the file's base name, as rollup and tsup name array inputs). That is safe without
 * following `input:` to its value: no other part of a bundler config maps names to nothing but
 * existing source files; a plugin option that does (an alias table) names module ids, which
 * build-output.ts asks about only as the name of a missing output in the package's own build
 * folder, and a name two literals give different sources is dropped.
 */
import { posix } from "node:path";
import type { Program } from "oxc-parser";

/** Config files whose literals name build entries, in the package's own folder. */
export const BUNDLER_CONFIG = /^(?:rollup|tsup|tsdown|build|vite)\.config\.[cm]?[jt]s$/;

const SOURCE = /(?<!\.d)\.[cm]?[jt]sx?$/;

type Node = { type: string; [key: string]: unknown };

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && typeof (v as Node).type === "string";

/** A string literal or a template without expressions, else null. */
function stringOf(node: unknown): string | null {
  if (!isNode(node)) return null;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && (node.expressions as unknown[]).length === 0) {
    const q = (node.quasis as { value: { cooked: string | null } }[])[0];
    return q?.value.cooked ?? null;
  }
  return null;
}

function keyOf(prop: Node): string | null {
  if (prop.computed) return stringOf(prop.key);
  const key = prop.key as Node;
  if (key.type === "Identifier") return key.name as string;
  return stringOf(key);
}

/**
 * The entries of one config's tree: output name -> repo-relative source path, for the package in
 * `dir`; `exists` says whether a source file is in the index. A name given two sources is left out.
 */
export function entriesOfConfig(program: Program, dir: string, exists: (path: string) => boolean): Map<string, string> {
  const found = new Map<string, string | null>();
  const sourceOf = (value: string): string | null => {
    if (!SOURCE.test(value) || posix.isAbsolute(value)) return null;
    const p = posix.normalize(posix.join(dir, value));
    if (p.startsWith("../") || (dir !== "." && !p.startsWith(`${dir}/`))) return null;
    return exists(p) ? p : null;
  };
  const add = (name: string, path: string) => {
    const had = found.get(name);
    found.set(name, had === undefined || had === path ? path : null);
  };
  const object = (node: Node) => {
    const props = node.properties as Node[];
    const pairs: [string, string][] = [];
    for (const prop of props) {
      if (prop.type !== "Property" || prop.kind !== "init" || prop.method) return;
      const key = keyOf(prop);
      const value = stringOf(prop.value);
      const path = value === null ? null : sourceOf(value);
      if (key === null || path === null) return;
      pairs.push([key.replace(/^\.\//, ""), path]);
    }
    for (const [k, p] of pairs) add(k, p);
  };
  const array = (node: Node) => {
    const paths: string[] = [];
    for (const el of node.elements as unknown[]) {
      const value = stringOf(el);
      const path = value === null ? null : sourceOf(value);
      if (path === null) return;
      paths.push(path);
    }
    for (const p of paths) add(posix.basename(p).replace(/\.[^.]+$/, ""), p);
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    if (!isNode(node)) return;
    if (node.type === "ObjectExpression" && (node.properties as unknown[]).length > 0) object(node);
    else if (node.type === "ArrayExpression" && (node.elements as unknown[]).length > 0) array(node);
    for (const k in node) {
      if (k === "type" || k === "start" || k === "end" || k === "range" || k === "loc") continue;
      const v = node[k];
      if (typeof v === "object" && v !== null) visit(v);
    }
  };
  visit(program.body);
  const out = new Map<string, string>();
  for (const [k, p] of found) if (p !== null) out.set(k, p);
  return out;
}
