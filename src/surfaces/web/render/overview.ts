/**
 * The overview: the four numbers `pi-sidecar stats` prints, each with how it was derived, the
 * same numbers by tool, session and project, and over time. Every figure comes from the engine's
 * stats and usage, with the filters of `stats` (session, tool, project, source).
 */
import type { Stats } from "../../../store/stats.ts";
import type { Usage } from "../../../store/usage.ts";
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

function timeline(u: Usage): Html {
  const b = u.timeline.buckets;
  if (b.length === 0) return html``;
  const data = {
    bucket: u.timeline.bucketMs / 1000,
    t: b.map((x) => Math.floor(x.t / 1000)),
    stored: b.map((x) => x.storedTokens),
    receipts: b.map((x) => x.receiptTokens),
    retrieved: b.map((x) => x.retrievedTokens),
    net: b.map((x) => x.netSavedTokens),
  };
  const width = span(u.timeline.bucketMs);
  // JSON inside <script type="application/json"> is data, not code; "<" is escaped so it cannot end the element.
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return html`<h3>Over time</h3>
<p class="how">Tokens per ${width} (UTC), by when each capture was stored; what was later retrieved from a capture is charged to
its bucket, so the buckets add up to the totals above.</p>
<div class="chart" data-chart="timeline-data" role="img" aria-label="Chart of stored, receipt, retrieved and net saved tokens over time">
<p class="note">The chart needs the page script; the same numbers are in the table below.</p></div>
<script type="application/json" id="timeline-data">${raw(json)}</script>
<details><summary>Table of the chart (${num(b.length)} row${b.length === 1 ? "" : "s"}${b.length > 200 ? ", the latest 200 shown" : ""})</summary><div class="scroll"><table>
<thead><tr><th scope="col">from</th><th class="n" scope="col">captures</th><th class="n" scope="col">stored</th><th class="n" scope="col">receipts</th>
<th class="n" scope="col">retrieved</th><th class="n" scope="col">net saved</th></tr></thead><tbody>
${b
  .slice(-200)
  .reverse()
  .map(
    (x) => html`<tr><td>${when(x.t)}</td><td class="n">${num(x.captures)}</td><td class="n">${num(x.storedTokens)}</td>
<td class="n">${num(x.receiptTokens)}</td><td class="n">${num(x.retrievedTokens)}</td><td class="n">${num(x.netSavedTokens)}</td></tr>`,
  )}</tbody></table></div></details>`;
}

/** The CLI command that prints the same numbers. */
function command(f: Filters): string {
  const flags = Object.entries(f)
    .filter(([, v]) => v)
    .map(([k, v]) => ` --${k} ${/^[\w./:-]+$/.test(v!) ? v : JSON.stringify(v)}`);
  return `pi-sidecar stats${flags.join("")} --json`;
}

export function overviewBody(s: Stats, u: Usage, f: Filters): Html {
  const t = s.totals;
  const filtered = Object.values(f).some(Boolean);
  const scope = filtered
    ? html`Filtered: ${Object.entries(f)
        .filter(([, v]) => v)
        .map(([k, v]) => `${k} = ${v}`)
        .join(", ")}.`
    : html`All sessions and projects.`;
  const cards = html`<div class="cards">
${card(
  "Tokens stored",
  "storedTokens",
  t.storedTokens,
  html`${num(t.captures)} captures, each counted whole with ${s.tokenizer} (a text captured twice counts twice; the database
holds ${num(s.database.blobs)} distinct texts, ${bytes(s.database.uniqueBytes)}).`,
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
  html`Returned ${num(t.retrievals)} times by searches and gets, counted with ${s.tokenizer}; each part is charged to the capture it came
from. ${num(u.receiptOnly)} of ${num(t.captures)} captures were never returned: their receipt was all the model saw.`,
)}
${card(
  "Net saved",
  "netSavedTokens",
  t.netSavedTokens,
  html`stored − receipts − retrieved = ${num(t.storedTokens)} − ${num(t.receiptTokens)} − ${num(t.retrievedTokens)}, the subtraction
<code>pi-sidecar stats</code> makes.${t.netSavedTokens < 0 ? " Negative: receipts and retrieval cost more than the text they stand for." : ""}`,
)}
</div>`;
  return html`<h2>Overview</h2>
${filterForm("/", f, ["session", "tool", "project", "source"])}
<p class="note">${scope} Counted from the database by the engine, as <code>${command(f)}</code> does
(<a href="${href("/api/stats", f)}">the same JSON</a>). Not counted here: what the read cache and pruning saved (their own panels)
and the tokens the model spent on deciding to call the tools.</p>
${cards}
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
