/**
 * One `mcpServers` entry of an mcp.json into a ServerSpec. A problem that makes the server
 * unusable (no command or url, a bad type or url) skips it; any other problem is reported and
 * the bad field ignored. `${VAR}` and `${VAR:-default}` are read from the environment.
 */
import { dirname } from "node:path";
import { sha256 } from "../hash.ts";
import { resolveConfigPath } from "../paths.ts";
import { type McpFile, SERVER_MODES, type ServerMode, type ServerSpec, type Transport } from "./server-spec.ts";

type Env = Record<string, string | undefined>;
type Entry = Record<string, unknown>;

const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
const TYPES = ["stdio", "http", "streamable-http", "streamableHttp", "sse"];
const KNOWN_KEYS = [
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "type",
  "transport",
  "enabled",
  "disabled",
  "mode",
  "idle_timeout_ms",
  "timeout_ms",
  "timeout",
  "allow",
  "deny",
  "autostart",
  "description",
];
/** Keys other clients write into the same file (pi 1.x: exposure, toolExposure); ignored quietly. */
const FOREIGN_KEYS = ["alwaysAllow", "autoApprove", "disabledTools", "trust", "oauth", "name", "exposure", "toolExposure"];

/** Reads fields of one entry, collecting problems and the environment variables it missed. */
function fieldReader(env: Env) {
  const problems: string[] = [];
  const missing = new Set<string>();
  const interpolate = (value: string): string =>
    value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback?: string) => {
      const v = env[name];
      if (v !== undefined && v !== "") return v;
      if (fallback !== undefined) return fallback;
      missing.add(name);
      return "";
    });
  return {
    problems,
    missing,
    interpolate,
    strings(raw: unknown, what: string): Record<string, string> {
      if (raw === undefined) return {};
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
        problems.push(`${what} must be an object of strings; ignored`);
        return {};
      }
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(raw)) {
        if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = interpolate(String(v));
        else problems.push(`${what}.${k} must be a string; ignored`);
      }
      return out;
    },
    list(raw: unknown, what: string): string[] | null {
      if (raw === undefined) return null;
      if (Array.isArray(raw) && raw.every((x) => typeof x === "string")) return [...raw];
      problems.push(`${what} must be a list of strings; ignored`);
      return null;
    },
    ms(raw: unknown, what: string): number | null {
      if (raw === undefined) return null;
      if (typeof raw === "number" && Number.isFinite(raw) && raw >= 0) return Math.floor(raw);
      problems.push(`${what} must be a number of milliseconds (0 = never); ignored`);
      return null;
    },
    /** pi 1.x's `timeout`: seconds per request (its docs/mcp.md), as milliseconds. */
    seconds(raw: unknown, what: string): number | null {
      if (raw === undefined) return null;
      if (typeof raw === "number" && Number.isFinite(raw) && raw > 0) return Math.round(raw * 1000);
      problems.push(`${what} must be a number of seconds above 0 (as pi reads it); ignored`);
      return null;
    },
    bool(raw: unknown, what: string): boolean | null {
      if (raw === undefined) return null;
      if (typeof raw === "boolean") return raw;
      problems.push(`${what} must be true or false; ignored`);
      return null;
    },
  };
}

type Fields = ReturnType<typeof fieldReader>;

/** How to reach the server, or why it cannot be used. */
function parseTransport(r: Entry, f: Fields): { transport: Transport; fallbackToSse: boolean; url: string } | { skip: string } {
  const type = r.type ?? r.transport;
  if (type !== undefined && !TYPES.includes(String(type)))
    return { skip: `"type" must be stdio, http or sse (got ${JSON.stringify(type)})` };
  if (typeof r.command === "string" && r.command.trim() !== "") return { transport: "stdio", fallbackToSse: false, url: "" };
  if (typeof r.url !== "string" || r.url.trim() === "") return { skip: 'needs "command" (a program to run) or "url" (a remote server)' };
  const url = f.interpolate(r.url);
  let protocol = "";
  try {
    protocol = new URL(url).protocol;
  } catch {
    // reported below
  }
  if (protocol !== "http:" && protocol !== "https:") return { skip: `url ${JSON.stringify(url)} is not an http(s) URL` };
  return { transport: type === "sse" ? "sse" : "http", fallbackToSse: type === undefined, url };
}

function parseMode(r: Entry, f: Fields): ServerMode | null {
  if (r.mode === undefined) return null;
  if (SERVER_MODES.includes(r.mode as ServerMode)) return r.mode as ServerMode;
  f.problems.push(`mode must be one of ${SERVER_MODES.join(", ")} (got ${JSON.stringify(r.mode)}); the default is used`);
  return null;
}

function parseCwd(r: Entry, f: Fields, file: McpFile, env: Env): string | undefined {
  if (typeof r.cwd === "string" && r.cwd.trim() !== "") return resolveConfigPath(f.interpolate(r.cwd.trim()), dirname(file.path), env);
  if (r.cwd !== undefined) f.problems.push("cwd must be a path string; ignored");
  return undefined;
}

/** A name that fits in a tool name (`server__tool`): letters, digits, `-` and `_`. */
function safeServerName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || "server";
}

export function parseServer(name: string, raw: unknown, file: McpFile, env: Env, problems: string[]): ServerSpec | null {
  const where = `${file.path}: server "${name}"`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    problems.push(`${where} must be an object with "command" or "url"; skipped`);
    return null;
  }
  const r = raw as Entry;
  const f = fieldReader(env);
  for (const key of Object.keys(r)) {
    if (!KNOWN_KEYS.includes(key) && !FOREIGN_KEYS.includes(key))
      f.problems.push(`unknown key "${key}" ignored (known: ${KNOWN_KEYS.join(", ")})`);
  }
  const how = parseTransport(r, f);
  if ("skip" in how) {
    problems.push(`${where}${how.skip.startsWith("needs") ? " " : ": "}${how.skip}; skipped`);
    return null;
  }
  const disabled = f.bool(r.disabled, "disabled");
  const spec: ServerSpec = {
    name: safeServerName(name),
    file: file.path,
    scope: file.scope,
    ...how,
    command: how.transport === "stdio" ? f.interpolate(String(r.command)) : "",
    args: (r.args === undefined ? [] : (f.list(r.args, "args") ?? [])).map(f.interpolate),
    env: f.strings(r.env, "env"),
    cwd: parseCwd(r, f, file, env),
    headers: f.strings(r.headers, "headers"),
    enabled: f.bool(r.enabled, "enabled") ?? (disabled === null ? true : !disabled),
    mode: parseMode(r, f),
    idleTimeoutMs: f.ms(r.idle_timeout_ms, "idle_timeout_ms") ?? DEFAULT_IDLE_TIMEOUT_MS,
    // timeout_ms wins when both are given; pi's own key (seconds) is read the way pi reads it.
    timeoutMs: f.ms(r.timeout_ms, "timeout_ms") ?? f.seconds(r.timeout, "timeout"),
    allow: f.list(r.allow, "allow"),
    deny: f.list(r.deny, "deny") ?? [],
    autostart: f.bool(r.autostart, "autostart") ?? false,
    fingerprint: "",
  };
  if (spec.name !== name) f.problems.push(`the name is used as "${spec.name}" in tool names`);
  for (const v of f.missing) f.problems.push(`environment variable ${v} is not set (used as "")`);
  spec.fingerprint = sha256(JSON.stringify([spec.transport, spec.command, spec.args, spec.cwd ?? "", spec.url])).slice(0, 16);
  for (const p of f.problems) problems.push(`${where}: ${p}`);
  return spec;
}
