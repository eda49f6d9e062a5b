/**
 * The MCP gateway: the user's servers behind a tool list that costs little. Per server mode:
 * `catalog` (three fixed tools search, describe and call), `stubs` (compact native tools; the
 * first call promotes the server to full schemas), `eager` (full schemas). Servers start on
 * first use. Surfaces (pi, our MCP server) register `exposed()` and route calls to `call()`;
 * expected failures come back as error results the model can act on (phrased for the surface's
 * audience), and the server commands return typed values each surface phrases itself.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage, type Result } from "../errors.ts";
import type { CatalogCache } from "./catalog-cache.ts";
import type { CallOptions } from "./connection.ts";
import {
  CALL_TOOL,
  catalogTools,
  DESCRIBE_TOOL,
  EXPAND_TOOL,
  type ExposedTool,
  expandTool,
  exposedName,
  fullTool,
  SEARCH_TOOL,
  serversLine,
  stubTool,
} from "./exposed-tools.ts";
import { type Audience, type GatewayFailure, PI_MODEL, phrase } from "./phrasing.ts";
import { inlineRefs, type JsonSchema } from "./schema.ts";
import { createServerPool, type GatewaySettings, type ServerStatus } from "./server-pool.ts";
import type { ServerConfigLoad, ServerSpec } from "./server-spec.ts";
import type { McpState } from "./state.ts";
import { listRefs, resolveTool } from "./tool-resolver.ts";
import { describeRef, searchTools } from "./tool-search.ts";
import { validateArguments } from "./validate.ts";

export type { GatewaySettings, ServerStatus } from "./server-pool.ts";

export type GatewayOptions = {
  load: ServerConfigLoad;
  settings: GatewaySettings;
  cache: CatalogCache;
  state: McpState;
  /** Who reads the tool results (default: the model in pi). */
  audience?: Audience;
  log?: (line: string) => void;
  now?: () => number;
};

export type GatewayResult = { result: CallToolResult; server?: string; tool?: string; promoted?: boolean };
export type Expansion = { servers: { name: string; tools: string[] }[]; problems: GatewayFailure[] };

export type Gateway = ReturnType<typeof createGateway>;

const errorResult = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true });
const textResult = (text: string): CallToolResult => ({ content: [{ type: "text", text }] });

export function createGateway(o: GatewayOptions) {
  const audience = o.audience ?? PI_MODEL;
  const listeners = new Set<() => void>();
  /** exposed() as last built; every change that can alter it goes through emit(). */
  let exposedNow: ExposedTool[] | null = null;
  const emit = () => {
    exposedNow = null;
    for (const fn of listeners) fn();
  };
  const pool = createServerPool({ ...o, onListChange: emit });
  const failed = (f: GatewayFailure): GatewayResult => ({ result: errorResult(phrase(f, audience)), server: f.server });

  // Built once: the catalog tools' text must not change while the session runs.
  const catalogServers = pool.ofMode("catalog");
  const catalogSet =
    catalogServers.length > 0
      ? catalogTools(serversLine(catalogServers.map((s) => ({ name: s.name, tools: pool.knownTools(s)?.length ?? null }))))
      : [];
  const stubServers = pool.ofMode("stubs").map((s) => s.name);
  const expandDef = stubServers.length > 0 ? expandTool(stubServers) : null;

  function build(): ExposedTool[] {
    const out: ExposedTool[] = [...catalogSet];
    for (const s of pool.active()) {
      const mode = pool.modeOf(s);
      if (mode === "catalog") continue;
      const full = mode === "eager" || pool.isPromoted(s.name);
      for (const t of pool.knownTools(s) ?? []) out.push(full ? fullTool(s.name, t) : stubTool(s.name, t));
    }
    if (expandDef) out.push(expandDef);
    return out;
  }

  /** Loads full schemas of one server, or of every stubs server ("all"). */
  async function expand(name: string): Promise<Result<Expansion, GatewayFailure>> {
    let targets: ServerSpec[];
    if (name === "all") targets = pool.ofMode("stubs");
    else {
      const found = pool.lookup(name);
      if (!found.ok) return found;
      targets = [found.spec];
    }
    const out: Expansion = { servers: [], problems: [] };
    let changed = false;
    for (const s of targets) {
      try {
        const tools = await pool.liveTools(s);
        changed = pool.promote(s) || changed;
        out.servers.push({ name: s.name, tools: tools.map((t) => exposedName(s.name, t.name)) });
      } catch (error) {
        out.problems.push(pool.startFailure(s, error));
      }
    }
    if (changed) emit();
    return { ok: true, ...out };
  }

  async function invoke(
    spec: ServerSpec,
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
    validate: boolean,
  ): Promise<GatewayResult> {
    let def: Awaited<ReturnType<typeof pool.liveTools>>[number] | undefined;
    try {
      def = (await pool.liveTools(spec)).find((t) => t.name === tool);
    } catch (error) {
      return failed(pool.startFailure(spec, error));
    }
    if (!def)
      return {
        result: errorResult(`MCP server "${spec.name}" has no tool "${tool}" (now). Use ${SEARCH_TOOL} to find tools.`),
        server: spec.name,
        tool,
      };
    if (validate) {
      const v = await validateArguments(def.inputSchema as JsonSchema, args);
      if (!v.ok) {
        const problems = v.problems.map((p) => `- ${p}`).join("\n");
        const schema = JSON.stringify(inlineRefs(def.inputSchema as JsonSchema));
        return {
          result: errorResult(`Arguments do not match ${spec.name}/${tool}:\n${problems}\nInput schema:\n${schema}`),
          server: spec.name,
          tool,
        };
      }
    }
    return { result: await (await pool.connection(spec)).call(tool, args, options), server: spec.name, tool };
  }

  type Handler = (args: Record<string, unknown>, options: CallOptions) => Promise<GatewayResult>;

  const searchHandler: Handler = async (args) => {
    const server = typeof args.server === "string" && args.server !== "" ? args.server : undefined;
    if (server && !pool.specs.has(server)) return failed(pool.missing(server));
    const { refs, problems } = await listRefs(pool, server);
    const query = String(args.query ?? "");
    const hits = searchTools(refs, query, 8);
    const body =
      hits.length > 0
        ? `${hits.map(describeRef).join("\n")}\nCall one with ${CALL_TOOL} {tool: "server/tool", arguments: {...}}; ${DESCRIBE_TOOL} shows a full schema.`
        : `No tool matches "${query}". Try other words; tools: ${refs
            .map((r) => `${r.server}/${r.tool.name}`)
            .slice(0, 60)
            .join(", ")}`;
    return { result: textResult([body, ...problems].join("\n")) };
  };

  const describeHandler: Handler = async (args) => {
    const target = await resolveTool(pool, String(args.tool ?? ""));
    if (!target.ok) return failed(target);
    let def: Awaited<ReturnType<typeof pool.liveTools>>[number] | undefined;
    try {
      def = (await pool.liveTools(target.spec)).find((t) => t.name === target.tool);
    } catch (error) {
      return failed(pool.startFailure(target.spec, error));
    }
    if (!def) return { result: errorResult(`MCP server "${target.spec.name}" has no tool "${target.tool}".`) };
    const schema = JSON.stringify(inlineRefs(def.inputSchema as JsonSchema), null, 1);
    return { result: textResult(`${target.spec.name}/${def.name}\n${def.description ?? ""}\nInput schema: ${schema}`) };
  };

  const callHandler: Handler = async (args, options) => {
    const target = await resolveTool(pool, String(args.tool ?? ""));
    if (!target.ok) return failed(target);
    let callArgs: unknown = args.arguments ?? {};
    if (typeof callArgs === "string") {
      try {
        callArgs = JSON.parse(callArgs);
      } catch {
        return { result: errorResult(`"arguments" must be an object (got a string that is not JSON).`) };
      }
    }
    return invoke(target.spec, target.tool, callArgs as Record<string, unknown>, options, true);
  };

  const expandHandler: Handler = async (args) => {
    const r = await expand(String(args.server ?? ""));
    if (!r.ok) return failed(r);
    const lines = r.servers.map((s) => `${s.name}: ${s.tools.length} tools with full schemas: ${s.tools.join(", ")}`);
    return { result: textResult([...lines, ...r.problems.map((p) => phrase(p, audience))].join("\n")) };
  };

  /** A native tool (stub or full schema) of one server. */
  const directHandler = async (name: string, args: Record<string, unknown>, options: CallOptions): Promise<GatewayResult> => {
    const target = await resolveTool(pool, name);
    if (!target.ok) return failed(target);
    const stub = pool.modeOf(target.spec) === "stubs" && !pool.isPromoted(target.spec.name);
    if (stub) await expand(target.spec.name);
    // A stub's arguments were written against the short schema: check them against the full one.
    return { ...(await invoke(target.spec, target.tool, args, options, stub)), promoted: stub };
  };

  const handlers: Record<string, Handler> = {
    [SEARCH_TOOL]: searchHandler,
    [DESCRIBE_TOOL]: describeHandler,
    [CALL_TOOL]: callHandler,
    [EXPAND_TOOL]: expandHandler,
  };

  return {
    exposed(): ExposedTool[] {
      exposedNow ??= build();
      return exposedNow;
    },
    async call(name: string, rawArgs: unknown, options: CallOptions = {}): Promise<GatewayResult> {
      const args = (typeof rawArgs === "object" && rawArgs !== null ? rawArgs : {}) as Record<string, unknown>;
      try {
        const handler = handlers[name];
        return handler ? await handler(args, options) : await directHandler(name, args, options);
      } catch (error) {
        // A server that died mid-call, a timeout, a cancellation: the model gets the reason.
        return { result: errorResult(errorMessage(error)) };
      }
    },
    status: (): ServerStatus[] => pool.status(),
    expand,
    untrusted: o.load.untrusted,
    problems: o.load.problems,
    onChange(fn: () => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    /** Starts servers configured to start at once, and eager servers never listed (their schemas are needed now). */
    async prepare(): Promise<GatewayFailure[]> {
      const problems: GatewayFailure[] = [];
      const starting = pool.active().filter((s) => s.autostart || (pool.modeOf(s) === "eager" && pool.knownTools(s) === null));
      await Promise.all(
        starting.map((s) =>
          pool
            .connection(s)
            .then((c) => c.ensure())
            .catch((error) => void problems.push(pool.startFailure(s, error))),
        ),
      );
      return problems;
    },
    async connect(name: string): Promise<Result<{ server: string; tools: number }, GatewayFailure>> {
      const found = pool.lookup(name);
      if (!found.ok) return found;
      try {
        return { ok: true, server: name, tools: (await pool.liveTools(found.spec)).length };
      } catch (error) {
        return pool.startFailure(found.spec, error);
      }
    },
    async disconnect(name: string): Promise<Result<{ server: string }, GatewayFailure>> {
      if (!pool.specs.has(name)) return pool.missing(name);
      await pool.disconnect(name);
      return { ok: true, server: name };
    },
    async setEnabled(names: string[], on: boolean): Promise<Result<{ servers: string[] }, GatewayFailure>> {
      const unknown = names.find((n) => !pool.specs.has(n));
      if (unknown) return pool.missing(unknown);
      await pool.setEnabled(names, on);
      emit();
      return { ok: true, servers: names };
    },
    close: (): Promise<void> => pool.closeAll(),
  };
}
