import { existsSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { defaultDatabasePath, globalConfigPath, projectConfigPath, resolveConfigPath } from "./paths.ts";
import { parseSize } from "./units.ts";

/**
 * Configuration: defaults < global file < project file < PI_SIDECAR_* env < CLI flags.
 * Validated once; every problem is collected (never thrown) and the bad value is ignored,
 * so a typo in one key never stops the sidecar. The result is frozen and passed down.
 */

export type ToolRule = { enabled?: boolean; thresholdBytes?: number; thresholdLines?: number };

export type Config = {
  db: string;
  capture: {
    thresholdBytes: number;
    thresholdLines: number;
    chunkBytes: number;
    receiptBytes: number;
    tools: Record<string, ToolRule>;
    /** Only these tools are captured (empty: every tool). */
    include: string[];
    /** These tools are never captured. */
    exclude: string[];
  };
  search: { limit: number; maxLinesPerHit: number; maxResponseBytes: number };
  get: { maxBytes: number };
  retention: { days: number; maxStoredBytes: number };
  readcache: {
    /** Override pi's read with the replay-aware cache. */
    enabled: boolean;
    /** Extra globs (on the file name, or the path when they contain "/") never cached or stored. */
    sensitive: string[];
  };
  pi: {
    /** How the pi extension reaches the engine: in-process under Bun, stdio child otherwise. */
    engine: "auto" | "in-process" | "stdio";
    /** The pi-sidecar binary the stdio transport runs ("" = found next to the extension, then on PATH). */
    binary: string;
  };
  mcp: {
    /** Connect the servers in mcp.json (pi extension and `pi-sidecar mcp`). */
    enabled: boolean;
    /** The mode of servers that do not name one. */
    mode: "catalog" | "stubs" | "eager";
    /** Forces one mode on every server ("none": each server's own). */
    force: "none" | "catalog" | "stubs" | "eager";
    /** Per request to an MCP server (progress resets it); a server's timeout_ms wins. */
    requestTimeoutMs: number;
  };
};

export type ConfigLoad = { config: Readonly<Config>; errors: string[]; files: string[] };

export function defaultConfig(env: Record<string, string | undefined> = process.env): Config {
  return {
    db: defaultDatabasePath(env),
    capture: {
      thresholdBytes: 24 * 1024,
      thresholdLines: 300,
      chunkBytes: 4096,
      receiptBytes: 2048,
      tools: {},
      include: [],
      exclude: [],
    },
    search: { limit: 5, maxLinesPerHit: 6, maxResponseBytes: 4096 },
    get: { maxBytes: 16 * 1024 },
    retention: { days: 7, maxStoredBytes: 512 * 1024 * 1024 },
    readcache: { enabled: true, sensitive: [] },
    pi: { engine: "auto", binary: "" },
    mcp: { enabled: true, mode: "catalog", force: "none", requestTimeoutMs: 60_000 },
  };
}

type Kind = "size" | "int" | "path" | "bool" | "enum" | "list";
type Rule = { kind: Kind; min?: number; max?: number; values?: readonly string[] };

/** Every settable leaf, by dotted path. `capture.tools.<name>.*` is handled separately. */
const RULES: Record<string, Rule> = {
  db: { kind: "path" },
  "capture.thresholdBytes": { kind: "size", min: 256, max: 1024 ** 3 },
  "capture.thresholdLines": { kind: "int", min: 1, max: 10_000_000 },
  "capture.chunkBytes": { kind: "size", min: 512, max: 64 * 1024 },
  "capture.receiptBytes": { kind: "size", min: 512, max: 16 * 1024 },
  "capture.include": { kind: "list" },
  "capture.exclude": { kind: "list" },
  "search.limit": { kind: "int", min: 1, max: 50 },
  "search.maxLinesPerHit": { kind: "int", min: 1, max: 50 },
  "search.maxResponseBytes": { kind: "size", min: 512, max: 256 * 1024 },
  "get.maxBytes": { kind: "size", min: 1024, max: 16 * 1024 * 1024 },
  "retention.days": { kind: "int", min: 0, max: 3650 },
  "retention.maxStoredBytes": { kind: "size", min: 1024 * 1024, max: 1024 ** 4 },
  "readcache.enabled": { kind: "bool" },
  "readcache.sensitive": { kind: "list" },
  "pi.engine": { kind: "enum", values: ["auto", "in-process", "stdio"] },
  "pi.binary": { kind: "path" },
  "mcp.enabled": { kind: "bool" },
  "mcp.mode": { kind: "enum", values: ["catalog", "stubs", "eager"] },
  "mcp.force": { kind: "enum", values: ["none", "catalog", "stubs", "eager"] },
  "mcp.requestTimeoutMs": { kind: "int", min: 100, max: 3_600_000 },
};

const TOOL_RULES: Record<string, Rule> = {
  enabled: { kind: "bool" },
  thresholdBytes: RULES["capture.thresholdBytes"]!,
  thresholdLines: RULES["capture.thresholdLines"]!,
};

/** PI_SIDECAR_* variables and the key each one sets. */
export const ENV_KEYS: Record<string, string> = {
  PI_SIDECAR_DB: "db",
  PI_SIDECAR_THRESHOLD_BYTES: "capture.thresholdBytes",
  PI_SIDECAR_THRESHOLD_LINES: "capture.thresholdLines",
  PI_SIDECAR_CHUNK_BYTES: "capture.chunkBytes",
  PI_SIDECAR_RECEIPT_BYTES: "capture.receiptBytes",
  PI_SIDECAR_SEARCH_LIMIT: "search.limit",
  PI_SIDECAR_RETENTION_DAYS: "retention.days",
  PI_SIDECAR_MAX_STORED_BYTES: "retention.maxStoredBytes",
  PI_SIDECAR_READCACHE: "readcache.enabled",
  PI_SIDECAR_ENGINE: "pi.engine",
  PI_SIDECAR_BIN: "pi.binary",
  PI_SIDECAR_MCP: "mcp.enabled",
  PI_SIDECAR_MCP_MODE: "mcp.force",
  PI_SIDECAR_MCP_TIMEOUT_MS: "mcp.requestTimeoutMs",
};

/** Keys a project's own file may not set: they choose what runs and where data goes. */
const GLOBAL_ONLY = new Set(["db", "pi.binary", "pi.engine"]);

function coerce(rule: Rule, raw: unknown, base = process.cwd()): { value: unknown } | { problem: string } {
  switch (rule.kind) {
    case "path":
      return typeof raw === "string" && raw.trim() !== ""
        ? { value: resolveConfigPath(raw, base) }
        : { problem: "must be a non-empty path string" };
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
      return typeof raw === "string" && rule.values!.includes(raw)
        ? { value: raw }
        : { problem: `must be one of ${rule.values!.join(", ")}` };
    case "bool":
      if (typeof raw === "boolean") return { value: raw };
      if (raw === "true" || raw === "1") return { value: true };
      if (raw === "false" || raw === "0") return { value: false };
      return { problem: "must be true or false" };
    case "int":
    case "size": {
      const n =
        rule.kind === "size"
          ? typeof raw === "number" || typeof raw === "string"
            ? parseSize(raw)
            : null
          : typeof raw === "number"
            ? raw
            : typeof raw === "string" && /^\s*-?\d+\s*$/.test(raw)
              ? Number(raw)
              : null;
      const what = rule.kind === "size" ? 'a size in bytes (e.g. 24576 or "24KiB")' : "a whole number";
      if (n === null || !Number.isInteger(n)) return { problem: `must be ${what}` };
      if (rule.min !== undefined && n < rule.min) return { problem: `must be at least ${rule.min}` };
      if (rule.max !== undefined && n > rule.max) return { problem: `must be at most ${rule.max}` };
      return { value: n };
    }
  }
}

function setPath(target: Record<string, any>, path: string, value: unknown): void {
  const keys = path.split(".");
  let node = target;
  for (const key of keys.slice(0, -1)) node = node[key] ??= {};
  node[keys[keys.length - 1]!] = value;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Applies one JSON layer onto `config`, collecting problems instead of throwing. */
function applyLayer(config: Config, layer: unknown, origin: string, errors: string[], project = false): void {
  if (!isPlainObject(layer)) {
    errors.push(`${origin}: expected a JSON object at the top level; ignoring the file`);
    return;
  }
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [key, raw] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (path === "$schema") continue;
      if (path === "capture.tools") {
        applyTools(config, raw, origin, errors);
        continue;
      }
      const rule = RULES[path];
      if (rule && project && GLOBAL_ONLY.has(path)) {
        errors.push(
          `${origin}: "${path}" can only be set in the global ${globalConfigPath()} or with PI_SIDECAR_* / flags (a project must not choose what runs or where data goes); ignoring it`,
        );
        continue;
      }
      if (rule) {
        const r = coerce(rule, raw, dirname(origin));
        if ("problem" in r) errors.push(`${origin}: "${path}" ${r.problem}; using ${JSON.stringify(getPath(config, path))}`);
        else setPath(config, path, r.value);
        continue;
      }
      const isGroup = Object.keys(RULES).some((p) => p.startsWith(`${path}.`)) || path === "capture";
      if (isGroup && isPlainObject(raw)) walk(raw, path);
      else if (isGroup) errors.push(`${origin}: "${path}" must be an object`);
      else errors.push(`${origin}: unknown key "${path}" (known keys: ${knownKeys(prefix)}); ignoring it`);
    }
  };
  walk(layer, "");
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
      const rule = TOOL_RULES[key];
      if (!rule) {
        errors.push(
          `${origin}: unknown key "capture.tools.${tool}.${key}" (known keys: ${Object.keys(TOOL_RULES).join(", ")}); ignoring it`,
        );
        continue;
      }
      const r = coerce(rule, value);
      if ("problem" in r) errors.push(`${origin}: "capture.tools.${tool}.${key}" ${r.problem}; ignoring it`);
      else (out as Record<string, unknown>)[key] = r.value;
    }
    config.capture.tools[tool] = out;
  }
}

function getPath(config: Config, path: string): unknown {
  return path.split(".").reduce<any>((node, key) => node?.[key], config);
}

function knownKeys(prefix: string): string {
  const keys = new Set<string>();
  for (const p of [...Object.keys(RULES), "capture.tools"]) {
    if (prefix === "" || p.startsWith(`${prefix}.`)) keys.add(p.slice(prefix ? prefix.length + 1 : 0).split(".")[0]!);
  }
  return [...keys].join(", ");
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
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Dotted key -> raw value, from CLI flags (highest precedence). */
  flags?: Record<string, unknown>;
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
      applyLayer(config, layer, path, errors, project);
    }
  }
  for (const [name, path] of Object.entries(ENV_KEYS)) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const r = coerce(RULES[path]!, raw, cwd);
    if ("problem" in r) errors.push(`${name}=${JSON.stringify(raw)} ${r.problem}; ignoring it`);
    else setPath(config, path, r.value);
  }
  for (const [path, raw] of Object.entries(options.flags ?? {})) {
    const r = coerce(RULES[path]!, raw, cwd);
    if ("problem" in r) errors.push(`--${path}: ${r.problem}`);
    else setPath(config, path, r.value);
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
