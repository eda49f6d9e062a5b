import { type Command, FILTER_OPTIONS, pathOption, positiveInt, printJson, requireDatabase, str, UsageError } from "../command.ts";

export const searchCommand: Command = {
  name: "search",
  summary: "search stored output; each hit shows its matching lines with line numbers",
  usage:
    "pi-sidecar search QUERY [--source ID] [--tool NAME] [--session ID] [--project DIR] [--limit N] (a QUERY may start with a dash: --primary-color)",
  options: {
    source: { type: "string", help: "only this source", value: "ID" },
    ...FILTER_OPTIONS,
    limit: { type: "string", help: "at most N hits (default 5, max 50)", value: "N" },
  },
  dashedText: true,
  async run(ctx) {
    const query = ctx.positionals.join(" ").trim();
    if (query === "") throw new UsageError("search needs a QUERY: distinctive words, an identifier or error text");
    const limit = positiveInt(ctx.values.limit, "--limit", 50);
    requireDatabase(ctx);
    const result = await ctx.engine().search({
      query,
      source: str(ctx.values.source),
      tool: str(ctx.values.tool),
      session: str(ctx.values.session),
      project: pathOption(ctx.values.project),
      limit,
    });
    if (!result.ok) {
      ctx.err(`pi-sidecar: ${result.message}\n`);
      return 1;
    }
    if (ctx.json) {
      printJson(ctx, {
        query: result.query,
        mode: result.mode,
        corrections: result.corrections,
        omitted: result.omitted,
        hits: result.hits.map((h) => ({
          sourceId: h.sourceId,
          tool: h.tool,
          chunk: h.chunk,
          lineStart: h.lineStart,
          lineEnd: h.lineEnd,
          score: h.score,
          title: h.title,
          lines: h.lines,
          more: h.more,
          text: h.text,
        })),
      });
    } else ctx.out(`${result.text}\n`);
    return 0;
  },
};
