/**
 * The user's MCP servers, from the `mcp.json` files they already have (`mcpServers`).
 * Global `<agent dir>/mcp.json` is trusted; a project's `.pi/mcp.json` and `./mcp.json` are
 * read but their servers stay untrusted (never started) until the user approves the file's
 * exact content once. Every problem is collected with the server it concerns; a bad server
 * is skipped, the others still start.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { sha256 } from "../hash.ts";
import { parseServer } from "./server-entry.ts";
import type { McpFile, ServerConfigLoad, ServerSpec } from "./server-spec.ts";

export function globalMcpPath(agentDir: string): string {
  return join(agentDir, "mcp.json");
}

export function projectMcpPaths(cwd: string): string[] {
  return [join(cwd, ".pi", "mcp.json"), join(cwd, "mcp.json")];
}

type Env = Record<string, string | undefined>;

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
