import { debugLog } from "../../../debug.ts";
import { CLI_MODEL, CLI_USER, openGateway, phrase } from "../../../gateway/index.ts";
import { TOOL_CALLS } from "../../../store/index.ts";
import { type Command, positiveInt, str, UsageError } from "../command.ts";

export const mcpCommand: Command = {
  name: "mcp",
  summary: "serve the context tools, and the MCP servers in mcp.json behind the gateway, over MCP stdio",
  usage: "pi-sidecar mcp [--session ID] [--no-servers] [--http [--port N] [--token T]]",
  options: {
    "no-servers": { type: "boolean", help: "serve only the context tools, not the servers in mcp.json (also PI_SIDECAR_MCP=0)" },
    http: { type: "boolean", help: "serve Streamable HTTP on 127.0.0.1 instead of stdio" },
    port: { type: "string", help: "the HTTP port (default: any free port; the URL is printed on stderr)", value: "N" },
    token: {
      type: "string",
      help: "the token HTTP clients must send (default: a new random one per run; also PI_SIDECAR_MCP_TOKEN)",
      value: "T",
    },
    session: { type: "string", help: "the session id to record captures under (default: one per server process)", value: "ID" },
  },
  async run(ctx) {
    const port = positiveInt(ctx.values.port, "--port");
    if (port !== undefined && port > 65535) throw new UsageError(`--port takes a port from 1 to 65535, got ${port}`);
    if (ctx.values.http !== true && (port !== undefined || ctx.values.token !== undefined))
      throw new UsageError("--port and --token go with --http");
    const token = str(ctx.values.token) ?? ctx.env.PI_SIDECAR_MCP_TOKEN;
    if (token !== undefined && token.length < 16) throw new UsageError("--token (or PI_SIDECAR_MCP_TOKEN) must be at least 16 characters");
    // The MCP server's modules load here, not at start.
    const { serveMcpStdio } = await import("../../mcp/server.ts");
    const { newToken, serveMcpHttp } = await import("../../mcp/http.ts");
    const session = typeof ctx.values.session === "string" ? ctx.values.session : `mcp-${Date.now().toString(36)}-${process.pid}`;
    const engine = ctx.createEngine({ calls: TOOL_CALLS });
    const scope = { session, project: ctx.cwd };
    const log = debugLog(ctx.env, ctx.err);
    const opened =
      ctx.values["no-servers"] === true
        ? null
        : openGateway({ config: ctx.loaded.config, cwd: ctx.cwd, env: ctx.env, log, audience: CLI_MODEL });
    const gateway = opened?.gateway ?? null;
    for (const problem of gateway?.problems ?? []) ctx.err(`pi-sidecar: mcp.json: ${problem}\n`);
    for (const f of gateway?.untrusted ?? [])
      ctx.err(`pi-sidecar: not started (not approved): ${f.path}; approve it with \`pi-sidecar servers approve\`\n`);
    for (const problem of (await gateway?.prepare()) ?? []) ctx.err(`pi-sidecar: mcp: ${phrase(problem, CLI_USER)}\n`);
    const options = { engine, scope, config: ctx.loaded.config, gateway };
    if (ctx.values.http === true) {
      const served = serveMcpHttp(options, { port: port ?? 0, token: token ?? newToken() });
      if (!served.ok) {
        await gateway?.close();
        ctx.err(`pi-sidecar: ${served.message}\n`);
        return 1;
      }
      ctx.err(`pi-sidecar mcp: listening on ${served.url}?token=${served.token}\n`);
      ctx.err(`pi-sidecar mcp: clients send "Authorization: Bearer ${served.token}" (or use the URL above); anything else gets 401\n`);
      await new Promise<void>((done) => {
        process.once("SIGINT", done);
        process.once("SIGTERM", done);
      });
      await served.stop();
      await gateway?.close();
      return 0;
    }
    try {
      await serveMcpStdio(options);
    } finally {
      await gateway?.close();
    }
    return 0;
  },
};
