/**
 * Every configuration key, once: its kind and limits, default, environment variable, whether a
 * project's own file may set it, and the line the README shows. The `Config` type, the defaults,
 * the validation rules, the env names and the README's table are all derived from this table.
 */
import { defaultDatabasePath } from "./paths.ts";

type Env = Record<string, string | undefined>;

type Base<T> = {
  /** The default, or how to derive it from the environment. */
  default: T | ((env: Env) => T);
  /** One line for the README's table. */
  doc: string;
  /** The PI_SIDECAR_* variable that sets it. */
  env?: string;
  /** Only the global file, env or flags may set it: it chooses what runs, where data goes, or touches other projects' data. */
  globalOnly?: true;
};

export type KeySpec =
  | (Base<number> & { kind: "size" | "int"; min: number; max: number })
  | (Base<string> & { kind: "path" | "string" })
  | (Base<boolean> & { kind: "bool" })
  | (Base<string> & { kind: "enum"; values: readonly string[] })
  | (Base<string[]> & { kind: "list" });

const size = (d: number, min: number, max: number, doc: string, o: Partial<Base<number>> = {}) =>
  ({ kind: "size", default: d, min, max, doc, ...o }) as const;
const int = (d: number, min: number, max: number, doc: string, o: Partial<Base<number>> = {}) =>
  ({ kind: "int", default: d, min, max, doc, ...o }) as const;
const bool = (d: boolean, doc: string, o: Partial<Base<boolean>> = {}) => ({ kind: "bool", default: d, doc, ...o }) as const;
const list = (doc: string, o: Partial<Base<string[]>> = {}) => ({ kind: "list", default: [] as string[], doc, ...o }) as const;
const choice = <const V extends readonly string[]>(values: V, d: V[number], doc: string, o: Partial<Base<string>> = {}) =>
  ({ kind: "enum", values, default: d as V[number], doc, ...o }) as const;

const KIB = 1024;
const MIB = 1024 * KIB;

export const CONFIG_KEYS = {
  db: {
    kind: "path",
    default: (env: Env) => defaultDatabasePath(env),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell notation, shown to the user as is
    doc: "the SQLite file (also `--db`); default `${PI_CODING_AGENT_DIR:-~/.pi/agent}/sidecar.db`",
    env: "PI_SIDECAR_DB",
    globalOnly: true,
  },
  "capture.thresholdBytes": size(24 * KIB, 256, 1024 * MIB, "a tool output over this many bytes is stored and replaced by a receipt", {
    env: "PI_SIDECAR_THRESHOLD_BYTES",
  }),
  "capture.thresholdLines": int(300, 1, 10_000_000, "... or over this many lines", { env: "PI_SIDECAR_THRESHOLD_LINES" }),
  "capture.chunkBytes": size(4 * KIB, 512, 64 * KIB, "the largest stored chunk (chunks are lossless and line-aligned)", {
    env: "PI_SIDECAR_CHUNK_BYTES",
  }),
  "capture.receiptBytes": size(2 * KIB, 512, 16 * KIB, "the largest receipt", { env: "PI_SIDECAR_RECEIPT_BYTES" }),
  "capture.include": list("only these tools are captured (empty: every tool)"),
  "capture.exclude": list("these tools are never captured"),
  "search.limit": int(5, 1, 50, "hits per search", { env: "PI_SIDECAR_SEARCH_LIMIT" }),
  "search.maxLinesPerHit": int(6, 1, 50, "matching lines shown per hit"),
  "search.maxResponseBytes": size(4 * KIB, 512, 256 * KIB, "the largest search answer"),
  "get.maxBytes": size(
    16 * KIB,
    1 * KIB,
    16 * MIB,
    "the largest `get` answer; a longer selection is cut at a line end with the call that continues",
  ),
  "retention.days": int(7, 0, 3650, "sources older than this are dropped (0: never)", {
    env: "PI_SIDECAR_RETENTION_DAYS",
    globalOnly: true,
  }),
  "retention.maxStoredBytes": size(512 * MIB, 1 * MIB, 1024 ** 4, "the oldest sources go when the stored text passes this", {
    env: "PI_SIDECAR_MAX_STORED_BYTES",
    globalOnly: true,
  }),
  "readcache.enabled": bool(true, "override pi's `read` with the read cache (`0` keeps pi's plain read)", { env: "PI_SIDECAR_READCACHE" }),
  "readcache.sensitive": list("extra globs (on the file name, or the path when they contain `/`) that are never cached or stored"),
  "pi.engine": choice(
    ["auto", "in-process", "stdio"] as const,
    "auto",
    "how the pi extension reaches the engine: `auto` (in-process on Bun, stdio on Node)",
    {
      env: "PI_SIDECAR_ENGINE",
      globalOnly: true,
    },
  ),
  "pi.binary": {
    kind: "path",
    default: "",
    doc: "the binary the stdio engine runs (default: the one `install pi` recorded)",
    env: "PI_SIDECAR_BIN",
    globalOnly: true,
  },
  "mcp.enabled": bool(true, "connect the servers in mcp.json (`0`: none)", { env: "PI_SIDECAR_MCP" }),
  "mcp.inPi": choice(
    ["auto", "on", "off"] as const,
    "auto",
    'the gateway inside pi: `auto` runs it only where pi has no MCP support of its own (pi 1.x has it: `/mcp`, tool_search, codemode), `on` runs it beside pi\'s (turn pi\'s off: `"extensions": ["-builtin:mcp"]`), `off` never',
    { env: "PI_SIDECAR_MCP_IN_PI" },
  ),
  "mcp.mode": choice(["catalog", "stubs", "eager"] as const, "catalog", "the mode of servers that do not name one"),
  "mcp.force": choice(["none", "catalog", "stubs", "eager"] as const, "none", "one mode for every server, whatever each one says", {
    env: "PI_SIDECAR_MCP_MODE",
  }),
  "mcp.requestTimeoutMs": int(60_000, 100, 3_600_000, "per request to an MCP server (progress resets it; a server's `timeout_ms` wins)", {
    env: "PI_SIDECAR_MCP_TIMEOUT_MS",
  }),
  "kota.backend": choice(
    ["builtin", "kotadb"] as const,
    "builtin",
    "code intelligence backend: `builtin` (in the binary, offline) or `kotadb` (KotaDB over MCP, fetched by `bun x`)",
    { env: "PI_SIDECAR_KOTA_BACKEND" },
  ),
  "kota.command": {
    kind: "string",
    default: "bun",
    doc: "the command that starts KotaDB (`bun`: the binary runs itself as bun when none is on PATH)",
    env: "PI_SIDECAR_KOTA_COMMAND",
    globalOnly: true,
  },
  "kota.args": list("arguments for `kota.command` (empty: `x kotadb@next --stdio --toolset core` for bun, else `--stdio --toolset core`)", {
    globalOnly: true,
  }),
  "kota.timeoutMs": int(120_000, 1000, 3_600_000, "per KotaDB request (an index run gets 10x); a request over it restarts KotaDB", {
    env: "PI_SIDECAR_KOTA_TIMEOUT_MS",
  }),
  "kota.budgetBytes": size(5 * KIB, 512, 256 * KIB, "the largest kota_* answer; a bigger one is narrowed, then stored with a receipt"),
  "kota.confirmIndex": bool(true, "ask before the first index of a repository (headless: the tool says how to allow it)"),
  "kota.autoContext": choice(
    ["off", "onPaths", "always"] as const,
    "off",
    "brief the model on files a prompt names: `onPaths` for 1-3 paths, `always` for any (only once a repository is indexed)",
  ),
  "memory.capture": bool(true, "in pi, remember prompts, final answers, corrections, failed commands, tool errors and edited files", {
    env: "PI_SIDECAR_MEMORY",
  }),
  "memory.inject": choice(
    ["off", "start", "prompt"] as const,
    "off",
    "add recalled memory to the model's context: at a session's first prompt (`start`), before every prompt, or never",
    { env: "PI_SIDECAR_MEMORY_INJECT" },
  ),
  "memory.summarize": choice(
    ["extractive", "model"] as const,
    "extractive",
    "how windows are summarised: `extractive` (kept lines, no model) or `model` (pi's session model; extractive on failure)",
  ),
  "memory.recallTokens": int(1200, 100, 32_000, "the token budget of a recall (and of an injection)"),
  "memory.windowEvents": int(50, 5, 1000, "a project's unarchived events are summarised when they pass this many ..."),
  "memory.windowTokens": int(4000, 200, 100_000, "... or this many tokens"),
  "memory.maxEventBytes": size(4 * KIB, 256, 64 * KIB, "a longer event is cut (the whole text goes to the context store)"),
  "memory.keepDays": int(30, 0, 3650, "archived (summarised) events older than this are dropped; summaries stay (0: never)", {
    env: "PI_SIDECAR_MEMORY_KEEP_DAYS",
    globalOnly: true,
  }),
  "memory.maxBytes": size(256 * MIB, 1 * MIB, 1024 ** 4, "the oldest archived events go when all events' text passes this", {
    globalOnly: true,
  }),
  "prune.enabled": bool(true, "in pi, replace old tool results in what is sent by pointers to their exact stored text", {
    env: "PI_SIDECAR_PRUNE",
  }),
  "prune.keepRecentTurns": int(2, 1, 50, "results of the last this many user turns are never pruned"),
  "prune.maxToolChars": int(
    1200,
    200,
    1_000_000,
    "any other tool's result is pruned when longer than this (read, bash, search, MCP, kota: when longer than a pointer)",
  ),
  "prune.clearAtLeast": int(
    20_000,
    0,
    10_000_000,
    "prune only in batches that clear at least this many tokens, so the prompt cache's prefix changes rarely",
  ),
  "prune.adaptivePercent": int(60, 1, 100, "past this share of the context window: keep one turn fewer and halve maxToolChars"),
} as const satisfies Record<string, KeySpec>;

export type ConfigKey = keyof typeof CONFIG_KEYS;

type ValueOf<S> = S extends { kind: "enum"; values: readonly (infer V)[] }
  ? V
  : S extends { kind: "size" | "int" }
    ? number
    : S extends { kind: "bool" }
      ? boolean
      : S extends { kind: "list" }
        ? string[]
        : string;

type Flat = { [K in ConfigKey]: ValueOf<(typeof CONFIG_KEYS)[K]> };
type Head<K> = K extends `${infer H}.${string}` ? H : K;
type Tail<K, H extends string> = K extends `${H}.${infer R}` ? R : never;
/** { "a.b": X, "a.c": Y, d: Z } -> { a: { b: X; c: Y }; d: Z } */
type Nest<T> = {
  [H in Head<keyof T & string>]: H extends keyof T ? T[H] : Nest<{ [K in keyof T & string as Tail<K, H>]: T[K] }>;
};

/** Per-tool capture rules: `capture.tools.<name>`. */
export type ToolRule = { enabled?: boolean; thresholdBytes?: number; thresholdLines?: number };
export const TOOL_RULE_KEYS = {
  enabled: "bool",
  thresholdBytes: "capture.thresholdBytes",
  thresholdLines: "capture.thresholdLines",
} as const;

export type Config = Nest<Flat> & { capture: { tools: Record<string, ToolRule> } };

export function defaultOf(key: ConfigKey, env: Env): unknown {
  const d = CONFIG_KEYS[key].default;
  const value = typeof d === "function" ? d(env) : d;
  return Array.isArray(value) ? [...value] : value;
}
