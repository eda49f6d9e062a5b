/**
 * `pi-sidecar mcp`: the context tools over MCP for any MCP client (Claude Code, Codex, Cursor,
 * ...), and in front of them the user's own MCP servers through the gateway, in the same modes
 * as in pi (`tools/list_changed` after a promotion). Tools only; stdout carries protocol frames
 * and nothing else.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import type { Gateway } from "../../gateway/index.ts";
import { VERSION } from "../../version.ts";
import { captureToolResult } from "../tools/capture-output.ts";
import { jsonSchema, MCP_TOOLS } from "../tools/definitions.ts";
import { runTool, type ToolScope } from "../tools/handlers.ts";
import { isKotaTool, kotaMcpTools, runKotaTool } from "../tools/kota-tools.ts";
import { isMemoryTool, memoryMcpTools, runMemoryTool } from "../tools/memory-tools.ts";
import { isRunTool, runRunTool } from "../tools/run-tools.ts";
import { RESOURCE_CAPABILITIES, registerResources } from "./resources.ts";
import { StdioLineTransport } from "./stdio-transport.ts";

const READ_ONLY = new Set(["context_search", "context_get", "context_stats"]);
/** Tools that reach outside the store: the shell, the network. */
const OPEN_WORLD = new Set(["context_run", "context_fetch"]);

export function mcpTools(): Tool[] {
  const context = MCP_TOOLS.map((spec) => ({
    name: spec.name,
    title: spec.label,
    description: spec.description,
    inputSchema: jsonSchema(spec),
    annotations: {
      title: spec.label,
      readOnlyHint: READ_ONLY.has(spec.name),
      destructiveHint: spec.name === "context_purge" || spec.name === "context_run",
      idempotentHint: READ_ONLY.has(spec.name),
      openWorldHint: OPEN_WORLD.has(spec.name),
    },
  }));
  return [...context, ...(kotaMcpTools() as Tool[]), ...(memoryMcpTools() as Tool[])];
}

export type ServeOptions = { engine: Engine; scope: ToolScope; config: Readonly<Config>; gateway: Gateway | null };

/** An upstream result with its text over the threshold replaced by a receipt; other blocks kept. */
async function captured(o: ServeOptions, tool: string, input: Record<string, unknown>, result: CallToolResult): Promise<CallToolResult> {
  const texts = result.content.filter((c) => c.type === "text") as { type: "text"; text: string }[];
  const replacement = await captureToolResult(
    async () => o.engine,
    o.config,
    { toolName: tool, input, content: texts, details: undefined, isError: result.isError === true },
    { session: o.scope.session ?? "mcp", project: o.scope.project ?? process.cwd() },
    () => "the engine failed",
  );
  if (!replacement) return result;
  const receipt = replacement.content.filter((c) => c.type === "text");
  // Structured content is the same data as the text: it stays out too (the receipt covers it).
  return { content: [...receipt, ...result.content.filter((c) => c.type !== "text")], isError: result.isError };
}

export function createMcpServer(o: ServeOptions): Server {
  const { engine, scope, gateway } = o;
  const server = new Server(
    { name: "pi-sidecar", title: "pi-sidecar context store", version: VERSION },
    {
      capabilities: { tools: { listChanged: gateway !== null }, ...RESOURCE_CAPABILITIES },
      instructions:
        "Large outputs live in pi-sidecar's store. Run noisy commands (builds, tests, logs) with context_run and fetch web " +
        "pages with context_fetch: small output comes back whole, large output as a receipt. Index big files or texts with " +
        "context_index instead of reading them, then context_search with distinctive words and context_get the exact lines.",
    },
  );
  const tools = mcpTools();
  const known = new Set(tools.map((t) => t.name));
  const upstream = (): Tool[] =>
    (gateway?.exposed() ?? []).map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema as Tool["inputSchema"],
    }));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...tools, ...upstream()] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const forwarded = known.has(name) ? [] : upstream();
    const token = request.params._meta?.progressToken;
    const onProgress =
      token === undefined
        ? undefined
        : (progress: number, total: number | undefined, message: string | undefined) =>
            void extra
              .sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, total, message } })
              .catch(() => {});
    if (gateway && forwarded.some((t) => t.name === name)) {
      const r = await gateway.call(name, args ?? {}, { signal: extra.signal, onProgress });
      return captured(o, name, (args ?? {}) as Record<string, unknown>, r.result);
    }
    if (!known.has(name)) {
      return {
        content: [{ type: "text", text: `Unknown tool "${name}". Tools: ${[...known, ...forwarded.map((t) => t.name)].join(", ")}.` }],
        isError: true,
      };
    }
    const input = (args ?? {}) as Record<string, unknown>;
    const outcome = isKotaTool(name)
      ? await runKotaTool(engine, name, input, {
          project: scope.project ?? process.cwd(),
          session: scope.session ?? undefined,
          budgetBytes: o.config.kota.budgetBytes,
          confirmIndex: o.config.kota.confirmIndex,
          consentHint: "call kota_index (or run `pi-sidecar kota index` in the repository)",
          signal: extra.signal,
          store: async (text, label) => {
            const r = await engine.capture({
              text,
              tool: label.split(" ")[0]!,
              force: true,
              session: scope.session,
              project: scope.project,
              label,
            });
            if (!r.stored) throw new Error(r.reason);
            return r.receipt;
          },
        })
      : isMemoryTool(name)
        ? await runMemoryTool(engine, name, input, { project: scope.project ?? process.cwd(), session: scope.session ?? null })
        : isRunTool(name)
          ? await runRunTool(engine, name, input, scope, { signal: extra.signal, progress: onProgress })
          : await runTool(engine, name, input, scope);
    return { content: [{ type: "text", text: outcome.text }], isError: outcome.isError };
  });
  registerResources(server, engine, { project: scope.project ?? process.cwd() });
  return server;
}

/** Serves over stdio until the client closes the connection. */
export async function serveMcpStdio(o: ServeOptions): Promise<void> {
  const server = createMcpServer(o);
  o.gateway?.onChange(() => void server.sendToolListChanged().catch(() => {}));
  // Ours, not the SDK's: it answers malformed and oversized frames, and at EOF finishes what it received.
  const transport = new StdioLineTransport(process.stdin, (text) => void process.stdout.write(text));
  const closed = new Promise<void>((done) => {
    server.onclose = () => done();
  });
  await server.connect(transport);
  await closed;
}
