import { readLines } from "../../../json-lines.ts";
import { CLI_CALLS, TOOL_CALLS } from "../../../store/index.ts";
import { serveRpc } from "../../rpc/server.ts";
import { type Command, str, UsageError } from "../command.ts";

export const serveCommand: Command = {
  name: "serve",
  summary: "serve the engine as newline-delimited JSON-RPC on stdin/stdout (used by the pi extension on Node)",
  usage: "pi-sidecar serve --stdio [--calls tools|cli]",
  options: {
    stdio: { type: "boolean", help: "speak JSON-RPC on stdin/stdout (the only transport)" },
    calls: { type: "string", help: "how receipts suggest next calls: tools (default) or cli", value: "STYLE" },
  },
  async run(ctx) {
    if (ctx.values.stdio !== true) throw new UsageError("serve needs --stdio (the only transport)");
    const style = str(ctx.values.calls) ?? "tools";
    if (style !== "tools" && style !== "cli") throw new UsageError(`--calls takes tools or cli, got ${JSON.stringify(style)}`);
    const engine = ctx.createEngine({ calls: style === "tools" ? TOOL_CALLS : CLI_CALLS });
    await serveRpc(engine, {
      lines: readLines(ctx.stdinStream()),
      write: (frame) => ctx.out(frame),
      log: (message) => ctx.err(`pi-sidecar serve: ${message}\n`),
    });
    return 0;
  },
};
