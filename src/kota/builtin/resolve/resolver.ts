/**
 * Module resolution after TypeScript's rules, per the config that governs the importing file:
 * relative paths with extension substitution (`./a.js` -> `a.ts`), index files, tsconfig `paths`
 * and `baseUrl`, a package importing itself by name, workspace packages through `exports` (the conditions
 * TypeScript uses for that config's moduleResolution, customConditions included) or `types`/`main`, package `imports`
 * (`#x`), and build output that is not in the tree read as the source it is built from
 * (build-output.ts). Everything is repo-relative.
 */
import { builtinModules } from "node:module";
import { posix } from "node:path";
import type { ImportKind } from "../parse/facts.ts";
import { isAssetPath } from "./asset-extensions.ts";
import { type BuildOutputContext, bundleEntry, sourceOfOutput } from "./build-output.ts";
import { type ExportTarget, subpathTargets } from "./conditions.ts";
import type { Packages } from "./packages.ts";
import { relativeOutputSource } from "./relative-output.ts";
import type { ResolvedTsconfig, Tsconfigs } from "./tsconfig.ts";

export type Resolution =
  | { status: "resolved"; path: string }
  /** A package or builtin outside the repository. */
  | { status: "external" }
  /** An existing file that is not source code (JSON, CSS, an image), or a bundler query (`./a.js?raw`). */
  | { status: "asset"; path: string }
  /** `workspace`: the specifier names a package of this repository. */
  | { status: "unresolved"; workspace?: boolean };

const BUILTINS = new Set(builtinModules);
/**
 * What TypeScript adds to a specifier without a known extension (and to `index`), in its order: an
 * `.mts`/`.cts`/`.mjs`/`.cjs` file is reached only by a specifier naming that extension (or its
 * JavaScript twin, JS_TO_TS), under every moduleResolution (moduleNameResolver.ts, tryAddingExtensions).
 */
const TRY_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".js", ".jsx"];
const JS_TO_TS: Record<string, string[]> = {
  ".js": [".ts", ".tsx", ".d.ts"],
  ".jsx": [".tsx", ".ts", ".d.ts"],
  ".mjs": [".mts", ".d.mts"],
  ".cjs": [".cts", ".d.cts"],
};
const SOURCE_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]);
export type ResolverDeps = {
  /** Indexed source files. */
  files: ReadonlySet<string>;
  /** tsconfig*.json / jsconfig*.json files of the repository. */
  configFiles: readonly string[];
  /** Whether any file (not only source) exists at a repo-relative path. */
  exists(path: string): boolean;
  tsconfigs: Tsconfigs;
  packages: Packages;
  /** Whether `dir/package.json` is in the repo. */
  hasPackageJson(dir: string): boolean;
  /** The build entries the bundler configs in package folder `dir` name (bundle-entries.ts); none when not given. */
  bundleEntries?(dir: string): ReadonlyMap<string, string>;
};

function isRelative(spec: string): boolean {
  return spec === "." || spec === ".." || spec.startsWith("./") || spec.startsWith("../");
}

function packageName(spec: string): { name: string; subpath: string } {
  const parts = spec.split("/");
  const n = spec.startsWith("@") ? 2 : 1;
  const rest = parts.slice(n).join("/");
  return { name: parts.slice(0, n).join("/"), subpath: rest ? `./${rest}` : "." };
}

const unresolved: Resolution = { status: "unresolved" };

export function createResolver(deps: ResolverDeps) {
  const { files } = deps;

  /** A path outside the repository normalizes to `../...`: never a match. */
  const norm = (p: string): string | null => {
    const n = posix.normalize(p);
    return n.startsWith("../") || n === ".." ? null : n.replace(/\/$/, "");
  };

  const tryFile = (p: string): string | null => {
    const ext = posix.extname(p);
    const swaps = JS_TO_TS[ext];
    if (swaps) {
      const stem = p.slice(0, -ext.length);
      for (const s of swaps) if (files.has(stem + s)) return stem + s;
    }
    if (files.has(p)) return p;
    for (const e of TRY_EXTENSIONS) if (files.has(p + e)) return p + e;
    return null;
  };

  const packageJson = (dir: string) =>
    deps.hasPackageJson(dir) ? deps.packages.read(dir === "." ? "package.json" : `${dir}/package.json`) : null;

  const tryDirectory = (dir: string, depth: number): string | null => {
    const pkg = depth < 3 ? packageJson(dir) : null;
    for (const field of [pkg?.types, pkg?.typings, pkg?.main]) {
      if (typeof field !== "string") continue;
      const target = norm(posix.join(dir, field));
      const found = target === null ? null : (tryFile(target) ?? tryDirectory(target, depth + 1));
      if (found) return found;
    }
    for (const e of TRY_EXTENSIONS) if (files.has(`${dir}/index${e}`)) return `${dir}/index${e}`;
    return null;
  };

  /** A file or folder path, as TypeScript tries it; then non-source files that exist. */
  const tryPath = (raw: string): Resolution | null => {
    const p = norm(raw);
    if (p === null) return null;
    const found = tryFile(p) ?? tryDirectory(p, 0);
    if (found) return { status: "resolved", path: found };
    if (!SOURCE_EXTENSIONS.has(posix.extname(p)) && posix.extname(p) !== "" && deps.exists(p)) return { status: "asset", path: p };
    return null;
  };

  const configsByDir = new Map<string, ResolvedTsconfig[]>();
  const entriesByDir = new Map<string, ReadonlyMap<string, string>>();
  const output: BuildOutputContext = {
    bundleEntries(dir) {
      let entries = entriesByDir.get(dir);
      if (!entries) {
        entries = deps.bundleEntries?.(dir) ?? new Map();
        entriesByDir.set(dir, entries);
      }
      return entries;
    },
    exists: (p) => files.has(p),
    packageConfigs(dir) {
      let list = configsByDir.get(dir);
      if (!list) {
        list = deps.configFiles
          .filter((f) => posix.dirname(f) === dir && /^tsconfig.*\.json$/.test(posix.basename(f)))
          .map((f) => deps.tsconfigs.config(f))
          .filter((c): c is ResolvedTsconfig => c !== null);
        configsByDir.set(dir, list);
      }
      return list;
    },
  };

  /** One target of a package's manifest: the file, or the source of build output that is not there. */
  const tryTarget = (dir: string, target: ExportTarget, subpath: string): Resolution | null => {
    if (!target.path.startsWith("./")) return null;
    const direct = tryPath(posix.join(dir, target.path));
    if (direct) return direct;
    const pkg = packageJson(dir);
    const source = pkg ? sourceOfOutput(output, dir, pkg, target.path, target.siblings, subpath) : null;
    return source ? { status: "resolved", path: source } : null;
  };

  const resolvePackage = (dir: string, subpath: string, conditions: ReadonlySet<string> | null): Resolution | null => {
    const pkg = packageJson(dir);
    if (pkg?.exports !== undefined && pkg.exports !== null && conditions) {
      for (const t of subpathTargets(pkg.exports, subpath, conditions)) {
        const r = tryTarget(dir, t, subpath);
        if (r) return r;
      }
      return null;
    }
    if (subpath === ".") {
      for (const field of [pkg?.types, pkg?.typings, pkg?.main]) {
        if (typeof field !== "string") continue;
        const path = field.startsWith("./") ? field : `./${field}`;
        const r = tryTarget(dir, { path, siblings: [] }, ".");
        if (r) return r;
      }
      return tryPath(dir) ?? (pkg ? tryTarget(dir, { path: "./index.js", siblings: [] }, ".") : null);
    }
    return tryPath(posix.join(dir, subpath)) ?? tryTarget(dir, { path: subpath, siblings: [] }, subpath);
  };

  /**
   * A relative import of a workspace package's own folder (`from '..'`, `from './pkg'`): TypeScript
   * reads the folder's package.json `types`, `typings`, `main` (tryDirectory; not `exports`, which only
   * a package name reaches). Build output they name that is not in the tree stands for its source, as
   * for a bare import of the package; else the import names the package and did not resolve.
   */
  const memberFolder = (raw: string): Resolution | null => {
    const dir = norm(raw);
    if (dir === null || !deps.hasPackageJson(dir) || !deps.packages.isMember(dir)) return null;
    const pkg = packageJson(dir);
    for (const field of [pkg?.types, pkg?.typings, pkg?.main]) {
      if (typeof field !== "string") continue;
      const r = tryTarget(dir, { path: field.startsWith("./") ? field : `./${field}`, siblings: [] }, ".");
      if (r) return r;
    }
    return { status: "unresolved", workspace: true };
  };

  /** The package scope of a folder: the nearest folder at or above it with a package.json, or null. */
  const scopes = new Map<string, string | null>();
  const packageScope = (dir: string): string | null => {
    let scope = scopes.get(dir);
    if (scope === undefined) {
      scope = deps.hasPackageJson(dir) ? dir : dir === "." ? null : packageScope(posix.dirname(dir));
      scopes.set(dir, scope);
    }
    return scope;
  };

  /** Whether a file is an ES module under node16 rules: by extension, else its package scope's "type". */
  const isEsm = (file: string): boolean => {
    const ext = posix.extname(file);
    if (ext === ".mts" || ext === ".mjs") return true;
    if (ext === ".cts" || ext === ".cjs") return false;
    const scope = packageScope(posix.dirname(file));
    return scope !== null && packageJson(scope)?.type === "module";
  };

  /**
   * A package importing itself by its own name (Node's and TypeScript's self-reference): the importing
   * file's package scope names that package and has `exports`, read under the importer's conditions.
   */
  const resolveSelf = (from: string, name: string, subpath: string, conditions: ReadonlySet<string>): Resolution | null => {
    const scope = packageScope(posix.dirname(from));
    const pkg = scope === null ? null : packageJson(scope);
    if (scope === null || pkg?.name !== name || pkg.exports === undefined || pkg.exports === null) return null;
    return resolvePackage(scope, subpath, conditions);
  };

  /**
   * A relative import of a package's missing build output (a root shim's `export * from './dist/node.js'`,
   * a test's `from '../dist/index.js'`): the source its bundler config names for that output, exactly;
   * else, inside a build folder of a linked package (relative-output.ts), the source as the package's
   * manifest entry would map it, or an unresolved import of that package when none is found.
   */
  const outputs = new Map<string, Resolution | null>(); // by target path: a package's tests import the same output many times
  const relativeOutput = (from: string, spec: string): Resolution | null => {
    const p = norm(posix.join(posix.dirname(from), spec));
    if (p === null) return null;
    let r = outputs.get(p);
    if (r === undefined) {
      r = outputOf(p);
      outputs.set(p, r);
    }
    return r;
  };
  const outputOf = (p: string): Resolution | null => {
    const scope = isAssetPath(p) ? null : packageScope(posix.dirname(p));
    if (scope === null) return null;
    const found = bundleEntry(output, scope, p);
    if (found) return { status: "resolved", path: found };
    const pkg = deps.packages.isMember(scope) ? packageJson(scope) : null;
    const built = pkg ? relativeOutputSource(output, scope, pkg, p) : null;
    if (!built) return null;
    return built.source ? { status: "resolved", path: built.source } : { status: "unresolved", workspace: true };
  };

  /** The export conditions TypeScript applies to this import, or null where `exports` is not read (node10, classic). */
  const conditionsFor = (from: string, kind: ImportKind, config: ResolvedTsconfig | null): ReadonlySet<string> | null => {
    const mode = config?.moduleResolution ?? "bundler";
    if (mode === "node10" || mode === "classic") return null;
    const set = new Set(["types", ...(config?.customConditions ?? [])]);
    if (mode === "node16") {
      set.add("node");
      set.add(kind === "require" || (kind !== "dynamic" && !isEsm(from)) ? "require" : "import");
    } else set.add(kind === "require" ? "require" : "import");
    return set;
  };

  /** `#x` through the `imports` of the nearest package.json above the importing file. */
  const resolveHash = (from: string, spec: string, kind: ImportKind, config: ResolvedTsconfig | null): Resolution | null => {
    const conditions = conditionsFor(from, kind, config) ?? new Set(["types", "import", "require"]);
    const dir = packageScope(posix.dirname(from));
    if (dir === null) return null;
    for (const t of subpathTargets(packageJson(dir)?.imports, spec, conditions)) {
      const r = t.path.startsWith("./") ? tryTarget(dir, t, spec) : resolveBare(from, t.path, kind, config);
      if (r && r.status !== "unresolved") return r;
    }
    return null;
  };

  const resolveBare = (from: string, spec: string, kind: ImportKind, config: ResolvedTsconfig | null): Resolution => {
    if (config) {
      for (const m of config.paths) {
        const matches = m.wildcard
          ? spec.startsWith(m.prefix) && spec.endsWith(m.suffix) && spec.length >= m.prefix.length + m.suffix.length
          : spec === m.prefix;
        if (!matches) continue;
        const middle = m.wildcard ? spec.slice(m.prefix.length, spec.length - m.suffix.length) : "";
        for (const t of m.targets) {
          const r = tryPath(m.wildcard ? t.replace("*", middle) : t);
          if (r) return r;
        }
        break;
      }
      if (config.baseUrl !== null) {
        const r = tryPath(posix.join(config.baseUrl, spec));
        if (r) return r;
      }
    }
    const { name, subpath } = packageName(spec);
    const conditions = conditionsFor(from, kind, config);
    // TypeScript tries the self-reference before node_modules (node16, nodenext, bundler: where `exports` is read).
    const self = conditions ? resolveSelf(from, name, subpath, conditions) : null;
    if (self) return self;
    const dir = deps.packages.dirOf(name, from);
    if (dir === null) return { status: "external" };
    const found = resolvePackage(dir, subpath, conditions);
    if (found) return found;
    // A stylesheet, image or JSON entry of the package carries no code symbol: nothing is missed through it.
    const targets = conditions ? subpathTargets(packageJson(dir)?.exports, subpath, conditions) : [];
    if (targets.length > 0 ? targets.every((t) => isAssetPath(t.path)) : isAssetPath(subpath))
      return { status: "asset", path: posix.join(dir, subpath) };
    return { status: "unresolved", workspace: true };
  };

  return {
    /** The files read as base configs through `extends` (tsconfig.ts). */
    baseConfigs: (): string[] => deps.tsconfigs.baseFiles(),
    resolve(from: string, rawSpec: string, kind: ImportKind = "import"): Resolution {
      const config = deps.tsconfigs.forFile(from);
      if (rawSpec.startsWith("#")) return resolveHash(from, rawSpec, kind, config) ?? unresolved;
      const query = rawSpec.indexOf("?");
      if (query !== -1) {
        // A bundler query (`./a.css?inline`, `./main.js?raw`) imports text or a URL, not a module: TypeScript resolves none.
        const base = rawSpec.slice(0, query);
        if (!isRelative(base)) return { status: "external" };
        const p = norm(posix.join(posix.dirname(from), base));
        return p !== null && (files.has(p) || deps.exists(p)) ? { status: "asset", path: p } : unresolved;
      }
      const spec = rawSpec;
      if (!spec) return unresolved;
      if (spec.startsWith("node:") || spec.startsWith("bun:") || BUILTINS.has(spec)) return { status: "external" };
      if (isRelative(spec)) {
        const path = posix.join(posix.dirname(from), spec);
        return tryPath(path) ?? memberFolder(path) ?? relativeOutput(from, spec) ?? unresolved;
      }
      if (spec.startsWith("/")) return unresolved;
      if (/^[a-z][a-z0-9+.-]*:/i.test(spec)) return { status: "external" }; // https:, data:, virtual:
      return resolveBare(from, spec, kind, config);
    },
  };
}

export type Resolver = ReturnType<typeof createResolver>;
