/**
 * Sources: the list (with the filters of `pi-sidecar list`), search with the engine that answers
 * context_search (the answer shown exactly as the model reads it), and one source's exact text
 * with line numbers, a link per line and per chunk.
 */
import type { GetAnswer, SearchAnswer, SourceInfo } from "../../../store/index.ts";
import { bytes, type Html, href, html, num, when } from "../html.ts";
import { dangerForm, empty, type Filters, filterForm, problem } from "./parts.ts";

export type SearchView = { query: string; answer: SearchAnswer | null; failure: string | null; ms: number };

const sourceHref = (id: string, lines?: { from: number; to: number }, line?: number) =>
  `${href(`/sources/${encodeURIComponent(id)}`, { lines: lines ? `${lines.from}-${lines.to}` : undefined })}${line ? `#L${line}` : ""}`;

function searchResult(v: SearchView): Html {
  if (v.failure) return problem("Search failed", v.failure);
  const a = v.answer!;
  const corrections = Object.entries(a.corrections);
  return html`<section aria-label="Search result" id="search-result">
<p class="note">Mode: <strong>${a.mode}</strong>${corrections.length > 0 ? html`, corrected ${corrections.map(([x, y]) => `${x} → ${y}`).join(", ")}` : ""};
${num(a.hits.length)} hit${a.hits.length === 1 ? "" : "s"}${a.omitted > 0 ? html`, ${num(a.omitted)} more not shown` : ""}; ${v.ms.toFixed(1)} ms.
The search from this page is not logged as a retrieval.</p>
<h3>As the model reads it (context_search's answer)</h3>
<pre data-testid="model-view">${a.text}</pre>
${
  a.hits.length > 0
    ? html`<h3>Hits</h3><ol>${a.hits.map((h) => {
        const first = h.lines.find((l) => l.match)?.line ?? h.lineStart;
        return html`<li><a href="${sourceHref(h.sourceId, { from: h.lineStart, to: h.lineEnd }, first)}">${h.sourceId} lines ${h.lineStart}-${h.lineEnd}</a>
(${h.tool}, chunk ${h.chunk} of ${h.chunks}${h.title ? `, ${h.title}` : ""})</li>`;
      })}</ol>`
    : ""
}</section>`;
}

export function sourcesBody(list: SourceInfo[], f: Filters, limit: number, search: SearchView | null): Html {
  const searchBox = html`<form class="filters" method="get" action="/sources" role="search" aria-label="Search the sources">
<label>search<input type="search" name="q" value="${search?.query ?? ""}" placeholder="words, identifiers, paths" aria-keyshortcuts="/"></label>
${(["tool", "session", "project"] as const).map((k) => (f[k] ? html`<input type="hidden" name="${k}" value="${f[k]}">` : ""))}
<button type="submit">Search</button></form>`;
  const rows = list.map(
    (s) => html`<tr><td><a href="${sourceHref(s.sourceId)}">${s.sourceId}</a></td><td>${s.tool}</td><td>${s.label ?? ""}</td>
<td>${s.session ?? "(none)"}</td><td>${s.project}</td><td>${when(s.createdAt)}</td><td class="n">${bytes(s.bytes)}</td>
<td class="n">${num(s.lines)}</td><td class="n">${num(s.tokens)}</td><td class="n">${num(s.redactions)}</td></tr>`,
  );
  return html`<h2>Sources</h2>
${searchBox}
${search ? searchResult(search) : ""}
<h3>Stored sources</h3>
${filterForm("/sources", f, ["tool", "session", "project"], html`<label>rows<input name="limit" value="${limit}" size="4" inputmode="numeric"></label>`)}
${
  list.length === 0
    ? empty("No sources match. Output is stored when a tool's result is too big for the context (or with pi-sidecar capture).")
    : html`<div class="scroll"><table><thead><tr><th scope="col">source</th><th scope="col">tool</th><th scope="col">label</th>
<th scope="col">session</th><th scope="col">project</th><th scope="col">stored (UTC)</th><th class="n" scope="col">size</th>
<th class="n" scope="col">lines</th><th class="n" scope="col">tokens</th><th class="n" scope="col">redactions</th></tr></thead>
<tbody>${rows}</tbody></table></div><p class="how">Newest first, at most ${num(limit)} rows.</p>`
}`;
}

export function sourceBody(info: SourceInfo | null, got: GetAnswer): Html {
  const lines = got.text.split("\n");
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  const from = got.lineStart;
  const id = got.sourceId;
  const prev = from > 1 ? { from: Math.max(1, from - (got.lineEnd - from + 1)), to: from - 1 } : null;
  const next =
    got.lineEnd < got.totalLines ? { from: got.lineEnd + 1, to: Math.min(got.totalLines, got.lineEnd + (got.lineEnd - from + 1)) } : null;
  const paging = (
    top: boolean,
  ) => html`<p class="note">Lines ${num(from)}-${num(got.lineEnd)} of ${num(got.totalLines)}${got.truncated ? " (cut at the page's size)" : ""}.
${prev ? html`<a href="${sourceHref(id, prev)}">previous lines</a>` : ""} ${next ? html`<a href="${sourceHref(id, next)}">next lines</a>` : ""}
${top ? html`<a id="range-link" hidden href="#"></a>` : ""}</p>`;
  return html`<h2>Source ${id}</h2>
<p class="note">${got.tool}${
    info
      ? html`, ${info.label ?? "no label"}, session ${info.session ?? "(none)"}, project ${info.project}, stored ${when(info.createdAt)},
${bytes(info.bytes)}, ${num(info.tokens)} tokens, ${num(info.redactions)} redactions`
      : ""
  }. ${num(got.totalChunks)} chunks, ${num(got.totalLines)} lines.
The exact stored text (after redaction); click a line number for its link, shift-click another for a range.
Reading it here is not logged as a retrieval.</p>
<div class="scroll"><table><thead><tr><th scope="col">chunk</th><th scope="col">lines</th><th scope="col">title</th></tr></thead><tbody>
${got.chunks.map(
  (
    c,
  ) => html`<tr><td class="n">${c.chunk}</td><td><a href="${sourceHref(id, { from: c.lineStart, to: c.lineEnd }, c.lineStart)}">${c.lineStart}-${c.lineEnd}</a></td>
<td>${c.title}</td></tr>`,
)}</tbody></table></div>
${paging(true)}
<div class="lines" aria-label="Text of ${id}">${lines.map(
    (text, i) =>
      html`<div id="L${from + i}"><a href="#L${from + i}" data-line="${from + i}" aria-label="line ${from + i}">${from + i}</a><span>${text}</span></div>`,
  )}</div>
${paging(false)}
<h3>Delete</h3>
${dangerForm("/api/purge", { source: id }, `Purge ${id}`, "/sources")}<p id="action-status" class="status" role="status"></p>`;
}
