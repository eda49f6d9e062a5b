/**
 * The configured servers and their connections: which are enabled (mcp.json plus the user's
 * switches), in which mode, promoted to full schemas or not, and their tools as last seen
 * (live, else the on-disk catalog) after allow/deny. Servers start on first use.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { AppError, type Result } from "../errors.ts";
import { globMatch } from "../glob.ts";
import type { CatalogCache } from "./catalog-cache.ts";
import type { ServerConnection } from "./connection.ts";
import { type GatewayFailure, gatewayFail } from "./phrasing.ts";
import type { ServerConfigLoad, ServerMode, ServerSpec } from "./server-spec.ts";
import type { McpState } from "./state.ts";

export type GatewaySettings = { mode: ServerMode; force: ServerMode | null; requestTimeoutMs: number };

export type PoolOptions = {
  load: ServerConfigLoad;
  settings: GatewaySettings;
  cache: CatalogCache;
  state: McpState;
  log?: (line: string) => void;
  now?: () => number;
  /** A server's tool list changed in a way that changes what the model is offered. */
  onListChange: () => void;
};

export type ServerStatus = {
  name: string;
  scope: "global" | "project";
  file: string;
  mode: ServerMode;
  enabled: boolean;
  status: ServerConnection["status"];
  tools: number | null;
  promoted: boolean;
  pid: number | null;
  lastError: string | null;
};

export type ServerPool = ReturnType<typeof createServerPool>;

export function createServerPool(o: PoolOptions) {
  const specs = new Map(o.load.servers.map((s) => [s.name, s]));
  const enabled = new Map<string, boolean>();
  for (const s of specs.values()) enabled.set(s.name, o.state.enabledOverride(s.name) ?? s.enabled);
  const promoted = new Set<string>();
  const connections = new Map<string, ServerConnection>();
  const modeOf = (s: ServerSpec): ServerMode => o.settings.force ?? s.mode ?? o.settings.mode;
  const isEnabled = (name: string) => enabled.get(name) === true;
  const active = () => [...specs.values()].filter((s) => isEnabled(s.name));

  // The MCP SDK is loaded when the first server starts, not when tools are registered.
  let connectionModule: Promise<typeof import("./connection.ts")> | null = null;
  const loadConnections = () => {
    connectionModule ??= import("./connection.ts");
    return connectionModule;
  };
  const connection = async (s: ServerSpec): Promise<ServerConnection> => {
    let c = connections.get(s.name);
    if (!c) {
      const { ServerConnection } = await loadConnections();
      if (connections.has(s.name)) return connections.get(s.name)!;
      c = new ServerConnection(s, {
        requestTimeoutMs: o.settings.requestTimeoutMs,
        now: o.now,
        log: o.log,
        onTools: (tools) => {
          const before = JSON.stringify(o.cache.get(s)?.tools ?? null);
          o.cache.put(s, tools);
          // Catalog servers are reached through the fixed tools: their lists never change the tool list.
          if (modeOf(s) !== "catalog" && before !== JSON.stringify(tools)) o.onListChange();
        },
      });
      connections.set(s.name, c);
    }
    return c;
  };

  const allowed = (s: ServerSpec, tool: string): boolean =>
    (s.allow === null || s.allow.some((p) => globMatch(p, tool))) && !s.deny.some((p) => globMatch(p, tool));

  /** The server's tools as last seen (live, else the disk catalog), after allow/deny; null when never listed. */
  function knownTools(s: ServerSpec): Tool[] | null {
    const tools = connections.get(s.name)?.tools ?? o.cache.get(s)?.tools ?? null;
    return tools ? tools.filter((t) => allowed(s, t.name)) : null;
  }

  /** Why a server name cannot be used now. */
  function missing(name: string): GatewayFailure {
    const s = specs.get(name);
    if (s && !isEnabled(name)) return gatewayFail("SERVER_DISABLED", `MCP server "${name}" is disabled.`, { server: name });
    const untrusted = o.load.untrusted.find((f) => f.names.includes(name));
    if (untrusted)
      return gatewayFail("NOT_APPROVED", `MCP server "${name}" is in ${untrusted.path}`, { server: name, file: untrusted.path });
    const names = active().map((x) => x.name);
    return gatewayFail("NO_SUCH_SERVER", `No MCP server "${name}". Servers: ${names.join(", ") || "none"}.`, { server: name });
  }

  /** An enabled server by name, or why not. */
  function lookup(name: string): Result<{ spec: ServerSpec }, GatewayFailure> {
    const spec = specs.get(name);
    return spec && isEnabled(name) ? { ok: true, spec } : missing(name);
  }

  /** A failure to start, as a value the surfaces phrase; other faults stay thrown. */
  function startFailure(s: ServerSpec, error: unknown): GatewayFailure {
    if (error instanceof AppError && (error.code === "START_FAILED" || error.code === "COOLING_DOWN")) {
      return gatewayFail(error.code, error.message, { server: s.name });
    }
    throw error;
  }

  return {
    specs,
    modeOf,
    isEnabled,
    active,
    ofMode: (mode: ServerMode) => active().filter((s) => modeOf(s) === mode),
    connection,
    missing,
    lookup,
    startFailure,
    isPromoted: (name: string) => promoted.has(name),
    /** A stubs server gets its full schemas; true when that changed anything. */
    promote(s: ServerSpec): boolean {
      if (promoted.has(s.name) || modeOf(s) !== "stubs") return false;
      promoted.add(s.name);
      return true;
    },
    knownTools,
    /** Live tools of a server, starting it if needed (throws AppError START_FAILED / COOLING_DOWN). */
    async liveTools(s: ServerSpec): Promise<Tool[]> {
      const c = await connection(s);
      await c.ensure();
      return (c.tools ?? []).filter((t) => allowed(s, t.name));
    },
    async setEnabled(names: string[], on: boolean): Promise<void> {
      o.state.setEnabled(names, on);
      for (const n of names) {
        enabled.set(n, on);
        if (!on) await connections.get(n)?.close();
      }
    },
    status(): ServerStatus[] {
      return [...specs.values()].map((s) => {
        const c = connections.get(s.name);
        return {
          name: s.name,
          scope: s.scope,
          file: s.file,
          mode: modeOf(s),
          enabled: isEnabled(s.name),
          status: c?.status ?? "idle",
          tools: knownTools(s)?.length ?? null,
          promoted: promoted.has(s.name),
          pid: c?.pid ?? null,
          lastError: c?.lastError ?? null,
        };
      });
    },
    /** Disconnects a server if it runs (it starts again on the next call). */
    async disconnect(name: string): Promise<void> {
      await connections.get(name)?.close();
    },
    async closeAll(): Promise<void> {
      await Promise.all([...connections.values()].map((c) => c.close()));
    },
  };
}
