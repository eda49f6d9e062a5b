import { formatBytes, formatCount } from "../../../units.ts";
import { type Command, FILTER_OPTIONS, pathOption, positiveInt, printJson, requireDatabase, str } from "../command.ts";

export const listCommand: Command = {
  name: "list",
  summary: "list stored sources, newest first",
  usage: "pi-sidecar list [--session ID] [--tool NAME] [--project DIR] [--limit N]",
  options: { ...FILTER_OPTIONS, limit: { type: "string", help: "at most N sources (default 20)", value: "N" } },
  async run(ctx) {
    requireDatabase(ctx);
    const sources = await ctx
      .engine()
      .list(
        { session: str(ctx.values.session), tool: str(ctx.values.tool), project: pathOption(ctx.values.project) },
        positiveInt(ctx.values.limit, "--limit") ?? 20,
      );
    if (ctx.json) {
      printJson(ctx, { sources });
      return 0;
    }
    if (sources.length === 0) {
      ctx.out("No stored sources.\n");
      return 0;
    }
    for (const s of sources) {
      const when = new Date(s.createdAt).toISOString().replace("T", " ").slice(0, 19);
      const extra = [s.session ? `session ${s.session}` : "", s.label ?? ""].filter(Boolean).join(", ");
      ctx.out(
        `${s.sourceId}  ${when}  ${s.tool.padEnd(10)} ${formatBytes(s.bytes).padStart(10)} ${formatCount(s.lines).padStart(9)} lines ` +
          `${formatCount(s.tokens).padStart(10)} tokens${extra ? `  ${extra}` : ""}\n`,
      );
    }
    return 0;
  },
};
