import { decodeUtf8 } from "../../../text.ts";
import { type Command, pathOption, printJson, str, UsageError } from "../command.ts";
import { settleDetached } from "../hand-off.ts";
import { runPassthrough } from "./passthrough.ts";

export const captureCommand: Command = {
  name: "capture",
  summary: "store a tool's output read from stdin; print the receipt (or the text itself when small)",
  usage:
    "pi-sidecar capture --tool NAME [--force] [--session ID] [--project DIR] [--label TEXT] < output.txt\n" +
    "       CMD 2>&1 | pi-sidecar capture --passthrough [--exit-marker M] [--tool NAME] ...",
  options: {
    tool: { type: "string", help: "the tool that produced the output (required; bash with --passthrough)", value: "NAME" },
    passthrough: {
      type: "boolean",
      help: "for pipes a hook builds: under the threshold the bytes unchanged, above it the receipt; never fails",
    },
    "label-base64": { type: "string", help: "the label, base64url-encoded (what hooks pass)", value: "B64" },
    "exit-marker": {
      type: "string",
      help: "with --passthrough: the last line is `M <status>`; strip it and exit with that status",
      value: "M",
    },
    force: { type: "boolean", help: "store even when under the threshold" },
    session: { type: "string", help: "the session this output belongs to", value: "ID" },
    project: { type: "string", help: "the project directory (default: the current directory)", value: "DIR" },
    label: { type: "string", help: "a short note on what produced it, e.g. the command", value: "TEXT" },
  },
  async run(ctx) {
    if (ctx.values.passthrough === true) {
      if (ctx.positionals.length > 0)
        throw new UsageError(`capture reads the output from stdin and takes no arguments (got ${JSON.stringify(ctx.positionals[0])})`);
      return runPassthrough(ctx);
    }
    if (ctx.values["exit-marker"] !== undefined) throw new UsageError("--exit-marker goes with --passthrough");
    const tool = str(ctx.values.tool);
    if (!tool || tool.trim() === "") throw new UsageError("capture needs --tool NAME (the tool that produced the output)");
    if (ctx.positionals.length > 0)
      throw new UsageError(`capture reads the output from stdin and takes no arguments (got ${JSON.stringify(ctx.positionals[0])})`);
    if (ctx.stdinIsTTY)
      throw new UsageError("capture reads the output from stdin: pipe it in, e.g. `make 2>&1 | pi-sidecar capture --tool make`");
    const bytes = await ctx.readStdin();
    // The byte order mark stays (it is part of the output); invalid UTF-8 is said in the receipt.
    const { text, invalid } = decodeUtf8(bytes);
    // The receipt comes first: indexing and counting are handed to a detached `settle` (hand-off.ts).
    const engine = ctx.createEngine({ background: "inline", leaveQueued: true });
    const result = await engine.capture({
      text,
      invalidUtf8: invalid,
      tool,
      force: ctx.values.force === true,
      session: str(ctx.values.session) ?? null,
      project: pathOption(ctx.values.project) ?? process.cwd(),
      label: str(ctx.values.label) ?? null,
    });
    if (ctx.json) {
      printJson(
        ctx,
        result.stored
          ? {
              stored: true,
              sourceId: result.sourceId,
              bytes: result.bytes,
              lines: result.lines,
              chunks: result.chunks,
              tokens: null, // counted after the receipt: see stats
              redactions: result.redactions,
              duplicateOf: result.duplicateOf,
              receipt: result.receipt,
            }
          : {
              stored: false,
              sourceId: null,
              bytes: result.bytes,
              lines: result.lines,
              chunks: 0,
              receipt: null,
              reason: result.reason,
              text: result.text,
            },
      );
    } else if (result.stored) {
      ctx.out(`${result.receipt}\n`);
    } else {
      // Byte for byte what came in.
      ctx.outBytes(bytes);
    }
    if (result.stored && result.duplicateOf === null) settleDetached(ctx.loaded.config.db, ctx.env);
    return 0;
  },
};
