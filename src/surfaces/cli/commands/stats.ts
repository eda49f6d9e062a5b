import type { Stats, Tally } from "../../../store/stats.ts";
import { formatBytes, formatCount } from "../../../units.ts";
import { type Command, FILTER_OPTIONS, pathOption, printJson, str } from "../command.ts";

function row(name: string, t: Tally): string {
  return (
    `  ${name.padEnd(24)} ${formatCount(t.captures).padStart(7)} ${formatCount(t.storedTokens).padStart(12)} ` +
    `${formatCount(t.receiptTokens).padStart(10)} ${formatCount(t.retrievedTokens).padStart(10)} ${formatCount(t.netSavedTokens).padStart(12)}`
  );
}

export function formatStats(s: Stats): string {
  const header = `  ${"".padEnd(24)} ${"captures".padStart(7)} ${"tokens".padStart(12)} ${"receipts".padStart(10)} ${"retrieved".padStart(10)} ${"net saved".padStart(12)}`;
  const lines = [
    `Database ${s.database.path}: ${formatBytes(s.database.fileBytes)} (+ ${formatBytes(s.database.walBytes)} WAL), ` +
      `${formatCount(s.database.blobs)} distinct texts, ${formatBytes(s.database.uniqueBytes)} of text in ${formatCount(s.database.chunks)} chunks.`,
    `Tokens counted with ${s.tokenizer}. Net saved = stored - receipts - retrieved.`,
    header,
    row("all", s.totals),
  ];
  if (s.byTool.length > 0) lines.push("By tool:", ...s.byTool.map((t) => row(t.tool, t)));
  if (s.bySession.length > 0) lines.push("By session:", ...s.bySession.map((t) => row(t.session ?? "(none)", t)));
  if (s.recent.length > 0) lines.push("Recent sources:", ...s.recent.map((t) => row(`${t.sourceId} ${t.tool}`.slice(0, 24), t)));
  return `${lines.join("\n")}\n`;
}

export const statsCommand: Command = {
  name: "stats",
  summary: "what was stored, what receipts and retrieval cost, and the net saving, in tokens",
  usage: "pi-sidecar stats [--source ID] [--session ID] [--tool NAME] [--project DIR]",
  options: { source: { type: "string", help: "only this source", value: "ID" }, ...FILTER_OPTIONS },
  async run(ctx) {
    const stats = await ctx.engine().stats({
      source: str(ctx.values.source),
      session: str(ctx.values.session),
      tool: str(ctx.values.tool),
      project: pathOption(ctx.values.project),
    });
    if (ctx.json) printJson(ctx, stats);
    else ctx.out(formatStats(stats));
    return 0;
  },
};
