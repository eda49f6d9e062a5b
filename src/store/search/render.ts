/**
 * A hit as the model reads it: the matching lines and the lines that name their record,
 * numbered as grep does (`917: match`, `918- context`), `…` where lines are left out, long lines
 * cut around the match. Within the byte budget each hit then shows its record to the end (the
 * answer is often a few lines after the line that matched: a stanza's `Homepage:`, a collection
 * error's exception), the first hit the most, and then lines around the matches, so fewer hits
 * get more of it.
 */
import type { NextCalls } from "../next-calls.ts";
import { jsonPathAt, jsonRecord } from "./json.ts";
import { LONG_LINE } from "./score.ts";
import { MAX_RECORD } from "./structure.ts";
import type { Window } from "./windows.ts";

export type HitLine = { line: number; text: string; match: boolean };
export type Hit = {
  sourceId: string;
  tool: string;
  chunk: number;
  chunks: number;
  lineStart: number;
  lineEnd: number;
  title: string;
  score: number;
  lines: HitLine[];
  more: number;
  text: string;
};
export type SourcedWindow = Window & { sourceId: string; tool: string };

const MATCH_WIDTH = 320;
const CONTEXT_WIDTH = 160;
const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;
/** Rows left out between two shown ones are shown after all when there are this few. */
const FILL = 2;
/** What showing its record may add to a hit: the first hit, the others. */
const RECORD_BYTES = [1600, 900];

/** A line's head (its location, its name) is kept before a cut place on a line up to LONG_LINE. */
const HEAD = 60;

/** The text around position `at`, at most `max` characters, marked where it was cut. */
export function clipAround(text: string, at: number, max: number, end = at, head = true): string {
  const t = text.replace(/\r$/, "");
  if (t.length <= max) return t;
  if (head && t.length <= LONG_LINE && at > max / 2) {
    const rest = clipAround(t.slice(HEAD), at - HEAD, max - HEAD, end - HEAD, false);
    return `${t.slice(0, HEAD)}${rest.startsWith("…") ? "" : "…"}${rest}`;
  }
  // From the line's start when the place is near it (a location, a name), else from a little
  // before the place, and well past its end (a key's value follows it).
  let start = at < max / 2 ? 0 : at - Math.floor(max / 4);
  if (end + max / 4 > start + max) start = Math.min(at, Math.floor(end + max / 4 - max));
  start = Math.max(0, Math.min(start, t.length - max));
  return `${start > 0 ? "…" : ""}${t.slice(start, start + max)}${start + max < t.length ? "…" : ""}`;
}

type Draft = {
  w: SourcedWindow;
  match: Map<number, { at: number; end: number }>;
  shown: Set<number>;
  /** Rows that show the record, in the order they are added. */
  growth: number[];
  title: string;
  /** The hit shows a whole JSON record, which is its context (lines of the next record would mislead). */
  record: boolean;
  /** Each row as shown (cut around its match), once computed. */
  texts: Map<number, string>;
};

function titleFor(w: Window, row: number): string {
  const rows = w.region.rows;
  if (w.region.kind === "json") return jsonPathAt(rows, row, w.region.title);
  if (w.region.kind === "markdown") {
    for (let k = row; k >= 0; k--) {
      const h = HEADING.exec(rows[k]!);
      if (h) return h[2]!.trim();
    }
    return w.region.title.startsWith("line") ? "" : w.region.title;
  }
  return "";
}

function draft(w: SourcedWindow): Draft {
  const match = new Map(w.matches.map((m) => [m.row, { at: m.at, end: m.end }]));
  const shown = new Set<number>([...match.keys(), ...w.suppliers]);
  let record = false;
  if (w.region.kind === "json") {
    for (const m of w.matches.slice(0, 2)) {
      const rows = jsonRecord(w.region.rows, m.row);
      record ||= rows.length > 1;
      for (const r of rows) shown.add(r);
    }
  }
  // What the matched rows own (a key's list of values), then their record: to its end, then from its start.
  const growth: number[] = [];
  const s = w.region.structure;
  for (const m of match.keys()) for (let r = m + 1; r <= Math.min(s.childEnd[m]!, m + MAX_RECORD); r++) growth.push(r);
  if (w.record) {
    const [a, b] = w.record;
    const last = Math.max(...match.keys());
    const firstMatch = Math.min(...match.keys());
    for (let r = last + 1; r <= b; r++) growth.push(r);
    for (let r = a; r < firstMatch; r++) growth.push(r);
  }
  return { w, match, shown, growth, title: titleFor(w, w.matches[0]!.row), record, texts: new Map() };
}

/** The rows a draft shows, in order: its shown rows, and the few rows between two of them. */
function layout(d: Draft): number[] {
  const rows = d.w.region.rows;
  const sorted = [...d.shown].filter((r) => r >= 0 && r < rows.length).sort((a, b) => a - b);
  const out: number[] = [];
  for (const r of sorted) {
    const prev = out.at(-1);
    if (prev !== undefined && r - prev - 1 <= FILL) for (let k = prev + 1; k < r; k++) out.push(k);
    out.push(r);
  }
  return out;
}

/** A row as shown: cut around its match, or to the context width. */
function rowText(d: Draft, r: number): string {
  let text = d.texts.get(r);
  if (text === undefined) {
    const m = d.match.get(r);
    const row = d.w.region.rows[r]!;
    text = m ? clipAround(row, m.at, MATCH_WIDTH, m.end) : clipAround(row, 0, CONTEXT_WIDTH);
    d.texts.set(r, text);
  }
  return text;
}

function header(d: Draft, index: number, from: number, to: number): string {
  const where = from === to ? `line ${from}` : `lines ${from}-${to}`;
  return `[${index}] ${d.w.sourceId} (${d.w.tool}) ${where}${d.title ? ` — ${d.title}` : ""}`;
}

function moreLine(d: Draft, calls: NextCalls): string | null {
  if (d.w.more <= 0) return null;
  const c = d.w.chunk;
  return `(+${d.w.more} more matching line${d.w.more === 1 ? "" : "s"} nearby: ${calls.lines(d.w.sourceId, c.line_start, c.line_end)})`;
}

function renderDraft(d: Draft, index: number, calls: NextCalls): { text: string; lines: HitLine[] } {
  const first = d.w.region.first;
  const lines: HitLine[] = layout(d).map((r) => ({ line: first + r, text: rowText(d, r), match: d.match.has(r) }));
  const from = lines[0]?.line ?? first;
  const to = lines.at(-1)?.line ?? from;
  const width = String(to).length;
  const body: string[] = [];
  lines.forEach((l, k) => {
    if (k > 0 && l.line - lines[k - 1]!.line > 1) body.push(`${" ".repeat(width)}  …`);
    body.push(`${String(l.line).padStart(width)}${l.match ? ":" : "-"} ${l.text}`);
  });
  const more = moreLine(d, calls);
  if (more) body.push(more);
  return { text: [header(d, index, from, to), ...body].join("\n"), lines };
}

/** The bytes renderDraft's text takes, plus its newline, without building it. */
function measure(d: Draft, index: number, calls: NextCalls): number {
  const rows = layout(d);
  const first = d.w.region.first;
  const from = first + (rows[0] ?? 0);
  const to = first + (rows.at(-1) ?? 0);
  const width = String(to).length;
  let bytes = Buffer.byteLength(header(d, index, from, to)) + 1;
  rows.forEach((r, k) => {
    if (k > 0 && r - rows[k - 1]! > 1) bytes += width + 4 + 1; // "  …" is 2 + 3 bytes
    bytes += width + 2 + Buffer.byteLength(rowText(d, r)) + 1;
  });
  const more = moreLine(d, calls);
  return more ? bytes + Buffer.byteLength(more) + 1 : bytes;
}

/** Renders the windows within `budget` bytes: hits that do not fit are dropped (counted), the rest get context. */
export function renderHits(windows: SourcedWindow[], budget: number, calls: NextCalls): { hits: Hit[]; omitted: number } {
  const drafts = windows.map(draft);
  const size = (d: Draft, i: number) => measure(d, i + 1, calls);
  let kept = drafts;
  while (kept.length > 1 && kept.reduce((s, d, i) => s + size(d, i), 0) > budget) kept = kept.slice(0, -1);
  let total = kept.reduce((s, d, i) => s + size(d, i), 0);
  /** Shows row r in draft i when it fits the budget (and `cap`, what the draft may still grow by). */
  const tryAdd = (d: Draft, i: number, r: number, cap = Number.POSITIVE_INFINITY): boolean => {
    if (r < 0 || r >= d.w.region.rows.length || d.shown.has(r)) return false;
    const old = size(d, i);
    d.shown.add(r);
    const grown = size(d, i);
    if (total - old + grown > budget || grown - old > cap) {
      d.shown.delete(r);
      return false;
    }
    total += grown - old;
    return true;
  };
  // The records, to their end, best hit first.
  for (const [i, d] of kept.entries()) {
    const start = size(d, i);
    const cap = RECORD_BYTES[Math.min(i, RECORD_BYTES.length - 1)]!;
    for (const r of d.growth) if (!d.shown.has(r) && !tryAdd(d, i, r, cap - (size(d, i) - start))) break;
  }
  // Context for neighbouring answers: a few lines each side of the matches, more when there are fewer hits.
  const maxContext = kept.length <= 1 ? 6 : kept.length === 2 ? 5 : 4;
  for (let step = 1; step <= maxContext; step++) {
    for (const [i, d] of kept.entries()) {
      if (d.record) continue;
      for (const m of d.match.keys()) {
        tryAdd(d, i, m - step);
        tryAdd(d, i, m + step);
      }
    }
  }
  const hits = kept.map((d, i) => {
    const r = renderDraft(d, i + 1, calls);
    return {
      sourceId: d.w.sourceId,
      tool: d.w.tool,
      chunk: d.w.chunk.ordinal,
      chunks: d.w.chunk.chunk_count,
      lineStart: r.lines[0]?.line ?? d.w.chunk.line_start,
      lineEnd: r.lines.at(-1)?.line ?? d.w.chunk.line_end,
      title: d.title,
      score: d.w.score,
      lines: r.lines,
      more: d.w.more,
      text: r.text,
    };
  });
  return { hits, omitted: windows.length - kept.length };
}
