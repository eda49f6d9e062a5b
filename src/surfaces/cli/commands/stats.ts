import type { EngineStats } from "../../../engine.ts";
import type { Tally } from "../../../store/index.ts";
import { formatBytes, formatCount, plural } from "../../../units.ts";
import { baselineLine, pruningLine, readcacheLine } from "../../tools/handlers.ts";
import { type Command, FILTER_OPTIONS, pathOption, printJson, requireDatabase, str } from "../command.ts";

const COLUMNS = ["captures", "baseline", "receipts", "retrieved", "net saved", "stored"] as const;
const WIDTHS = [8, 12, 10, 10, 12, 12];

function row(name: string, t: Tally): string {
  const cells = [t.captures, t.baselineTokens, t.receiptTokens, t.retrievedTokens, t.netSavedTokens, t.storedTokens];
  return `  ${name.padEnd(24)} ${cells.map((n, i) => formatCount(n).padStart(WIDTHS[i]!)).join(" ")}`;
}

export function formatStats(s: EngineStats): string {
  const header = `  ${"".padEnd(24)} ${COLUMNS.map((c, i) => c.padStart(WIDTHS[i]!)).join(" ")}`;
  const unknown = s.totals.unknownBaselines;
  const lines = [
    `Database ${s.database.path}: ${formatBytes(s.database.fileBytes)} (+ ${formatBytes(s.database.walBytes)} WAL), ` +
      `${plural(s.database.blobs, "distinct text")}, ${formatBytes(s.database.uniqueBytes)} of text in ${plural(s.database.chunks, "chunk")}.`,
    `Tokens counted with ${s.tokenizer}. Net saved = baseline (what the host would have sent) - receipts - retrieved; stored (the whole outputs) beside.` +
      (unknown > 0 ? ` ${plural(unknown, "capture")} stored before baselines were kept count 0 in baseline.` : ""),
    header,
    row("all", s.totals),
  ];
  if (s.byTool.length > 0) lines.push("By tool:", ...s.byTool.map((t) => row(t.tool, t)));
  if (s.bySession.length > 0) lines.push("By session:", ...s.bySession.map((t) => row(t.session ?? "(none)", t)));
  if (s.recent.length > 0) lines.push("Recent sources:", ...s.recent.map((t) => row(`${t.sourceId} ${t.tool}`.slice(0, 24), t)));
  for (const extra of [baselineLine(s), readcacheLine(s.readcache), pruningLine(s.pruning)]) if (extra) lines.push(extra);
  return `${lines.join("\n")}\n`;
}

export const statsCommand: Command = {
  name: "stats",
  summary: "what the hosts would have sent, what receipts and retrieval cost, and the net saving, in tokens",
  usage: "pi-sidecar stats [--source ID] [--session ID] [--tool NAME] [--project DIR]",
  options: { source: { type: "string", help: "only this source", value: "ID" }, ...FILTER_OPTIONS },
  async run(ctx) {
    requireDatabase(ctx);
    const source = str(ctx.values.source);
    const stats = await ctx.engine().stats({
      source,
      session: str(ctx.values.session),
      tool: str(ctx.values.tool),
      project: pathOption(ctx.values.project),
    });
    if (source !== undefined && stats.recent.length === 0) {
      // An unknown source is an error, as `get` says it, not a row of zeros.
      ctx.err(
        `pi-sidecar: No source "${source}" in this store (with these filters): it was purged, or stored elsewhere. Run \`pi-sidecar list\` to see what is here.\n`,
      );
      return 1;
    }
    if (ctx.json) printJson(ctx, stats);
    else ctx.out(formatStats(stats));
    return 0;
  },
};
