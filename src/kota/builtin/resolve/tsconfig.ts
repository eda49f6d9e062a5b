/**
 * tsconfig.json / jsconfig.json as module resolution needs them: the config that governs a file
 * (as the editor picks it: up from the file, the first config whose files, include and exclude
 * take it in, or one of its references that does), its `extends` chain (relative files, and configs of
 * this repository's workspace packages: extends-target.ts; node_modules is not read), and the `baseUrl`
 * and `paths` that come out of it. All paths repo-relative.
 */
import { posix } from "node:path";
import { compileGlob, type Glob } from "../../../glob.ts";
import { type ExtendsDeps, extendsTarget } from "./extends-target.ts";
import { parseJsonc } from "./jsonc.ts";

/** A list of paths from a config, with the folder they are relative to (the config that wrote them). */
type Layered = { dir: string; list: string[] };

const definedOnly = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

const globs = new Map<string, Glob>();
/** An include/exclude entry as TypeScript reads it: a folder means everything below it. */
function globFor(pattern: string): Glob {
  let g = globs.get(pattern);
  if (!g) {
    const last = pattern.slice(pattern.lastIndexOf("/") + 1);
    const isDir = !/[*?]/.test(last) && !/\.[A-Za-z0-9]+$/.test(last);
    g = compileGlob(pattern === "." ? "**/*" : isDir ? `${pattern}/**/*` : pattern);
    globs.set(pattern, g);
  }
  return g;
}

export type PathMapping = { prefix: string; suffix: string; wildcard: boolean; targets: string[] };

/** How TypeScript reads package.json and which export conditions apply (nodenext reads as node16). */
export type ResolutionMode = "bundler" | "node16" | "node10" | "classic";

export type ResolvedTsconfig = {
  /** The config file used, repo-relative. */
  file: string;
  baseUrl: string | null;
  /** Targets of `paths`, already joined with their base (baseUrl, else the folder of the config that set them). */
  paths: PathMapping[];
  moduleResolution: ResolutionMode;
  /** Extra export conditions (compilerOptions.customConditions). */
  customConditions: string[];
  /** Where the project's build output goes and the sources it comes from (repo-relative), when set. */
  outDir: string | null;
  declarationDir: string | null;
  rootDir: string | null;
};

type RawOptions = {
  baseUrl?: unknown;
  paths?: unknown;
  module?: unknown;
  moduleResolution?: unknown;
  customConditions?: unknown;
  outDir?: unknown;
  declarationDir?: unknown;
  rootDir?: unknown;
};

/** TypeScript's moduleResolution for a config: as written, else what its `module` implies (TypeScript 6 defaults). */
function modeOf(moduleResolution: unknown, module: unknown): ResolutionMode {
  const m = typeof moduleResolution === "string" ? moduleResolution.toLowerCase() : "";
  if (m === "bundler") return "bundler";
  if (m === "node16" || m === "nodenext") return "node16";
  if (m === "node" || m === "node10") return "node10";
  if (m === "classic") return "classic";
  const mod = typeof module === "string" ? module.toLowerCase() : "";
  if (/^node(16|18|20|next)$/.test(mod)) return "node16";
  if (mod === "commonjs" || mod === "umd" || mod === "amd") return "node10";
  return "bundler";
}
type Layer = { dir: string; options: RawOptions };

// TypeScript 5.5's template for "the folder of the config in use" (tsconfig reference, "${configDir}"):
// a path that starts with it is relative to the config being built, not to the base config that wrote it.
const CONFIG_DIR = "$" + "{configDir}";

/** A path option of a config in `dir` (repo-relative), as seen by the config in `leafDir`. */
function configPath(value: string, dir: string, leafDir: string): string {
  return posix.normalize(value.startsWith(CONFIG_DIR) ? `./${leafDir}/${value.slice(CONFIG_DIR.length)}` : posix.join(dir, value));
}

const CONFIG_NAMES = ["tsconfig.json", "jsconfig.json"];

/**
 * `readText(path)` returns a file's text or null; `has(path)` says whether the repo lists that config file.
 * A package `extends` needs `packageDir` and `packageJson` (workspace packages); `exists` finds a base
 * config the scan does not list as one (`base.json` in a config package); `baseFiles()` lists what `extends` read.
 */
export function createTsconfigs(deps: { has(path: string): boolean; readText(path: string): string | null } & Partial<ExtendsDeps>) {
  const resolved = new Map<string, ResolvedTsconfig>();
  const bases = new Set<string>();
  const exists = (p: string): boolean => deps.has(p) || (p.endsWith(".json") && deps.exists?.(p) === true);
  const extendsDeps: ExtendsDeps = {
    exists,
    packageDir: (name, from) => deps.packageDir?.(name, from) ?? null,
    packageJson: (dir) => deps.packageJson?.(dir) ?? null,
  };

  type RawConfig = {
    extends?: unknown;
    compilerOptions?: RawOptions;
    references?: unknown;
    files?: unknown;
    include?: unknown;
    exclude?: unknown;
  };
  /** An `extends` target inside the repository (extends-target.ts), or null (node_modules is not read). */
  const baseFile = (dir: string, base: unknown): string | null => {
    const target = extendsTarget(extendsDeps, dir, base);
    if (target !== null) bases.add(target);
    return target;
  };
  const raw = new Map<string, RawConfig | null>();
  const readConfig = (file: string): RawConfig | null => {
    if (raw.has(file)) return raw.get(file)!;
    const text = deps.readText(file);
    const json = text === null ? null : parseJsonc(text);
    const config = json && typeof json === "object" ? (json as RawConfig) : null;
    raw.set(file, config);
    return config;
  };

  /** The file lists of a config (`files`, `include`, `exclude`), from the nearest layer that sets each. */
  const fileLists = (file: string, seen = new Set<string>()): { files?: Layered; include?: Layered; exclude?: Layered } => {
    const c = seen.has(file) ? null : readConfig(file);
    if (!c) return {};
    seen.add(file);
    const dir = posix.dirname(file);
    const own = (v: unknown): Layered | undefined =>
      Array.isArray(v) ? { dir, list: v.filter((x): x is string => typeof x === "string") } : undefined;
    const mine = { files: own(c.files), include: own(c.include), exclude: own(c.exclude) };
    const bases = Array.isArray(c.extends) ? c.extends : c.extends === undefined ? [] : [c.extends];
    let inherited: { files?: Layered; include?: Layered; exclude?: Layered } = {};
    for (const base of bases) {
      const target = baseFile(dir, base);
      if (target) inherited = { ...inherited, ...definedOnly(fileLists(target, seen)) };
    }
    seen.delete(file); // a cycle is a chain that comes back, not two bases that share one
    return { ...inherited, ...definedOnly(mine) };
  };

  /** A config's file lists made ready to test paths against (once per config: every file asks). */
  type Coverage = { files: Set<string> | null; include: Glob[] | null; outside: { exclude: Glob[]; dirs: string[] } | null };
  const coverage = new Map<string, Coverage>();
  const coverageOf = (config: string): Coverage => {
    let c = coverage.get(config);
    if (c) return c;
    const lists = fileLists(config);
    const rel = (l: Layered, p: string) => configPath(p, l.dir, posix.dirname(config));
    const include = lists.include ?? (lists.files ? undefined : { dir: posix.dirname(config), list: ["**/*"] });
    c = {
      files: lists.files ? new Set(lists.files.list.map((f) => rel(lists.files!, f))) : null,
      include: include ? include.list.map((p) => globFor(rel(include, p))) : null,
      outside: null,
    };
    coverage.set(config, c);
    return c;
  };
  /** What a config leaves out of its include: exclude, and its build output (read when first needed). */
  const outsideOf = (config: string, c: Coverage): { exclude: Glob[]; dirs: string[] } => {
    if (c.outside) return c.outside;
    const lists = fileLists(config);
    const out = load(config);
    const exclude = lists.exclude?.list.map((p) => globFor(configPath(p, lists.exclude!.dir, posix.dirname(config)))) ?? [];
    c.outside = { exclude, dirs: [out.outDir, out.declarationDir].filter((d): d is string => d !== null) };
    return c.outside;
  };
  const coverCache = new Map<string, boolean>();
  /** Whether a config's own file list takes in `file` (TypeScript's include/exclude/files, outDir excluded). */
  const covers = (config: string, file: string): boolean => {
    const key = `${config}\0${file}`;
    const hit = coverCache.get(key);
    if (hit !== undefined) return hit;
    const c = coverageOf(config);
    let yes = false;
    if (c.files?.has(file)) yes = true;
    else if (c.include?.some((g) => g.test(file))) {
      const { exclude, dirs } = outsideOf(config, c);
      yes = !exclude.some((g) => g.test(file)) && !dirs.some((d) => d === "." || file.startsWith(`${d}/`));
    }
    coverCache.set(key, yes);
    return yes;
  };

  /** A config that governs `file`: itself when its list takes the file in, else the first of its references that does. */
  const governing = (config: string, file: string, depth = 0): string | null => {
    if (covers(config, file)) return config;
    const c = readConfig(config);
    if (depth > 3 || !c || !Array.isArray(c.references)) return null;
    for (const ref of c.references) {
      const p = (ref as { path?: unknown })?.path;
      if (typeof p !== "string") continue;
      let target = posix.normalize(posix.join(posix.dirname(config), p));
      if (!target.endsWith(".json")) target = `${target}/tsconfig.json`;
      if (!deps.has(target)) continue;
      const found = governing(target, file, depth + 1);
      if (found) return found;
    }
    return null;
  };

  /** The config layers from the farthest base to `file` itself. */
  const layers = (file: string, seen: Set<string>): Layer[] => {
    const config = seen.has(file) ? null : readConfig(file);
    if (!config) return [];
    seen.add(file);
    const dir = posix.dirname(file);
    const bases = Array.isArray(config.extends) ? config.extends : config.extends === undefined ? [] : [config.extends];
    const out: Layer[] = [];
    for (const base of bases) {
      const target = baseFile(dir, base);
      if (target) out.push(...layers(target, seen));
    }
    seen.delete(file);
    out.push({ dir, options: config.compilerOptions ?? {} });
    return out;
  };

  const load = (file: string): ResolvedTsconfig => {
    const cached = resolved.get(file);
    if (cached) return cached;
    const leafDir = posix.dirname(file);
    const expand = (value: string, dir: string) => configPath(value, dir, leafDir);
    let baseUrl: string | null = null;
    let paths: Record<string, unknown> | null = null;
    let pathsDir = leafDir;
    let moduleResolution: unknown;
    let module: unknown;
    let customConditions: string[] = [];
    const dirs: { outDir: string | null; declarationDir: string | null; rootDir: string | null } = {
      outDir: null,
      declarationDir: null,
      rootDir: null,
    };
    for (const layer of layers(file, new Set())) {
      const o = layer.options;
      if (typeof o.baseUrl === "string") baseUrl = expand(o.baseUrl, layer.dir);
      if (o.paths && typeof o.paths === "object") {
        paths = o.paths as Record<string, unknown>;
        pathsDir = layer.dir;
      }
      if (o.moduleResolution !== undefined) moduleResolution = o.moduleResolution;
      if (o.module !== undefined) module = o.module;
      if (Array.isArray(o.customConditions)) customConditions = o.customConditions.filter((c): c is string => typeof c === "string");
      for (const key of ["outDir", "declarationDir", "rootDir"] as const) {
        const v = o[key];
        if (typeof v === "string") dirs[key] = expand(v, layer.dir);
      }
    }
    const base = baseUrl ?? pathsDir;
    const mappings: PathMapping[] = [];
    for (const [pattern, targets] of Object.entries(paths ?? {})) {
      if (!Array.isArray(targets)) continue;
      const star = pattern.indexOf("*");
      mappings.push({
        prefix: star === -1 ? pattern : pattern.slice(0, star),
        suffix: star === -1 ? "" : pattern.slice(star + 1),
        wildcard: star !== -1,
        targets: targets.filter((t): t is string => typeof t === "string").map((t) => expand(t, base)),
      });
    }
    // Longest prefix first: TypeScript picks the most specific pattern.
    mappings.sort((a, b) => b.prefix.length - a.prefix.length);
    const result: ResolvedTsconfig = {
      file,
      baseUrl,
      paths: mappings,
      moduleResolution: modeOf(moduleResolution, module),
      customConditions,
      ...dirs,
    };
    resolved.set(file, result);
    return result;
  };

  const byFile = new Map<string, string | null>();
  /** The config an editor would pick: up from the file's folder, the first tsconfig.json (or jsconfig.json) that governs it. */
  const configFor = (file: string): string | null => {
    const cached = byFile.get(file);
    if (cached !== undefined) return cached;
    let found: string | null = null;
    for (let dir = posix.dirname(file); found === null; dir = posix.dirname(dir)) {
      for (const name of CONFIG_NAMES) {
        const candidate = dir === "." ? name : `${dir}/${name}`;
        if (deps.has(candidate)) found ??= governing(candidate, file);
      }
      if (dir === ".") break;
    }
    byFile.set(file, found);
    return found;
  };

  return {
    /** The resolution settings for a source file, or null when no config applies. */
    forFile(file: string): ResolvedTsconfig | null {
      const config = configFor(file);
      return config ? load(config) : null;
    },
    /** The files read as base configs through `extends` so far. */
    baseFiles(): string[] {
      return [...bases].sort();
    },
    /** The settings of one config file (a package's own tsconfig, for its build layout), or null. */
    config(file: string): ResolvedTsconfig | null {
      return deps.has(file) && readConfig(file) ? load(file) : null;
    },
  };
}

export type Tsconfigs = ReturnType<typeof createTsconfigs>;
