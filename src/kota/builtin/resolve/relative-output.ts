/**
 * A relative import of a package's own build output that is not in the tree (a test's
 * `import x from '../dist/index.js'`, a bin script's `import('./lib/cli.js')`): it means the source
 * that output is built from, by the same evidence a bare import of the package uses (build-output.ts).
 * Only a path through a build folder of the package counts, and a folder is one only by evidence:
 *  - the `outDir` / `declarationDir` of a tsconfig in the package's folder (inside the package), or
 *  - a folder the package's manifest points its entry points into (`main`, `types`, `typings`,
 *    `module`, any `exports` target) where the code file it names is not in the tree.
 * The import then maps as the manifest's entry would: an `exports` entry naming the same output
 * lends its subpath and sibling conditions, and the package's main entry may fall back to `src/index`.
 */
import { posix } from "node:path";
import { type BuildOutputContext, outputStem, sourceOfOutput } from "./build-output.ts";
import type { PackageJson } from "./packages.ts";

export type RelativeOutput =
  /** The source the output is built from. */
  | { source: string }
  /** A build folder of the package, but no source found: the import names the package's build output. */
  | { source: null };

const CODE = /\.(?:d\.)?[cm]?[jt]sx?$/;
const inside = (path: string, dir: string) => dir === "." || path === dir || path.startsWith(`${dir}/`);
const under = (path: string, dir: string) => (dir === "." ? path : path.slice(dir.length + 1));

function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) leaves(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) leaves(v, out);
  return out;
}

/** The manifest's entry points, by the subpath they serve (`.` for main/types/module). */
function entryPoints(pkg: PackageJson): { subpath: string; targets: string[] }[] {
  const out: { subpath: string; targets: string[] }[] = [];
  const top = [pkg.main, pkg.types, pkg.typings, pkg.module].filter((v): v is string => typeof v === "string");
  if (top.length > 0) out.push({ subpath: ".", targets: top });
  const exp = pkg.exports;
  if (exp !== null && exp !== undefined) {
    const isMap = typeof exp === "object" && !Array.isArray(exp) && Object.keys(exp).some((k) => k.startsWith("."));
    const entries = isMap ? Object.entries(exp as Record<string, unknown>) : [[".", exp] as const];
    for (const [subpath, value] of entries) out.push({ subpath, targets: leaves(value) });
  }
  return out;
}

/** Whether `output` (repo-relative, in package `dir`) lies in a build folder of the package, by the evidence above. */
function inBuildFolder(ctx: BuildOutputContext, dir: string, pkg: PackageJson, output: string): boolean {
  for (const c of ctx.packageConfigs(dir))
    for (const out of [c.outDir, c.declarationDir])
      if (out !== null && out !== dir && inside(out, dir) && !out.startsWith("../") && inside(output, out)) return true;
  for (const { targets } of entryPoints(pkg)) {
    for (const t of targets) {
      if (!CODE.test(t)) continue;
      const path = posix.normalize(posix.join(dir, t));
      if (!inside(path, dir) || path.startsWith("../") || ctx.exists(path)) continue;
      const first = under(path, dir).split("/");
      if (first.length < 2 || first[0]!.includes("*") || first[0] === "." || first[0] === "..") continue;
      if (inside(output, posix.join(dir, first[0]!))) return true;
    }
  }
  return false;
}

/**
 * The source a relative import's missing target `output` (repo-relative, not an indexed file) stands
 * for, when it lies in a build folder of package `dir`; null when it does not. An extensionless
 * target is the file with `.js` added, else the folder's `index.js` (`require('./lib')`), as Node
 * and TypeScript look for them.
 */
export function relativeOutputSource(ctx: BuildOutputContext, dir: string, pkg: PackageJson, output: string): RelativeOutput | null {
  if (!inside(output, dir) || output === dir) return null;
  const candidates = CODE.test(output) ? [output] : [`${output}.js`, `${output}/index.js`];
  let built = false;
  for (const candidate of candidates) {
    if (!inBuildFolder(ctx, dir, pkg, candidate)) continue;
    built = true;
    const source = sourceOf(ctx, dir, pkg, candidate);
    if (source) return { source };
  }
  return built ? { source: null } : null;
}

function sourceOf(ctx: BuildOutputContext, dir: string, pkg: PackageJson, output: string): string | null {
  const stem = outputStem(output);
  let subpath = `./${under(output, dir)}`;
  let siblings: string[] = [];
  for (const entry of entryPoints(pkg)) {
    const same = entry.targets.some((t) => !t.includes("*") && outputStem(posix.normalize(posix.join(dir, t))) === stem);
    if (!same) continue;
    subpath = entry.subpath;
    siblings = entry.targets;
    break;
  }
  return sourceOfOutput(ctx, dir, pkg, `./${under(output, dir)}`, siblings, subpath);
}
