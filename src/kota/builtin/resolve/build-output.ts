/**
 * A workspace package's manifest points at build output (`dist/index.d.ts`) that a checkout has not
 * built: the import means the source that output is built from, as TypeScript's project references
 * read it (the output's declaration "exists" and stands for its source). Tried in order:
 *  1. the package's tsc layout: `<outDir>/x.d.ts` comes from `<rootDir>/x.ts`;
 *  2. a sibling condition of the same export that names a TypeScript source;
 *  3. preconstruct's flat output names (`dist/pkg-name-entry.cjs.d.mts`) from its entrypoints;
 *  4. the output's path under `src/`, dropping the fewest leading folders (`build/modern/index` ->
 *     `src/index`, `mini/index` -> `src/mini/index`);
 *  5. the same at the package root, the build root and any variant folders below it dropped
 *     (`dist/production/dom-export.d.ts` -> `dom-export.ts`), TypeScript sources only (a `.js` there
 *     is a shim that loads the build, not its source);
 *  6. for the package's main entry, `src/index`, then `index` at the package root;
 *  7. the entry its bundler config names exactly as the output (bundle-entries.ts): `dist/workers/forks.js`
 *     -> the source `'workers/forks'` names, a variant folder below the build root dropped.
 * Dropping folders never lands on a bare `index` for a subpath other than the main entry
 * (`dist/cli/index.js` is not the package's `index.ts`); `x/index` also tries `x` (`server/index` -> `server.ts`).
 * All paths are repo-relative; `exists` says whether a source file is in the index.
 */
import { posix } from "node:path";
import type { PackageJson } from "./packages.ts";
import type { ResolvedTsconfig } from "./tsconfig.ts";

export type BuildOutputContext = {
  exists(path: string): boolean;
  /** The tsconfig files in a package's own folder, parsed. */
  packageConfigs(dir: string): ResolvedTsconfig[];
  /** The build entries the bundler configs in a package's own folder name: output name -> source. */
  bundleEntries(dir: string): ReadonlyMap<string, string>;
};

const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const TS_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts"];
const TS_SOURCE = /(?<!\.d)\.[cm]?tsx?$/;
// Output names carry format tags before the extension: `index.cjs.js`, `pkg.esm.d.mts`, `x.development.js`.
const OUTPUT_SUFFIX =
  /(?:\.(?:cjs|esm|es|mjs|umd|iife|prod|production|dev|development|browser|node|worker|min|modern|legacy))*\.(?:d\.)?[cm]?[jt]sx?$/;

/** The output path without its extension and format tags. */
export function outputStem(path: string): string {
  return path.replace(OUTPUT_SUFFIX, "");
}

function source(ctx: BuildOutputContext, stem: string, extensions = SOURCE_EXTENSIONS): string | null {
  for (const e of extensions) if (ctx.exists(stem + e)) return stem + e;
  for (const e of extensions) if (ctx.exists(`${stem}/index${e}`)) return `${stem}/index${e}`;
  return null;
}

/**
 * The source for an output path's folders and name (`["dist", "production", "index"]`) under `base`,
 * dropping the fewest leading folders from `from` on: the first that exists. A bare `index` is left
 * to the main entry (`main`); a stem `x/index` also tries `x`.
 */
function dropFolders(
  ctx: BuildOutputContext,
  base: string,
  segments: readonly string[],
  from: number,
  main: boolean,
  extensions = SOURCE_EXTENSIONS,
): string | null {
  for (let k = from; k < segments.length; k++) {
    const rest = segments.slice(k);
    if (rest.length === 1 && rest[0] === "index" && !main) break;
    const found = source(ctx, posix.join(base, ...rest), extensions);
    if (found) return found;
    if (rest.length > 1 && rest[rest.length - 1] === "index") {
      const stem = posix.join(base, ...rest.slice(0, -1));
      for (const e of extensions) if (ctx.exists(stem + e)) return stem + e;
    }
  }
  return null;
}

const inside = (path: string, dir: string) => dir === "." || path === dir || path.startsWith(`${dir}/`);
const under = (path: string, dir: string) => (dir === "." ? path : path.slice(dir.length + 1));

function tscLayout(ctx: BuildOutputContext, dir: string, output: string, main: boolean): string | null {
  for (const c of ctx.packageConfigs(dir)) {
    for (const out of [c.declarationDir, c.outDir]) {
      if (out === null || !inside(output, out) || output === out) continue;
      const rel = outputStem(under(output, out));
      const roots = c.rootDir !== null ? [c.rootDir] : [posix.join(dir, "src"), dir];
      for (const root of roots) {
        const found = source(ctx, posix.join(root, rel));
        if (found) return found;
      }
      // A bundler writes variants below the outDir (`dist/production/index.d.ts`): the folders under it
      // dropped; at the package root (no rootDir said so) TypeScript sources only, as in step 5.
      for (const root of roots) {
        const found = dropFolders(
          ctx,
          root,
          rel.split("/"),
          1,
          main,
          c.rootDir === null && root === dir ? TS_EXTENSIONS : SOURCE_EXTENSIONS,
        );
        if (found) return found;
      }
    }
  }
  return null;
}

function preconstruct(ctx: BuildOutputContext, dir: string, pkg: PackageJson, output: string): string | null {
  const config = (pkg as { preconstruct?: { entrypoints?: unknown } }).preconstruct;
  if (!config || typeof pkg.name !== "string") return null;
  const entrypoints = Array.isArray(config.entrypoints) ? config.entrypoints.filter((e): e is string => typeof e === "string") : ["index"];
  const flat = pkg.name.replace(/^@/, "").replace(/\//g, "-");
  const stem = outputStem(under(output, dir));
  for (const raw of entrypoints) {
    const entry = raw
      .replace(/^\.\//, "")
      .replace(/\.\{?[^/]*$/, "")
      .replace(/(^|\/)index$/, "");
    const name = entry ? `${flat}-${entry.replace(/\//g, "-")}` : flat;
    // Older preconstruct writes `<entry>/dist/<name>`, newer puts every entrypoint in the root `dist/`.
    if (stem !== `dist/${name}` && stem !== `${entry}/dist/${name}`) continue;
    const found = source(ctx, posix.join(dir, "src", entry || "index"));
    if (found) return found;
  }
  return null;
}

/** The source a missing build output of package `dir` stands for, or null. */
export function sourceOfOutput(
  ctx: BuildOutputContext,
  dir: string,
  pkg: PackageJson,
  target: string,
  siblings: readonly string[],
  subpath: string,
): string | null {
  const output = posix.normalize(posix.join(dir, target));
  if (!inside(output, dir) || output.startsWith("../")) return null;
  const main = subpath === ".";
  const layout = tscLayout(ctx, dir, output, main);
  if (layout) return layout;
  for (const s of siblings) {
    if (!TS_SOURCE.test(s)) continue;
    const p = posix.normalize(posix.join(dir, s));
    if (inside(p, dir) && ctx.exists(p)) return p;
  }
  const flat = preconstruct(ctx, dir, pkg, output);
  if (flat) return flat;
  const segments = outputStem(under(output, dir)).split("/");
  const found = dropFolders(ctx, posix.join(dir, "src"), segments, 0, main) ?? dropFolders(ctx, dir, segments, 1, main, TS_EXTENSIONS);
  if (found) return found;
  const guess = main ? (source(ctx, posix.join(dir, "src", "index")) ?? source(ctx, posix.join(dir, "index"), TS_EXTENSIONS)) : null;
  return guess ?? bundleEntry(ctx, dir, output);
}

/**
 * The source the package's bundler config names for an output below its build root (`dist/x/y.js`:
 * the entry `x/y`, then `y` with the variant folder `x` dropped), by exact name only.
 */
export function bundleEntry(ctx: BuildOutputContext, dir: string, output: string): string | null {
  const entries = ctx.bundleEntries(dir);
  if (entries.size === 0 || !inside(output, dir)) return null;
  const rel = under(output, dir).replace(/\.(?:d\.)?[cm]?[jt]sx?$/, "");
  const segments = rel.split("/");
  for (let k = 1; k < segments.length; k++) {
    const found = entries.get(segments.slice(k).join("/"));
    if (found) return found;
  }
  return null;
}
