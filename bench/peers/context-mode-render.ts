/**
 * Renders context-mode search results the way its ctx_search tool shows them to a model.
 * Written from observed behaviour of context-mode 1.0.169 (facts, not its code):
 * - a chunk of at most 1,500 characters is shown whole;
 * - otherwise windows of ±300 characters around each match (FTS5 highlight markers \x02…\x03 in
 *   the stored text, else case-insensitive occurrences of query words longer than 2 characters),
 *   overlapping windows merged, taken in order until 1,500 characters are shown, "…" marking cut
 *   edges, windows separated by a blank line; no match at all shows the first 1,500 characters;
 * - each hit is `--- [origin | YYYY-MM-DD HH:MM | label] ---`, `### title`, blank line, snippet;
 *   hits are separated by a blank line, under a `## query` heading.
 * Runs inside the worker (Node or Bun), so it imports nothing.
 */

export const SNIPPET_MAX_CHARS = 1500;
export const SNIPPET_HALF_WINDOW = 300;

const MARK_OPEN = "\x02";
const MARK_CLOSE = "\x03";

export type StoreResult = {
  title: string;
  content: string;
  source: string;
  timestamp?: string;
  highlighted?: string;
  matchLayer?: string;
};

/** Offsets, in the unmarked text, where each highlighted match starts. */
function markedOffsets(highlighted: string): number[] {
  const offsets: number[] = [];
  let markers = 0;
  for (let open = highlighted.indexOf(MARK_OPEN); open !== -1; ) {
    offsets.push(open - markers);
    const close = highlighted.indexOf(MARK_CLOSE, open + 1);
    markers += close === -1 ? 1 : 2;
    if (close === -1) break;
    open = highlighted.indexOf(MARK_OPEN, close + 1);
  }
  return offsets;
}

function wordOffsets(content: string, query: string): number[] {
  const lower = content.toLowerCase();
  const offsets: number[] = [];
  for (const word of query.toLowerCase().split(/\s+/)) {
    if (word.length <= 2) continue;
    for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1)) offsets.push(at);
  }
  return offsets;
}

export function renderSnippet(content: string, query: string, highlighted?: string): string {
  if (content.length <= SNIPPET_MAX_CHARS) return content;
  let offsets = highlighted ? markedOffsets(highlighted) : [];
  if (offsets.length === 0) offsets = wordOffsets(content, query);
  if (offsets.length === 0) return `${content.slice(0, SNIPPET_MAX_CHARS)}\n…`;
  offsets.sort((a, b) => a - b);
  const spans: Array<{ from: number; to: number }> = [];
  for (const at of offsets) {
    const from = Math.max(0, at - SNIPPET_HALF_WINDOW);
    const to = Math.min(content.length, at + SNIPPET_HALF_WINDOW);
    const last = spans.at(-1);
    if (last && from <= last.to) last.to = to;
    else spans.push({ from, to });
  }
  const parts: string[] = [];
  let shown = 0;
  for (const span of spans) {
    if (shown >= SNIPPET_MAX_CHARS) break;
    const text = content.slice(span.from, Math.min(span.to, span.from + SNIPPET_MAX_CHARS - shown));
    parts.push(`${span.from > 0 ? "…" : ""}${text}${span.to < content.length ? "…" : ""}`);
    shown += text.length;
  }
  return parts.join("\n\n");
}

export type RenderedHit = { text: string; title: string; source: string; block: string };

export function renderHit(result: StoreResult, query: string): RenderedHit {
  const when = result.timestamp ? ` | ${result.timestamp.slice(0, 16).replace("T", " ")}` : "";
  const text = renderSnippet(result.content, query, result.highlighted);
  const block = `--- [current-session${when} | ${result.source}] ---\n### ${result.title}\n\n${text}`;
  return { text, title: result.title, source: result.source, block };
}

/** The text of one query's section of a ctx_search answer (its per-call throttle footer is left out). */
export function renderAnswer(query: string, hits: RenderedHit[]): string {
  if (hits.length === 0) return `## ${query}\nNo results found.`;
  return `## ${query}\n\n${hits.map((h) => h.block).join("\n\n")}`;
}
