/**
 * Configuration: defaults < global file < project file < PI_SIDECAR_* env < CLI flags.
 * Validated once against the key table (config-keys.ts); every problem is collected (never
 * thrown) and the bad value is ignored, so a typo in one key never stops the sidecar. The result
 * is frozen and passed down.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { CONFIG_KEYS, type Config, type ConfigKey, defaultOf, type KeySpec, TOOL_RULE_KEYS, type ToolRule } from "./config-keys.ts";
import { globalConfigPath, projectConfigPath, resolveConfigPath } from "./paths.ts";
import { parseSize } from "./units.ts";

export type { Config, ToolRule } from "./config-keys.ts";

type Env = Record<string, string | undefined>;
type Tree = Record<string, unknown>;

export type ConfigLoad = { config: Readonly<Config>; errors: string[]; files: string[] };

const KEYS = Object.keys(CONFIG_KEYS) as ConfigKey[];

export function defaultConfig(env: Env = process.env): Config {
  const config: Tree = { capture: { tools: {} } };
  for (const key of KEYS) setPath(config, key, defaultOf(key, env));
  return config as Config;
}

/** PI_SIDECAR_* variables and the key each one sets. */
export const ENV_KEYS: Readonly<Record<string, ConfigKey>> = Object.fromEntries(
  KEYS.flatMap((key) => {
    const env = (CONFIG_KEYS[key] as KeySpec).env;
    return env ? [[env, key]] : [];
  }),
);

type Coerced = { value: unknown } | { problem: string };

function number(spec: KeySpec & { kind: "size" | "int" }, raw: unknown): Coerced {
  let n: number | null = null;
  if (spec.kind === "size") n = typeof raw === "number" || typeof raw === "string" ? parseSize(raw) : null;
  else if (typeof raw === "number") n = raw;
  else if (typeof raw === "string" && /^\s*-?\d+\s*$/.test(raw)) n = Number(raw);
  const what = spec.kind === "size" ? 'a size in bytes (e.g. 24576 or "24KiB")' : "a whole number";
  if (n === null || !Number.isInteger(n)) return { problem: `must be ${what}` };
  if (n < spec.min) return { problem: `must be at least ${spec.min}` };
  if (n > spec.max) return { problem: `must be at most ${spec.max}` };
  return { value: n };
}

function coerce(spec: KeySpec, raw: unknown, base: string): Coerced {
  switch (spec.kind) {
    case "path":
      return typeof raw === "string" && raw.trim() !== ""
        ? { value: resolveConfigPath(raw, base) }
        : { problem: "must be a non-empty path string" };
    case "string":
      return typeof raw === "string" ? { value: raw } : { problem: "must be a string" };
    case "list":
      if (Array.isArray(raw) && raw.every((x) => typeof x === "string")) return { value: [...raw] };
      if (typeof raw === "string")
        return {
          value: raw
            .split(",")
            .map((x) => x.trim())
            .filter(Boolean),
        };
      return { problem: "must be a list of strings" };
    case "enum":
      return typeof raw === "string" && spec.values.includes(raw)
        ? { value: raw }
        : { problem: `must be one of ${spec.values.join(", ")}` };
    case "bool":
      if (typeof raw === "boolean") return { value: raw };
      if (raw === "true" || raw === "1") return { value: true };
      if (raw === "false" || raw === "0") return { value: false };
      return { problem: "must be true or false" };
    case "int":
    case "size":
      return number(spec, raw);
  }
}

function setPath(target: Tree, path: string, value: unknown): void {
  const keys = path.split(".");
  let node = target;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Tree;
  }
  node[keys[keys.length - 1]!] = value;
}

function getPath(tree: unknown, path: string): unknown {
  let node = tree;
  for (const key of path.split(".")) node = (node as Tree | undefined)?.[key];
  return node;
}

function isPlainObject(v: unknown): v is Tree {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const isKey = (path: string): path is ConfigKey => Object.hasOwn(CONFIG_KEYS, path);
const isGroup = (path: string) => path === "capture" || KEYS.some((k) => k.startsWith(`${path}.`));

function knownKeys(prefix: string): string {
  const keys = new Set<string>();
  for (const p of [...KEYS, "capture.tools"]) {
    if (prefix === "" || p.startsWith(`${prefix}.`)) keys.add(p.slice(prefix ? prefix.length + 1 : 0).split(".")[0]!);
  }
  return [...keys].join(", ");
}

/** Applies one JSON layer onto `config`, collecting problems instead of throwing. */
function applyLayer(config: Config, layer: unknown, origin: string, errors: string[], project: boolean, env: Env): void {
  if (!isPlainObject(layer)) {
    errors.push(`${origin}: expected a JSON object at the top level; ignoring the file`);
    return;
  }
  const walk = (node: Tree, prefix: string) => {
    for (const [key, raw] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (path === "$schema") continue;
      if (path === "capture.tools") applyTools(config, raw, origin, errors);
      else if (isKey(path)) applyKey(config, path, raw, origin, errors, project, env);
      else if (isGroup(path) && isPlainObject(raw)) walk(raw, path);
      else if (isGroup(path)) errors.push(`${origin}: "${path}" must be an object`);
      else errors.push(`${origin}: unknown key "${path}" (known keys: ${knownKeys(prefix)}); ignoring it`);
    }
  };
  walk(layer, "");
}

function applyKey(config: Config, key: ConfigKey, raw: unknown, origin: string, errors: string[], project: boolean, env: Env): void {
  const spec: KeySpec = CONFIG_KEYS[key];
  if (project && spec.globalOnly) {
    errors.push(
      `${origin}: "${key}" can only be set in the global ${globalConfigPath(env)} or with PI_SIDECAR_* / flags ` +
        "(a cloned repository must not choose what runs, where data goes, or what happens to other projects' data); ignoring it",
    );
    return;
  }
  const r = coerce(spec, raw, dirname(origin));
  if ("problem" in r) errors.push(`${origin}: "${key}" ${r.problem}; using ${JSON.stringify(getPath(config, key))}`);
  else setPath(config as unknown as Tree, key, r.value);
}

function applyTools(config: Config, raw: unknown, origin: string, errors: string[]): void {
  if (!isPlainObject(raw)) {
    errors.push(`${origin}: "capture.tools" must be an object mapping a tool name to {enabled, thresholdBytes, thresholdLines}`);
    return;
  }
  for (const [tool, rules] of Object.entries(raw)) {
    if (!isPlainObject(rules)) {
      errors.push(`${origin}: "capture.tools.${tool}" must be an object like {"enabled": false}`);
      continue;
    }
    const out: ToolRule = { ...config.capture.tools[tool] };
    for (const [key, value] of Object.entries(rules)) {
      const like = TOOL_RULE_KEYS[key as keyof typeof TOOL_RULE_KEYS];
      if (!like) {
        errors.push(
          `${origin}: unknown key "capture.tools.${tool}.${key}" (known keys: ${Object.keys(TOOL_RULE_KEYS).join(", ")}); ignoring it`,
        );
        continue;
      }
      const spec: KeySpec = like === "bool" ? { kind: "bool", default: true, doc: "" } : CONFIG_KEYS[like];
      const r = coerce(spec, value, dirname(origin));
      if ("problem" in r) errors.push(`${origin}: "capture.tools.${tool}.${key}" ${r.problem}; ignoring it`);
      else (out as Tree)[key] = r.value;
    }
    config.capture.tools[tool] = out;
  }
}

function readJsonFile(path: string, errors: string[]): unknown | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    errors.push(`${path}: not valid JSON (${error instanceof Error ? error.message : error}); fix or delete the file; ignoring it for now`);
    return undefined;
  }
}

function deepFreeze<T>(value: T): Readonly<T> {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

export type LoadOptions = {
  env?: Env;
  cwd?: string;
  /** Dotted key -> raw value, from CLI flags (highest precedence). */
  flags?: Partial<Record<ConfigKey, unknown>>;
  /** Skip the global and project files (tests, benchmarks). */
  noFiles?: boolean;
};

export function loadConfig(options: LoadOptions = {}): ConfigLoad {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const config = defaultConfig(env);
  const errors: string[] = [];
  const files: string[] = [];
  if (!options.noFiles) {
    for (const [path, project] of [
      [globalConfigPath(env), false],
      [projectConfigPath(cwd), true],
    ] as const) {
      const layer = readJsonFile(path, errors);
      if (layer === undefined) continue;
      files.push(path);
      applyLayer(config, layer, path, errors, project, env);
    }
  }
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const r = coerce(CONFIG_KEYS[key], raw, cwd);
    if ("problem" in r) errors.push(`${name}=${JSON.stringify(raw)} ${r.problem}; ignoring it`);
    else setPath(config as unknown as Tree, key, r.value);
  }
  for (const [key, raw] of Object.entries(options.flags ?? {}) as [ConfigKey, unknown][]) {
    const r = coerce(CONFIG_KEYS[key], raw, cwd);
    if ("problem" in r) errors.push(`--${key}: ${r.problem}`);
    else setPath(config as unknown as Tree, key, r.value);
  }
  return { config: deepFreeze(config), errors, files };
}

/** The thresholds that apply to one tool, after its per-tool rule. */
export function toolThresholds(config: Readonly<Config>, tool: string): { enabled: boolean; bytes: number; lines: number } {
  const rule = config.capture.tools[tool] ?? {};
  const listed = (config.capture.include.length === 0 || config.capture.include.includes(tool)) && !config.capture.exclude.includes(tool);
  return {
    enabled: rule.enabled ?? listed,
    bytes: rule.thresholdBytes ?? config.capture.thresholdBytes,
    lines: rule.thresholdLines ?? config.capture.thresholdLines,
  };
}
