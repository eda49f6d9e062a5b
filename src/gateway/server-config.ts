/**
 * The user's MCP servers, from the `mcp.json` files they already have (`mcpServers`).
 * Global `<agent dir>/mcp.json` is trusted; a project's `.pi/mcp.json` and `./mcp.json` are
 * read but their servers stay untrusted (never started) until the user approves the file's
 * exact content once. Every problem is collected with the server it concerns; a bad server
 * is skipped, the others still start.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { sha256 } from "../hash.ts";
import { resolveConfigPath } from "../paths.ts";

export type ServerMode = "catalog" | "stubs" | "eager";
const SERVER_MODES: readonly ServerMode[] = ["catalog", "stubs", "eager"];
export type Transport = "stdio" | "http" | "sse";

export type ServerSpec = {
  name: string;
  /** The mcp.json that defines it. */
  file: string;
  scope: "global" | "project";
  transport: Transport;
  /** A remote server given as plain `url` tries Streamable HTTP, then SSE. */
  fallbackToSse: boolean;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
  url: string;
  headers: Record<string, string>;
  enabled: boolean;
  /** null: the configured default (mcp.mode). */
  mode: ServerMode | null;
  idleTimeoutMs: number;
  timeoutMs: number | null;
  allow: string[] | null;
  deny: string[];
  autostart: boolean;
  /** Hash of what decides the server's tools; a cached catalog with another one is stale. */
  fingerprint: string;
};

export type McpFile = { path: string; scope: "global" | "project"; hash: string; names: string[] };
export type ServerConfigLoad = { servers: ServerSpec[]; untrusted: McpFile[]; files: McpFile[]; problems: string[] };

const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;

const KNOWN_KEYS = new Set([
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
  "allow",
  "deny",
  "autostart",
  "description",
]);
/** Keys other clients write into the same file; ignored quietly. */
const FOREIGN_KEYS = new Set(["alwaysAllow", "autoApprove", "disabledTools", "trust", "oauth", "name"]);

export function globalMcpPath(agentDir: string): string {
  return join(agentDir, "mcp.json");
}

export function projectMcpPaths(cwd: string): string[] {
  return [join(cwd, ".pi", "mcp.json"), join(cwd, "mcp.json")];
}

type Env = Record<string, string | undefined>;

/** `${VAR}` and `${VAR:-default}` from the environment; an unset variable is reported. */
function interpolate(value: string, env: Env, missing: Set<string>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback?: string) => {
    const v = env[name];
    if (v !== undefined && v !== "") return v;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return "";
  });
}

function stringRecord(raw: unknown, what: string, problems: string[], env: Env, missing: Set<string>): Record<string, string> {
  if (raw === undefined) return {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    problems.push(`${what} must be an object of strings; ignored`);
    return {};
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = interpolate(String(v), env, missing);
    else problems.push(`${what}.${k} must be a string; ignored`);
  }
  return out;
}

function stringList(raw: unknown, what: string, problems: string[]): string[] | null {
  if (raw === undefined) return null;
  if (Array.isArray(raw) && raw.every((x) => typeof x === "string")) return [...raw];
  problems.push(`${what} must be a list of strings; ignored`);
  return null;
}

function positiveMs(raw: unknown, what: string, problems: string[]): number | null {
  if (raw === undefined) return null;
  if (typeof raw === "number" && Number.isFinite(raw) && raw >= 0) return Math.floor(raw);
  problems.push(`${what} must be a number of milliseconds (0 = never); ignored`);
  return null;
}

/** A name that fits in a tool name (`server__tool`): letters, digits, `-` and `_`. */
function safeServerName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || "server";
}

function parseServer(name: string, raw: unknown, file: McpFile, env: Env, problems: string[]): ServerSpec | null {
  const where = `${file.path}: server "${name}"`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    problems.push(`${where} must be an object with "command" or "url"; skipped`);
    return null;
  }
  const r = raw as Record<string, unknown>;
  const local: string[] = [];
  for (const key of Object.keys(r)) {
    if (!KNOWN_KEYS.has(key) && !FOREIGN_KEYS.has(key)) local.push(`unknown key "${key}" ignored (known: ${[...KNOWN_KEYS].join(", ")})`);
  }
  const missing = new Set<string>();
  const type = r.type ?? r.transport;
  let transport: Transport;
  let fallbackToSse = false;
  if (type !== undefined && !["stdio", "http", "streamable-http", "streamableHttp", "sse"].includes(String(type))) {
    problems.push(`${where}: "type" must be stdio, http or sse (got ${JSON.stringify(type)}); skipped`);
    return null;
  }
  if (typeof r.command === "string" && r.command.trim() !== "") transport = "stdio";
  else if (typeof r.url === "string" && r.url.trim() !== "") {
    transport = type === "sse" ? "sse" : "http";
    fallbackToSse = type === undefined;
  } else {
    problems.push(`${where} needs "command" (a program to run) or "url" (a remote server); skipped`);
    return null;
  }
  const args = r.args === undefined ? [] : stringList(r.args, `${where}: args`, local);
  const url = transport === "stdio" ? "" : interpolate(String(r.url), env, missing);
  if (transport !== "stdio") {
    try {
      const u = new URL(url);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("scheme");
    } catch {
      problems.push(`${where}: url ${JSON.stringify(url)} is not an http(s) URL; skipped`);
      return null;
    }
  }
  let cwd: string | undefined;
  if (typeof r.cwd === "string" && r.cwd.trim() !== "") {
    const c = interpolate(r.cwd.trim(), env, missing);
    cwd = resolveConfigPath(c, dirname(file.path), env);
  } else if (r.cwd !== undefined) local.push(`cwd must be a path string; ignored`);
  let mode: ServerMode | null = null;
  if (r.mode !== undefined) {
    if (SERVER_MODES.includes(r.mode as ServerMode)) mode = r.mode as ServerMode;
    else local.push(`mode must be one of ${SERVER_MODES.join(", ")} (got ${JSON.stringify(r.mode)}); the default is used`);
  }
  let enabled = true;
  for (const key of ["enabled", "disabled"] as const) {
    if (r[key] === undefined) continue;
    if (typeof r[key] !== "boolean") local.push(`${key} must be true or false; ignored`);
    else enabled = key === "enabled" ? (r[key] as boolean) : !(r[key] as boolean);
  }
  let autostart = false;
  if (r.autostart !== undefined) {
    if (typeof r.autostart === "boolean") autostart = r.autostart;
    else local.push("autostart must be true or false; ignored");
  }
  const spec: ServerSpec = {
    name: safeServerName(name),
    file: file.path,
    scope: file.scope,
    transport,
    fallbackToSse,
    command: transport === "stdio" ? interpolate(String(r.command), env, missing) : "",
    args: (args ?? []).map((a) => interpolate(a, env, missing)),
    env: stringRecord(r.env, "env", local, env, missing),
    cwd,
    url,
    headers: stringRecord(r.headers, "headers", local, env, missing),
    enabled,
    mode,
    idleTimeoutMs: positiveMs(r.idle_timeout_ms, "idle_timeout_ms", local) ?? DEFAULT_IDLE_TIMEOUT_MS,
    timeoutMs: positiveMs(r.timeout_ms, "timeout_ms", local),
    allow: stringList(r.allow, "allow", local),
    deny: stringList(r.deny, "deny", local) ?? [],
    autostart,
    fingerprint: "",
  };
  if (spec.name !== name) local.push(`the name is used as "${spec.name}" in tool names`);
  for (const v of missing) local.push(`environment variable ${v} is not set (used as "")`);
  spec.fingerprint = sha256(JSON.stringify([spec.transport, spec.command, spec.args, spec.cwd ?? "", spec.url])).slice(0, 16);
  for (const p of local) problems.push(`${where}: ${p}`);
  return spec;
}

/** Reads one mcp.json; null when it does not exist. */
function readMcpFile(
  path: string,
  scope: "global" | "project",
  env: Env,
  problems: string[],
): { file: McpFile; servers: ServerSpec[] } | null {
  if (!existsSync(path)) return null;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    problems.push(`${path}: cannot be read (${(error as Error).message}); its servers are not started`);
    return null;
  }
  const file: McpFile = { path, scope, hash: sha256(text), names: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    problems.push(`${path}: not valid JSON (${(error as Error).message}); fix it, its servers are not started`);
    return { file, servers: [] };
  }
  const root = json as Record<string, unknown>;
  const servers = root?.mcpServers;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    problems.push(`${path}: expected {"mcpServers": {"name": {"command": ...}}}; no servers read`);
    return { file, servers: [] };
  }
  for (const key of Object.keys(root)) {
    if (key !== "mcpServers" && key !== "$schema") problems.push(`${path}: top-level key "${key}" ignored (only "mcpServers" is read)`);
  }
  const out: ServerSpec[] = [];
  for (const [name, raw] of Object.entries(servers)) {
    const spec = parseServer(name, raw, file, env, problems);
    if (spec) out.push(spec);
  }
  file.names = out.map((s) => s.name);
  return { file, servers: out };
}

/**
 * Global servers, then project servers from approved files (a project server replaces a
 * global one of the same name). `approved(path, hash)` says whether a project file's exact
 * content was approved.
 */
export function loadServerConfigs(o: {
  agentDir: string;
  cwd: string;
  env?: Env;
  approved: (path: string, hash: string) => boolean;
}): ServerConfigLoad {
  const env = o.env ?? process.env;
  const problems: string[] = [];
  const byName = new Map<string, ServerSpec>();
  const files: McpFile[] = [];
  const untrusted: McpFile[] = [];
  const global = readMcpFile(globalMcpPath(o.agentDir), "global", env, problems);
  if (global) {
    files.push(global.file);
    for (const s of global.servers) byName.set(s.name, s);
  }
  const globalPath = resolve(globalMcpPath(o.agentDir));
  for (const path of projectMcpPaths(o.cwd)) {
    if (resolve(path) === globalPath) continue;
    const project = readMcpFile(path, "project", env, problems);
    if (!project) continue;
    files.push(project.file);
    if (!o.approved(project.file.path, project.file.hash)) {
      untrusted.push(project.file);
      continue;
    }
    for (const s of project.servers) byName.set(s.name, s);
  }
  return { servers: [...byName.values()], untrusted, files, problems };
}
