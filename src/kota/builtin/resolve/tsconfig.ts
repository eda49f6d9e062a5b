/**
 * tsconfig.json / jsconfig.json as module resolution needs them: the nearest config above a file
 * (as the editor picks it), its `extends` chain (relative files; package configs need node_modules,
 * which we do not read), and the `baseUrl` and `paths` that come out of it. All paths repo-relative.
 */
import { posix } from "node:path";
import { parseJsonc } from "./jsonc.ts";

export type PathMapping = { prefix: string; suffix: string; wildcard: boolean; targets: string[] };

export type ResolvedTsconfig = {
  /** The config file used, repo-relative. */
  file: string;
  baseUrl: string | null;
  /** Targets of `paths`, already joined with their base (baseUrl, else the folder of the config that set them). */
  paths: PathMapping[];
};

type RawOptions = { baseUrl?: unknown; paths?: unknown };
type Layer = { dir: string; options: RawOptions };

const CONFIG_NAMES = ["tsconfig.json", "jsconfig.json"];

/** `readJson(path)` returns the parsed file or null; `has(path)` says whether the repo has that file. */
export function createTsconfigs(deps: { has(path: string): boolean; readText(path: string): string | null }) {
  const nearestByDir = new Map<string, string | null>();
  const resolved = new Map<string, ResolvedTsconfig>();

  type RawConfig = { extends?: unknown; compilerOptions?: RawOptions; references?: unknown; files?: unknown };
  const raw = new Map<string, RawConfig | null>();
  const readConfig = (file: string): RawConfig | null => {
    if (raw.has(file)) return raw.get(file)!;
    const text = deps.readText(file);
    const json = text === null ? null : parseJsonc(text);
    const config = json && typeof json === "object" ? (json as RawConfig) : null;
    raw.set(file, config);
    return config;
  };

  /**
   * A solution config (`"files": []` plus `references`) governs no file itself: use the referenced
   * config beside or above the file that sets baseUrl or paths, as the editor's project would.
   */
  const projectFor = (config: string, file: string): string => {
    const c = readConfig(config);
    if (!c || !Array.isArray(c.references) || !Array.isArray(c.files) || c.files.length > 0) return config;
    const dir = posix.dirname(config);
    for (const ref of c.references) {
      const p = (ref as { path?: unknown })?.path;
      if (typeof p !== "string") continue;
      let target = posix.normalize(posix.join(dir, p));
      if (!target.endsWith(".json")) target = `${target}/tsconfig.json`;
      const tdir = posix.dirname(target);
      if (!deps.has(target) || !(tdir === "." || file.startsWith(`${tdir}/`))) continue;
      const r = load(target);
      if (r.baseUrl !== null || r.paths.length > 0) return target;
    }
    return config;
  };

  /** The config layers from the farthest base to `file` itself. */
  const layers = (file: string, seen: Set<string>): Layer[] => {
    if (seen.has(file)) return [];
    seen.add(file);
    const config = readConfig(file);
    if (!config) return [];
    const dir = posix.dirname(file);
    const bases = Array.isArray(config.extends) ? config.extends : config.extends === undefined ? [] : [config.extends];
    const out: Layer[] = [];
    for (const base of bases) {
      if (typeof base !== "string" || !(base.startsWith(".") || base.startsWith("/"))) continue;
      let target = posix.normalize(posix.join(dir, base));
      if (!deps.has(target) && deps.has(`${target}.json`)) target = `${target}.json`;
      if (deps.has(target)) out.push(...layers(target, seen));
    }
    out.push({ dir, options: config.compilerOptions ?? {} });
    return out;
  };

  const load = (file: string): ResolvedTsconfig => {
    const cached = resolved.get(file);
    if (cached) return cached;
    const leafDir = posix.dirname(file);
    // TypeScript 5.5's template for "the folder of the config in use", written literally in tsconfig files.
    const CONFIG_DIR = "$" + "{configDir}";
    const expand = (value: string, dir: string) =>
      posix.normalize(value.includes(CONFIG_DIR) ? value.replaceAll(CONFIG_DIR, `./${leafDir}`) : posix.join(dir, value));
    let baseUrl: string | null = null;
    let paths: Record<string, unknown> | null = null;
    let pathsDir = leafDir;
    for (const layer of layers(file, new Set())) {
      if (typeof layer.options.baseUrl === "string") baseUrl = expand(layer.options.baseUrl, layer.dir);
      if (layer.options.paths && typeof layer.options.paths === "object") {
        paths = layer.options.paths as Record<string, unknown>;
        pathsDir = layer.dir;
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
    const result = { file, baseUrl, paths: mappings };
    resolved.set(file, result);
    return result;
  };

  const nearest = (dir: string): string | null => {
    const cached = nearestByDir.get(dir);
    if (cached !== undefined) return cached;
    let found: string | null = null;
    for (const name of CONFIG_NAMES) {
      const candidate = dir === "." ? name : `${dir}/${name}`;
      if (deps.has(candidate)) {
        found = candidate;
        break;
      }
    }
    if (!found && dir !== ".") found = nearest(posix.dirname(dir));
    nearestByDir.set(dir, found);
    return found;
  };

  return {
    /** The resolution settings for a source file, or null when no config applies. */
    forFile(file: string): ResolvedTsconfig | null {
      const config = nearest(posix.dirname(file));
      return config ? load(projectFor(config, file)) : null;
    },
  };
}

export type Tsconfigs = ReturnType<typeof createTsconfigs>;
