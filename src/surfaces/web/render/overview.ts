/**
 * The overview: the four numbers `pi-sidecar stats` prints, each with how it was derived, the
 * same numbers by tool, session and project, and over time. Every figure comes from the engine's
 * stats and usage, with the filters of `stats` (session, tool, project, source).
 */
import type { EngineStats } from "../../../engine.ts";
import type { Usage } from "../../../store/index.ts";
import { bytes, type Html, href, html, num, raw, when } from "../html.ts";
import { card, type Filters, filterForm, sourcesLink, tallyTable } from "./parts.ts";

function pendingLine(u: Usage): Html {
  const { unindexedTexts, uncountedReceipts, uncountedRetrievals } = u.pending;
  if (unindexedTexts + uncountedReceipts + uncountedRetrievals === 0) return html``;
  return html`<p class="note" data-pending="true">Not yet counted: ${num(unindexedTexts)} texts, ${num(uncountedReceipts)} receipts,
${num(uncountedRetrievals)} retrievals. The process that stored them (pi, or a command) counts them in the background; the
numbers above grow when it has. This page only reads.</p>`;
}

/** A bucket's width in words: "hour", "day", "3 days", "15 min". */
function span(ms: number): string {
  const unit = (n: number, one: string) => (n === 1 ? one : `${n} ${one}s`);
  if (ms % 86_400_000 === 0) return unit(ms / 86_400_000, "day");
  if (ms % 3_600_000 === 0) return unit(ms / 3_600_000, "hour");
  return `${Math.round(ms / 60_000)} min`;
}

/** The figures each bucket has, in the order the chart and the table show them. */
const SERIES = [
  ["baseline", "baselineTokens", "what the hosts would have sent"],
  ["receipts", "receiptTokens", "receipts"],
  ["retrieved", "retrievedTokens", "retrieved"],
  ["net", "netSavedTokens", "net saved"],
  ["stored", "storedTokens", "stored"],
] as const;

/** One bucket: no line to draw, so a bar per figure (a meter against the largest) and its number. */
function oneBucket(x: Usage["timeline"]["buckets"][number], width: string): Html {
  const max = Math.max(1, ...SERIES.map(([, k]) => x[k]));
  return html`<div class="bars" data-one-bucket="true" role="group" aria-label="Tokens in the one ${width} so far">
${SERIES.map(
  ([, k, label]) =>
    html`<div class="bar"><span class="bar-label">${label}</span><meter min="0" max="${max}" value="${Math.max(0, x[k])}" data-series="${k}"></meter>
<span class="n">${num(x[k])}</span></div>`,
)}</div>`;
}

function timeline(u: Usage): Html {
  const b = u.timeline.buckets;
  if (b.length === 0) return html``;
  const width = span(u.timeline.bucketMs);
  const data = {
    bucket: u.timeline.bucketMs / 1000,
    t: b.map((x) => Math.floor(x.t / 1000)),
    ...Object.fromEntries(SERIES.map(([name, k]) => [name, b.map((x) => x[k])])),
  };
  // JSON inside <script type="application/json"> is data, not code; "<" is escaped so it cannot end the element.
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  const chart =
    b.length === 1
      ? oneBucket(b[0]!, width)
      : html`<div class="chart" data-chart="timeline-data" role="img" aria-label="Chart of baseline, receipt, retrieved, net saved and stored tokens over time">
<p class="note">The chart needs the page script; the same numbers are in the table below.</p></div>
<script type="application/json" id="timeline-data">${raw(json)}</script>`;
  return html`<h3>Over time</h3>
<p class="how">Tokens per ${width} (UTC), by when each capture was stored; what was later retrieved from a capture is charged to
its bucket, so the buckets add up to the totals above.${b.length === 1 ? ` All captures so far fall in one ${width}: bars, not a line.` : ""}</p>
${chart}
<details${b.length === 1 ? html` open` : ""}><summary>Table of the chart (${num(b.length)} row${b.length === 1 ? "" : "s"}${b.length > 200 ? ", the latest 200 shown" : ""})</summary><div class="scroll"><table>
<thead><tr><th scope="col">from</th><th class="n" scope="col">captures</th>${SERIES.map(([, , label]) => html`<th class="n" scope="col">${label}</th>`)}</tr></thead><tbody>
${b
  .slice(-200)
  .reverse()
  .map(
    (x) =>
      html`<tr><td>${when(x.t)}</td><td class="n">${num(x.captures)}</td>${SERIES.map(([, k]) => html`<td class="n">${num(x[k])}</td>`)}</tr>`,
  )}</tbody></table></div></details>`;
}

/** The CLI command that prints the same numbers. */
function command(f: Filters): string {
  const flags = Object.entries(f)
    .filter(([, v]) => v)
    .map(([k, v]) => ` --${k} ${/^[\w./:-]+$/.test(v!) ? v : JSON.stringify(v)}`);
  return `pi-sidecar stats${flags.join("")} --json`;
}

/** How the baselines were taken, in words: "pi 0.87.1's own cut of bash (...) for 3 captures". */
function baselineRules(s: EngineStats): Html {
  if (s.baselines.length === 0) return html``;
  return html` Baselines: ${s.baselines
    .slice(0, 4)
    .map((b) => `${b.rule} for ${num(b.captures)} capture${b.captures === 1 ? "" : "s"}`)
    .join("; ")}${s.baselines.length > 4 ? "; ..." : ""}.`;
}

/** The read cache's and pruning's savings: their own cards, never added into the captures' net. */
function ownLines(s: EngineStats): Html {
  const r = s.readcache;
  const p = s.pruning;
  return html`<h3>Saved beside the captures</h3><div class="cards">
${card(
  "Read cache saved",
  "readcacheSavedTokens",
  r.savedTokens,
  html`${num(r.reads)} reads answered from the cache ("unchanged" or a diff): ${num(r.builtInTokens)} tokens pi's read would have sent −
${num(r.sentTokens)} sent. <a href="/readcache">Read cache</a>.`,
)}
${card(
  "Pruning saves per request",
  "pruningSavedPerRequest",
  p.savedPerRequest,
  html`${num(p.results)} results replaced by pointers in ${num(p.batches)} batches: ${num(p.tokensBefore)} → ${num(p.tokensAfter)} tokens
on every later request${p.larger > 0 ? `; ${num(p.larger)} pointers larger than their result count 0` : ""}; rehydrating cost
${num(p.retrievedTokens)}. <a href="/pruning">Pruning</a>.`,
)}
</div>`;
}

export function overviewBody(s: EngineStats, u: Usage, f: Filters): Html {
  const t = s.totals;
  const filtered = Object.values(f).some(Boolean);
  const scope = filtered
    ? html`Filtered: ${Object.entries(f)
        .filter(([, v]) => v)
        .map(([k, v]) => `${k} = ${v}`)
        .join(", ")}.`
    : html`All sessions and projects.`;
  const unknown =
    t.unknownBaselines > 0
      ? html` ${num(t.unknownBaselines)} capture${t.unknownBaselines === 1 ? "" : "s"} stored before baselines were kept count 0 here (never guessed).`
      : html``;
  const cards = html`<div class="cards">
${card(
  "What the hosts would have sent",
  "baselineTokens",
  t.baselineTokens,
  html`The baseline of ${num(t.captures)} capture${t.captures === 1 ? "" : "s"}: what each host would have put in the model's context by itself, cut as it
cuts (pi's bash keeps the last 2,000 lines or 50 KB), counted with ${s.tokenizer}.${baselineRules(s)}${unknown}`,
)}
${card(
  "Sent as receipts",
  "receiptTokens",
  t.receiptTokens,
  html`What the model was shown instead of those captures: their receipts, counted with ${s.tokenizer}.`,
)}
${card(
  "Retrieved",
  "retrievedTokens",
  t.retrievedTokens,
  html`Returned ${num(t.retrievals)} time${t.retrievals === 1 ? "" : "s"} by searches and gets, counted with ${s.tokenizer}; each part is charged to the capture it came
from. ${num(u.receiptOnly)} of ${num(t.captures)} capture${t.captures === 1 ? "" : "s"} ${u.receiptOnly === 1 ? "was" : "were"} never returned: their receipt was all the model saw.`,
)}
${card(
  "Net saved",
  "netSavedTokens",
  t.netSavedTokens,
  html`baseline − receipts − retrieved = ${num(t.baselineTokens)} − ${num(t.receiptTokens)} − ${num(t.retrievedTokens)}, the subtraction
<code>pi-sidecar stats</code> makes.${t.netSavedTokens < 0 ? " Negative: receipts and retrieval cost more than what the hosts would have sent." : ""}`,
)}
${card(
  "Tokens stored",
  "storedTokens",
  t.storedTokens,
  html`The whole outputs, each counted with ${s.tokenizer} (a text captured twice counts twice; the database holds
${num(s.database.blobs)} distinct texts, ${bytes(s.database.uniqueBytes)}). Beside the saving, not part of it: the hosts would not
have sent all of it.`,
)}
</div>`;
  return html`<h2>Overview</h2>
${filterForm("/", f, ["session", "tool", "project", "source"])}
<p class="note">${scope} Counted from the database by the engine, as <code>${command(f)}</code> does
(<a href="${href("/api/stats", f)}">the same JSON</a>). The read cache's and pruning's savings are their own cards below, not
added to the captures' net; not counted anywhere: the tokens the model spent on deciding to call the tools.</p>
${cards}
${ownLines(s)}
${pendingLine(u)}
${timeline(u)}
${tallyTable(
  "By tool",
  "tool",
  s.byTool.map((x) => ({ name: sourcesLink("tool", x.tool), t: x })),
)}
${tallyTable(
  "By session (latest 20)",
  "session",
  s.bySession.map((x) => ({
    name: x.session === null ? "(none)" : html`<a href="${href("/", { ...f, session: x.session })}">${x.session}</a>`,
    t: x,
  })),
)}
${tallyTable(
  "By project",
  "project",
  u.byProject.map((x) => ({ name: html`<a href="${href("/", { ...f, project: x.project })}">${x.project}</a>`, t: x })),
)}
${tallyTable(
  "Recent captures",
  "source",
  s.recent.map((x) => ({
    name: html`<a href="/sources/${encodeURIComponent(x.sourceId)}">${x.sourceId}</a> ${x.tool} ${x.label ?? ""}`,
    t: x,
  })),
)}
<p class="how">Database ${s.database.path}: ${bytes(s.database.fileBytes)} (+ ${bytes(s.database.walBytes)} WAL), ${num(s.database.chunks)} chunks.</p>`;
}
