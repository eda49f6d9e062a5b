/**
 * Module resolution after TypeScript's rules (bundler / node16 semantics): relative paths with
 * extension substitution (`./a.js` -> `a.ts`), index files, tsconfig `paths` and `baseUrl`,
 * workspace packages through `exports` / `main` (mapped from build output back to sources when
 * the output is not in the tree), and package `imports` (`#x`). Everything is repo-relative.
 */
import { builtinModules } from "node:module";
import { posix } from "node:path";
import { matchSubpath, type Packages } from "./packages.ts";
import type { Tsconfigs } from "./tsconfig.ts";

export type Resolution =
  | { status: "resolved"; path: string }
  /** A package or builtin outside the repository. */
  | { status: "external" }
  /** An existing file that is not source code (JSON, CSS, an image). */
  | { status: "asset"; path: string }
  | { status: "unresolved" };

const BUILTINS = new Set(builtinModules);
const TRY_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"];
const JS_TO_TS: Record<string, string[]> = {
  ".js": [".ts", ".tsx", ".d.ts"],
  ".jsx": [".tsx", ".ts"],
  ".mjs": [".mts", ".d.mts"],
  ".cjs": [".cts", ".d.cts"],
};
const SOURCE_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]);
// Build folders a package's `exports` point into; their sources usually sit in src/.
const OUTPUT_DIR = /\/(?:dist|lib|build|out|esm|cjs|types)(?:\/(?:types|esm|cjs|node|browser))?\//;

export type ResolverDeps = {
  /** Indexed source files. */
  files: ReadonlySet<string>;
  /** Whether any file (not only source) exists at a repo-relative path. */
  exists(path: string): boolean;
  tsconfigs: Tsconfigs;
  packages: Packages;
  /** Whether `dir/package.json` is in the repo. */
  hasPackageJson(dir: string): boolean;
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

  const tryDirectory = (dir: string, depth: number): string | null => {
    if (depth < 3 && deps.hasPackageJson(dir)) {
      const pkg = deps.packages.read(dir === "." ? "package.json" : `${dir}/package.json`);
      for (const field of [pkg?.types, pkg?.typings, pkg?.module, pkg?.main]) {
        if (typeof field !== "string") continue;
        const target = norm(posix.join(dir, field));
        const found = target === null ? null : (tryFile(target) ?? tryDirectory(target, depth + 1));
        if (found) return found;
      }
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

  /** A package target (`./dist/index.js`), or the source it was built from when the output is not in the tree. */
  const tryTarget = (pkgDir: string, target: string): Resolution | null => {
    if (!target.startsWith("./")) return null;
    const joined = posix.join(pkgDir, target);
    const direct = tryPath(joined);
    if (direct) return direct;
    const rel = `/${target.slice(2)}`;
    if (!OUTPUT_DIR.test(rel)) return null;
    const source = rel.replace(OUTPUT_DIR, "/src/").replace(/(\.d)?\.[cm]?[jt]s$/, "");
    return (
      tryPath(posix.join(pkgDir, source.slice(1))) ??
      tryPath(
        posix.join(
          pkgDir,
          rel
            .replace(OUTPUT_DIR, "/")
            .replace(/(\.d)?\.[cm]?[jt]s$/, "")
            .slice(1),
        ),
      )
    );
  };

  const resolvePackage = (dir: string, subpath: string): Resolution | null => {
    const pkg = deps.packages.read(dir === "." ? "package.json" : `${dir}/package.json`);
    if (pkg?.exports !== undefined) {
      for (const t of matchSubpath(pkg.exports, subpath)) {
        const r = tryTarget(dir, t);
        if (r) return r;
      }
      return null;
    }
    if (subpath === ".") {
      for (const field of [pkg?.types, pkg?.typings, pkg?.module, pkg?.main]) {
        if (typeof field !== "string") continue;
        const r = tryTarget(dir, field.startsWith("./") ? field : `./${field}`);
        if (r) return r;
      }
      return tryPath(dir);
    }
    return tryPath(posix.join(dir, subpath));
  };

  /** `#x` through the `imports` of the nearest package.json above the importing file. */
  const resolveHash = (from: string, spec: string): Resolution | null => {
    for (let dir = posix.dirname(from); ; dir = posix.dirname(dir)) {
      if (deps.hasPackageJson(dir)) {
        const pkg = deps.packages.read(dir === "." ? "package.json" : `${dir}/package.json`);
        for (const t of matchSubpath(pkg?.imports, spec)) {
          const r = t.startsWith("./") ? tryTarget(dir, t) : resolveBare(from, t);
          if (r && r.status !== "unresolved") return r;
        }
        return null;
      }
      if (dir === ".") return null;
    }
  };

  const resolveBare = (from: string, spec: string): Resolution => {
    const config = deps.tsconfigs.forFile(from);
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
    const dir = deps.packages.dirOf(name);
    if (dir !== null) return resolvePackage(dir, subpath) ?? { status: "unresolved" };
    return { status: "external" };
  };

  return {
    resolve(from: string, rawSpec: string): Resolution {
      if (rawSpec.startsWith("#")) return resolveHash(from, rawSpec) ?? { status: "unresolved" };
      // Bundler queries (`./a.css?inline`, `./w.js?worker`) do not change which file is meant.
      const spec = rawSpec.replace(/\?.*$/, "");
      if (!spec) return { status: "unresolved" };
      if (spec.startsWith("node:") || spec.startsWith("bun:") || BUILTINS.has(spec)) return { status: "external" };
      if (isRelative(spec)) return tryPath(posix.join(posix.dirname(from), spec)) ?? { status: "unresolved" };
      if (spec.startsWith("/")) return { status: "unresolved" };
      if (/^[a-z][a-z0-9+.-]*:/i.test(spec)) return { status: "external" }; // https:, data:, virtual:
      return resolveBare(from, spec);
    },
  };
}

export type Resolver = ReturnType<typeof createResolver>;
