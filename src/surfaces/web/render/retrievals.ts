/** The retrieval log: every search and get the model (or a command) made, and how each question went. */
import type { RetrievalEntry, RetrievalPage, RetrievalQuery } from "../../../store/index.ts";
import { type Html, href, html, num, when } from "../html.ts";
import { card, empty, filterForm } from "./parts.ts";

function outcome(e: RetrievalEntry): Html {
  if (!e.firstSource) return html`nothing returned`;
  if (e.calls === 1) return html`<span data-outcome="first">answered by this call</span>`;
  if (e.nth === 1) return html`<span data-outcome="more">first of ${e.calls} calls</span>`;
  return html`<span data-outcome="more">call ${e.nth} of ${e.calls}</span>`;
}

/** Each source once, in the order first returned, with how many of the call's parts came from it ("ctx_a ×9"). */
function sourceList(ids: readonly string[]): Html {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return html`${[...counts].map(
    ([id, n], i) =>
      html`${i > 0 ? ", " : ""}<a href="/sources/${encodeURIComponent(id)}">${id}</a>${n > 1 ? html` <span class="times" data-times="${n}" title="${n} parts of this call came from it">×${n}</span>` : ""}`,
  )}`;
}

export function retrievalsBody(page: RetrievalPage, q: RetrievalQuery): Html {
  const s = page.summary;
  const groups = s.firstCall + s.moreCalls;
  const filters = { session: q.session, source: q.source, kind: q.kind };
  const rows = page.entries.map(
    (e) => html`<tr><td>${when(e.at)}</td><td>${e.kind}</td><td>${e.query ?? ""}</td><td>${e.mode ?? ""}</td>
<td class="n">${num(e.hits)}</td><td class="n">${e.tokens === null ? html`<span title="not counted yet">…</span>` : num(e.tokens)}</td>
<td>${e.session === null ? "(none)" : html`<a href="${href("/retrievals", { ...filters, session: e.session, before: undefined })}">${e.session}</a>`}</td>
<td>${sourceList(e.sources)}</td><td>${outcome(e)}</td></tr>`,
  );
  return html`<h2>Retrieval log</h2>
${filterForm(
  "/retrievals",
  { session: q.session, source: q.source },
  ["session", "source"],
  html`<label>kind<select name="kind"><option value="">any</option>${(["search", "get"] as const).map(
    (k) => html`<option${q.kind === k ? html` selected` : ""}>${k}</option>`,
  )}</select></label>`,
)}
<div class="cards">
${card("Calls", "calls", s.searches + s.gets, html`${num(s.searches)} searches and ${num(s.gets)} gets in the whole log.`)}
${card(
  "Tokens returned",
  "retrievedTokens",
  s.tokens,
  html`Counted with o200k_base${s.uncounted > 0 ? `; ${num(s.uncounted)} calls not counted yet` : ""}. The overview charges these to the captures they came from.`,
)}
${card(
  "Answered by the first call",
  "firstCall",
  s.firstCall,
  html`Of ${num(groups)} questions (calls grouped by the first source they returned, and by session where the log records one),
${num(s.firstCall)} had one call; ${num(s.moreCalls)} needed more (${num(s.moreCallsCalls)} calls in all).`,
)}
${card(
  "Receipt only",
  "receiptOnly",
  s.receiptOnly,
  html`Of ${num(s.captures)} capture${s.captures === 1 ? "" : "s"}, ${num(s.receiptOnly)} ${s.receiptOnly === 1 ? "was" : "were"} never returned by a search or get: the receipt was all the model saw
(whether it needed more, the log cannot tell).`,
)}
</div>
${
  page.entries.length === 0
    ? empty(
        "No searches or gets logged yet. They are logged when the model calls context_search or context_get (or a CLI search or get runs).",
      )
    : html`<h3>Calls, newest first</h3><div class="scroll"><table><thead><tr><th scope="col">time (UTC)</th><th scope="col">kind</th>
<th scope="col">query</th><th scope="col">mode</th><th class="n" scope="col">hits</th><th class="n" scope="col">tokens</th>
<th scope="col">session</th><th scope="col">sources</th><th scope="col">outcome</th></tr></thead><tbody>${rows}</tbody></table></div>
${page.next !== null ? html`<p><a href="${href("/retrievals", { ...filters, before: page.next })}">older calls</a></p>` : ""}`
}`;
}
