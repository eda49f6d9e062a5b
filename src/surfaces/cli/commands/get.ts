import { parseLineRange } from "../../../units.ts";
import { type Command, positiveInt, printJson, requireDatabase, str, UsageError } from "../command.ts";

function lineRange(value: string): { from: number; to: number } {
  const range = parseLineRange(value);
  if (!range) throw new UsageError(`--lines takes A-B with 1 <= A <= B (e.g. 120-180) or one line number, got ${JSON.stringify(value)}`);
  return range;
}

export const getCommand: Command = {
  name: "get",
  summary: "print stored text exactly: a chunk, a line range, or the start of a source",
  usage: "pi-sidecar get SOURCE_ID [--chunk N] [--lines A-B] [--around N]",
  options: {
    chunk: { type: "string", help: "chunk number (1-based)", value: "N" },
    lines: { type: "string", help: "a line range, e.g. 120-180", value: "A-B" },
    around: { type: "string", help: "also N neighbouring chunks (with --chunk, max 5) or N lines (with --lines) each side", value: "N" },
  },
  async run(ctx) {
    const [source, ...extra] = ctx.positionals;
    if (!source) throw new UsageError("get needs a SOURCE_ID (from a receipt, a search hit or `pi-sidecar list`)");
    if (extra.length > 0) throw new UsageError(`get takes one SOURCE_ID, got also ${JSON.stringify(extra[0])}`);
    const chunk = positiveInt(ctx.values.chunk, "--chunk");
    const linesFlag = str(ctx.values.lines);
    if (chunk !== undefined && linesFlag !== undefined) throw new UsageError("use either --chunk or --lines, not both");
    const around = ctx.values.around === "0" ? 0 : positiveInt(ctx.values.around, "--around");
    if (around !== undefined && chunk === undefined && linesFlag === undefined)
      throw new UsageError("--around goes with --chunk N or --lines A-B");
    const lines = linesFlag ? lineRange(linesFlag) : undefined;
    requireDatabase(ctx);
    const result = await ctx.engine().get({ source, chunk, lines, around });
    if (!result.ok) {
      ctx.err(`pi-sidecar: ${result.message}\n`);
      return 1;
    }
    if (ctx.json) {
      const { ok: _ok, ...rest } = result;
      printJson(ctx, rest);
    } else {
      ctx.out(result.text);
      if (result.truncated)
        ctx.err(`pi-sidecar: cut at ${ctx.loaded.config.get.maxBytes} bytes (line ${result.lineEnd}); continue with: ${result.next}\n`);
    }
    return 0;
  },
};
