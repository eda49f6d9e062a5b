/**
 * The file a tsconfig `extends` entry names, as TypeScript finds it (typescript 5.9
 * `getExtendsConfigPath`, src/compiler/commandLineParser.ts; tsconfig reference, "extends"):
 * - `./x` or `../x`: that file, else `x.json`, relative to the config that writes it.
 * - anything else is a package lookup done as a node16 `require` of a JSON file
 *   (`nodeNextJsonConfigResolver`: conditions `require`, `types`, `node` and `default`):
 *   - the package has `exports` (TypeScript >= 5.0 reads them for extends): the subpath (`.` or
 *     `./rest`) through them, and only through them;
 *   - else `pkg/rest`: `rest` if it ends in `.json`, else `rest.json`, else the folder `rest` (its
 *     package.json `tsconfig` field, else its `tsconfig.json`);
 *   - else `pkg`: its package.json `tsconfig` field, else its `tsconfig.json`.
 * Packages are found as this repository's workspace members only (the folders a package manager links
 * by name): a base config from node_modules is not read, and the entry is left out as before.
 */
import { posix } from "node:path";
import { subpathTargets } from "./conditions.ts";

export type ExtendsDeps = {
  /** Whether a file exists (repo-relative). */
  exists(path: string): boolean;
  /** The folder of a workspace package `name` as linked for a file in `fromDir`, or null. */
  packageDir(name: string, fromDir: string): string | null;
  /** The package.json in `dir`, parsed, or null. */
  packageJson(dir: string): { exports?: unknown; tsconfig?: unknown } | null;
};

/** The conditions of TypeScript's JSON config lookup (a CommonJS-mode node16 resolution). */
const CONFIG_CONDITIONS: ReadonlySet<string> = new Set(["require", "types", "node"]);

const inside = (p: string): string | null => {
  const n = posix.normalize(p);
  return n === ".." || n.startsWith("../") || posix.isAbsolute(n) ? null : n;
};

/** The repo-relative file `spec` extends from the config in folder `dir`, or null when none is found. */
export function extendsTarget(deps: ExtendsDeps, dir: string, raw: unknown): string | null {
  if (typeof raw !== "string" || raw === "") return null;
  const spec = raw.replaceAll("\\", "/");
  if (spec.startsWith("/") || /^[A-Za-z]:\//.test(spec)) return null; // a rooted path: outside the repository
  if (spec.startsWith("./") || spec.startsWith("../")) {
    const target = inside(posix.join(dir, spec));
    if (target === null) return null;
    if (deps.exists(target)) return target;
    return !target.endsWith(".json") && deps.exists(`${target}.json`) ? `${target}.json` : null;
  }
  const parts = spec.split("/");
  const n = spec.startsWith("@") ? 2 : 1;
  if (parts.length < n || parts.slice(0, n).some((p) => p === "")) return null;
  const name = parts.slice(0, n).join("/");
  const rest = parts.slice(n).join("/");
  const pkgDir = deps.packageDir(name, dir);
  if (pkgDir === null) return null;
  const at = (p: string) => inside(posix.join(pkgDir, p));
  const pkg = deps.packageJson(pkgDir);
  if (pkg?.exports !== undefined && pkg.exports !== null && pkg.exports !== false) {
    for (const t of subpathTargets(pkg.exports, rest === "" ? "." : `./${rest}`, CONFIG_CONDITIONS)) {
      const file = t.path.startsWith("./") && t.path.endsWith(".json") ? at(t.path) : null;
      if (file !== null && deps.exists(file)) return file;
    }
    return null;
  }
  if (rest !== "") {
    const file = at(rest);
    if (file === null) return null;
    if (file.endsWith(".json")) return deps.exists(file) ? file : folderConfig(deps, file);
    if (deps.exists(`${file}.json`)) return `${file}.json`;
    return folderConfig(deps, file);
  }
  return folderConfig(deps, pkgDir);
}

/** A folder as a config: its package.json `tsconfig` field, else its `tsconfig.json`. */
function folderConfig(deps: ExtendsDeps, dir: string): string | null {
  const field = deps.packageJson(dir)?.tsconfig;
  if (typeof field === "string") {
    const file = inside(posix.join(dir, field));
    if (file !== null) {
      if (deps.exists(file)) return file;
      if (!file.endsWith(".json") && deps.exists(`${file}.json`)) return `${file}.json`;
    }
  }
  const index = dir === "." ? "tsconfig.json" : `${dir}/tsconfig.json`;
  return deps.exists(index) ? index : null;
}
