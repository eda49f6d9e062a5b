import { TOOL_CALLS } from "../../../store/hints.ts";
import { serveMcpHttp, serveMcpStdio } from "../../mcp-server.ts";
import { positiveInt, type Command } from "../command.ts";

export const mcpCommand: Command = {
  name: "mcp",
  summary: "serve context_search, context_get, context_stats, context_purge and context_index over MCP stdio",
  usage: "pi-sidecar mcp [--session ID] [--http [--port N]]",
  options: {
    http: { type: "boolean", help: "serve Streamable HTTP on 127.0.0.1 instead of stdio" },
    port: { type: "string", help: "the HTTP port (default: any free port; the URL is printed on stderr)", value: "N" },
    session: { type: "string", help: "the session id to record captures under (default: one per server process)", value: "ID" },
  },
  async run(ctx) {
    const session = typeof ctx.values.session === "string" ? ctx.values.session : `mcp-${Date.now().toString(36)}-${process.pid}`;
    const engine = ctx.createEngine({ calls: TOOL_CALLS });
    const scope = { session, project: process.cwd() };
    if (ctx.values.http === true) {
      const { url } = serveMcpHttp(engine, scope, positiveInt(ctx.values.port, "--port") ?? 0);
      ctx.err(`pi-sidecar mcp: listening on ${url}\n`);
      await new Promise<void>((done) => {
        process.once("SIGINT", done);
        process.once("SIGTERM", done);
      });
      return 0;
    }
    await serveMcpStdio(engine, scope);
    return 0;
  },
};
