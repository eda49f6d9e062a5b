/**
 * The MCP gateway: the user's servers behind a tool list that costs little. Per server mode:
 * `catalog` (three fixed tools search, describe and call), `stubs` (compact native tools; the
 * first call promotes the server to full schemas), `eager` (full schemas). Servers start on
 * first use. Surfaces (pi, our MCP server) register `exposed()` and route calls to `call()`;
 * expected failures come back as error results the model can act on, never as throws.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../errors.ts";
import { globMatch } from "../glob.ts";
import type { CatalogCache } from "./catalog-cache.ts";
import { type CallOptions, ServerConnection } from "./connection.ts";
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
import { inlineRefs, type JsonSchema } from "./schema.ts";
import type { McpFile, ServerConfigLoad, ServerMode, ServerSpec } from "./server-config.ts";
import type { McpState } from "./state.ts";
import { describeRef, searchTools, type ToolRef } from "./tool-search.ts";
import { validateArguments } from "./validate.ts";

export type GatewaySettings = { mode: ServerMode; force: ServerMode | null; requestTimeoutMs: number };

export type GatewayOptions = {
  load: ServerConfigLoad;
  settings: GatewaySettings;
  cache: CatalogCache;
  state: McpState;
  log?: (line: string) => void;
  now?: () => number;
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

export type GatewayResult = { result: CallToolResult; server?: string; tool?: string; promoted?: boolean };

export type Gateway = ReturnType<typeof createGateway>;

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function textResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }] };
}

export function createGateway(o: GatewayOptions) {
  const log = o.log ?? (() => {});
  const specs = new Map(o.load.servers.map((s) => [s.name, s]));
  const listeners = new Set<() => void>();
  const promoted = new Set<string>();
  const enabled = new Map<string, boolean>();
  for (const s of specs.values()) enabled.set(s.name, o.state.enabledOverride(s.name) ?? s.enabled);
  const modeOf = (s: ServerSpec): ServerMode => o.settings.force ?? s.mode ?? o.settings.mode;
  /** exposed() as last built; every change that can alter it goes through emit(). */
  let exposedNow: ExposedTool[] | null = null;
  const emit = () => {
    exposedNow = null;
    for (const fn of listeners) fn();
  };

  const connections = new Map<string, ServerConnection>();
  const connection = (s: ServerSpec): ServerConnection => {
    let c = connections.get(s.name);
    if (!c) {
      c = new ServerConnection(s, {
        requestTimeoutMs: o.settings.requestTimeoutMs,
        now: o.now,
        log,
        onTools: (tools) => {
          const before = JSON.stringify(o.cache.get(s)?.tools ?? null);
          o.cache.put(s, tools);
          // Catalog servers are reached through the fixed tools: their lists never change the tool list.
          if (modeOf(s) !== "catalog" && before !== JSON.stringify(tools)) emit();
        },
      });
      connections.set(s.name, c);
    }
    return c;
  };

  const allowed = (s: ServerSpec, tool: string): boolean =>
    (s.allow === null || s.allow.some((p) => globMatch(p, tool))) && !s.deny.some((p) => globMatch(p, tool));
  /** The server's tools as last seen (live, else the disk catalog), after allow/deny; null when never listed. */
  const knownTools = (s: ServerSpec): Tool[] | null => {
    const tools = connections.get(s.name)?.tools ?? o.cache.get(s)?.tools ?? null;
    return tools ? tools.filter((t) => allowed(s, t.name)) : null;
  };
  const active = () => [...specs.values()].filter((s) => enabled.get(s.name));
  const ofMode = (mode: ServerMode) => active().filter((s) => modeOf(s) === mode);

  // Built once: the catalog tools' text must not change while the session runs.
  const catalogSet =
    ofMode("catalog").length > 0
      ? catalogTools(serversLine(ofMode("catalog").map((s) => ({ name: s.name, tools: knownTools(s)?.length ?? null }))))
      : [];
  const stubServers = ofMode("stubs").map((s) => s.name);
  const expandDef = stubServers.length > 0 ? expandTool(stubServers) : null;

  function exposed(): ExposedTool[] {
    exposedNow ??= build();
    return exposedNow;
  }

  function build(): ExposedTool[] {
    const out: ExposedTool[] = [...catalogSet];
    for (const s of active()) {
      const mode = modeOf(s);
      if (mode === "catalog") continue;
      const tools = knownTools(s) ?? [];
      const full = mode === "eager" || promoted.has(s.name);
      for (const t of tools) out.push(full ? fullTool(s.name, t) : stubTool(s.name, t));
    }
    if (expandDef) out.push(expandDef);
    return out;
  }

  /** Live tools of a server, starting it if needed. */
  async function liveTools(s: ServerSpec): Promise<Tool[]> {
    const c = connection(s);
    await c.ensure();
    return (c.tools ?? []).filter((t) => allowed(s, t.name));
  }

  async function refs(only?: string): Promise<{ refs: ToolRef[]; problems: string[] }> {
    const out: ToolRef[] = [];
    const problems: string[] = [];
    for (const s of active()) {
      if (only && s.name !== only) continue;
      let tools = knownTools(s);
      if (!tools) {
        try {
          tools = await liveTools(s);
        } catch (error) {
          problems.push(errorMessage(error));
          continue;
        }
      }
      for (const tool of tools) out.push({ server: s.name, tool });
    }
    return { refs: out, problems };
  }

  function whyMissing(server: string): string {
    const s = specs.get(server);
    if (s && !enabled.get(server)) return `MCP server "${server}" is disabled; the user can turn it on with /mcp enable ${server}.`;
    const untrusted = o.load.untrusted.find((f: McpFile) => f.names.includes(server));
    if (untrusted) return `MCP server "${server}" is in ${untrusted.path}, which the user has not approved (/mcp approve).`;
    return `No MCP server "${server}". Servers: ${
      active()
        .map((x) => x.name)
        .join(", ") || "none"
    }.`;
  }

  /** "server/tool", "server__tool" or a tool name only one server has. */
  async function resolve(name: string): Promise<{ spec: ServerSpec; tool: string } | { error: string }> {
    const slash = name.indexOf("/");
    if (slash > 0) {
      const server = name.slice(0, slash);
      const s = specs.get(server);
      return s && enabled.get(server) ? { spec: s, tool: name.slice(slash + 1) } : { error: whyMissing(server) };
    }
    for (const s of specs.values()) {
      for (const t of knownTools(s) ?? []) {
        if (exposedName(s.name, t.name) !== name) continue;
        return enabled.get(s.name) ? { spec: s, tool: t.name } : { error: whyMissing(s.name) };
      }
    }
    const { refs: all } = await refs();
    const owners = all.filter((r) => r.tool.name === name);
    if (owners.length === 1) return { spec: specs.get(owners[0]!.server)!, tool: name };
    if (owners.length > 1)
      return { error: `Several servers have "${name}": ${owners.map((r) => `${r.server}/${name}`).join(", ")}. Name one.` };
    const close = searchTools(all, name.replace(/__/g, " "), 3).map(describeRef);
    return { error: `No MCP tool "${name}".${close.length ? ` Closest:\n${close.join("\n")}` : ""}` };
  }

  async function schemaOf(spec: ServerSpec, tool: string): Promise<Tool | null> {
    return (await liveTools(spec)).find((t) => t.name === tool) ?? null;
  }

  async function invoke(
    spec: ServerSpec,
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
    validate: boolean,
  ): Promise<GatewayResult> {
    const def = await schemaOf(spec, tool);
    if (!def)
      return {
        result: errorResult(`MCP server "${spec.name}" has no tool "${tool}" (now). Use ${SEARCH_TOOL} or /mcp list.`),
        server: spec.name,
        tool,
      };
    if (validate) {
      const v = validateArguments(def.inputSchema as JsonSchema, args);
      if (!v.ok) {
        return {
          result: errorResult(
            `Arguments do not match ${spec.name}/${tool}:\n${v.problems.map((p) => `- ${p}`).join("\n")}\nInput schema:\n${JSON.stringify(inlineRefs(def.inputSchema as JsonSchema))}`,
          ),
          server: spec.name,
          tool,
        };
      }
    }
    const result = await connection(spec).call(tool, args, options);
    return { result, server: spec.name, tool };
  }

  async function promote(name: string): Promise<string> {
    const targets =
      name === "all" ? ofMode("stubs") : [specs.get(name)].filter((s): s is ServerSpec => !!s && enabled.get(s.name) === true);
    if (targets.length === 0) return whyMissing(name);
    const lines: string[] = [];
    let changed = false;
    for (const s of targets) {
      try {
        const tools = await liveTools(s);
        if (!promoted.has(s.name) && modeOf(s) === "stubs") {
          promoted.add(s.name);
          changed = true;
        }
        lines.push(`${s.name}: ${tools.length} tools with full schemas: ${tools.map((t) => exposedName(s.name, t.name)).join(", ")}`);
      } catch (error) {
        lines.push(errorMessage(error));
      }
    }
    if (changed) emit();
    return lines.join("\n");
  }

  async function call(name: string, rawArgs: unknown, options: CallOptions = {}): Promise<GatewayResult> {
    const args = (typeof rawArgs === "object" && rawArgs !== null ? rawArgs : {}) as Record<string, unknown>;
    try {
      if (name === SEARCH_TOOL) {
        const server = typeof args.server === "string" && args.server !== "" ? args.server : undefined;
        if (server && !specs.has(server)) return { result: errorResult(whyMissing(server)) };
        const { refs: all, problems } = await refs(server);
        const hits = searchTools(all, String(args.query ?? ""), 8);
        const body =
          hits.length > 0
            ? `${hits.map(describeRef).join("\n")}\nCall one with ${CALL_TOOL} {tool: "server/tool", arguments: {...}}; ${DESCRIBE_TOOL} shows a full schema.`
            : `No tool matches "${String(args.query ?? "")}". Try other words; tools: ${all
                .map((r) => `${r.server}/${r.tool.name}`)
                .slice(0, 60)
                .join(", ")}`;
        return { result: textResult([body, ...problems].join("\n")) };
      }
      if (name === DESCRIBE_TOOL || name === CALL_TOOL) {
        const target = await resolve(String(args.tool ?? ""));
        if ("error" in target) return { result: errorResult(target.error) };
        if (name === DESCRIBE_TOOL) {
          const def = await schemaOf(target.spec, target.tool);
          if (!def) return { result: errorResult(`MCP server "${target.spec.name}" has no tool "${target.tool}".`) };
          return {
            result: textResult(
              `${target.spec.name}/${def.name}\n${def.description ?? ""}\nInput schema: ${JSON.stringify(inlineRefs(def.inputSchema as JsonSchema), null, 1)}`,
            ),
          };
        }
        let callArgs: unknown = args.arguments ?? {};
        if (typeof callArgs === "string") {
          try {
            callArgs = JSON.parse(callArgs);
          } catch {
            return { result: errorResult(`"arguments" must be an object (got a string that is not JSON).`) };
          }
        }
        return await invoke(target.spec, target.tool, callArgs as Record<string, unknown>, options, true);
      }
      if (name === EXPAND_TOOL) return { result: textResult(await promote(String(args.server ?? ""))) };
      const target = await resolve(name);
      if ("error" in target) return { result: errorResult(target.error) };
      const stub = modeOf(target.spec) === "stubs" && !promoted.has(target.spec.name);
      if (stub) await promote(target.spec.name);
      // A stub's arguments were written against the short schema: check them against the full one.
      const r = await invoke(target.spec, target.tool, args, options, stub);
      return { ...r, promoted: stub };
    } catch (error) {
      return { result: errorResult(errorMessage(error)) };
    }
  }

  function status(): ServerStatus[] {
    return [...specs.values()].map((s) => {
      const c = connections.get(s.name);
      return {
        name: s.name,
        scope: s.scope,
        file: s.file,
        mode: modeOf(s),
        enabled: enabled.get(s.name) === true,
        status: c?.status ?? "idle",
        tools: knownTools(s)?.length ?? null,
        promoted: promoted.has(s.name),
        pid: c?.pid ?? null,
        lastError: c?.lastError ?? null,
      };
    });
  }

  return {
    exposed,
    call,
    status,
    promote,
    untrusted: o.load.untrusted,
    problems: o.load.problems,
    onChange(fn: () => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    /** Starts servers configured to start at once, and eager servers never listed (their schemas are needed now). */
    async prepare(): Promise<string[]> {
      const problems: string[] = [];
      await Promise.all(
        active()
          .filter((s) => s.autostart || (modeOf(s) === "eager" && knownTools(s) === null))
          .map((s) =>
            connection(s)
              .ensure()
              .catch((error) => void problems.push(errorMessage(error))),
          ),
      );
      return problems;
    },
    async connect(name: string): Promise<string> {
      const s = specs.get(name);
      if (!s || !enabled.get(name)) return whyMissing(name);
      const tools = await liveTools(s);
      return `${name}: connected, ${tools.length} tools.`;
    },
    async disconnect(name: string): Promise<string> {
      const c = connections.get(name);
      if (!specs.has(name)) return whyMissing(name);
      await c?.close();
      return `${name}: disconnected (it starts again on the next call).`;
    },
    async setEnabled(names: string[], on: boolean): Promise<string> {
      const unknown = names.filter((n) => !specs.has(n));
      if (unknown.length > 0) return unknown.map(whyMissing).join("\n");
      o.state.setEnabled(names, on);
      for (const n of names) {
        enabled.set(n, on);
        if (!on) await connections.get(n)?.close();
      }
      emit();
      return `${names.join(", ")}: ${on ? "enabled" : "disabled"}.`;
    },
    async close(): Promise<void> {
      await Promise.all([...connections.values()].map((c) => c.close()));
    },
  };
}
