/**
 * One hit being laid out: the rows it shows (its matches, the rows that name their record, what
 * it grows into), each row as shown (cut around its match), and the bytes the hit takes, measured
 * without building its text while render.ts decides what fits.
 */
import type { NextCalls } from "../next-calls.ts";
import { clipAround } from "./clip.ts";
import { withFields } from "./fields-text.ts";
import type { HitLine, SourcedWindow } from "./hit.ts";
import { titleFor } from "./hit-title.ts";
import { jsonRecord } from "./json.ts";
import { MAX_RECORD, recordsOf } from "./structure.ts";

export const MATCH_WIDTH = 320;
const CONTEXT_WIDTH = 160;
/** Rows left out between two shown ones are shown after all when there are this few. */
const FILL = 2;
/** A record is the hit's own when its first match is at most this many rows into it. */
const OUTER_HEAD = 2;
/** A record longer than MAX_RECORD is still grown towards its end, up to this many rows. */
const LONG_RECORD = 120;

type Place = { at: number; end: number; spans?: [number, number][]; path?: string };
export type Draft = {
  w: SourcedWindow;
  match: Map<number, Place>;
  shown: Set<number>;
  /** Rows that show the record, in the order they are added. */
  growth: number[];
  /** Rows to the end of the larger records around the last match, added after the nearest context. */
  outer: number[];
  /** The first row of the outermost record (by indentation) the first match is in. */
  top: number;
  title: string;
  /** The hit shows a whole JSON record, which is its context (lines of the next record would mislead). */
  record: boolean;
  /** Each row as shown (cut around its match), and its bytes, once computed. */
  texts: Map<number, string>;
  bytes: Map<number, number>;
  /** Matched rows shown wider than MATCH_WIDTH. */
  widths: Map<number, number>;
  /** Whether another hit of the same text shows the row (a line is never shown twice). */
  taken: (row: number) => boolean;
  /** Changes to what the draft shows (rows, widths), and its size as last measured. */
  edits: number;
  sized: { edits: number; owners: number; index: number; bytes: number } | null;
  /** The bytes of what the rows shown do not change (the header but for its numbers, the "+N more" line), for its window. */
  fixed: { w: SourcedWindow; head: number; more: number } | null;
};

export function draft(w: SourcedWindow): Draft {
  const match = new Map<number, Place>(
    w.matches.map((m) => [m.row, { at: m.at, end: m.end, ...(m.names ? { spans: m.names.spans(), path: m.names.path() } : {}) }]),
  );
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
  const last = Math.max(...match.keys());
  if (w.record) {
    const [a, b] = w.record;
    const firstMatch = Math.min(...match.keys());
    for (let r = last + 1; r <= b; r++) growth.push(r);
    for (let r = a; r < firstMatch; r++) growth.push(r);
  }
  // Then on to the end of each larger record around the last match (the lines a test's body owns,
  // then its section with the error at its end), as far as the bytes allow.
  // Only records the hit starts (the match is their head: a heading, a definition, a stanza's first line).
  const outer: number[] = [];
  const head = Math.min(...match.keys());
  let end = Math.max(last, w.record?.[1] ?? last);
  for (const [a, b] of recordsOf(s, last, LONG_RECORD)) {
    if (head - a > OUTER_HEAD) continue;
    for (let r = end + 1; r <= b; r++) outer.push(r);
    end = Math.max(end, b);
  }
  // The first row of the record the first match is in: up its owners to one under none.
  let top = head;
  while (s.owner[top]! >= 0) top = s.owner[top]!;
  return {
    w,
    match,
    shown,
    growth,
    outer,
    top,
    title: titleFor(w, w.matches[0]!.row),
    record,
    texts: new Map(),
    bytes: new Map(),
    widths: new Map(),
    taken: () => false,
    edits: 0,
    sized: null,
    fixed: null,
  };
}

/** The rows a draft shows, in order: its shown rows, and the few rows between two of them. */
function layout(d: Draft): number[] {
  const n = d.w.region.rows.length;
  // Sorted as they are taken (a hit shows tens of rows, mostly added in order); rows outside the text are left out.
  const sorted: number[] = [];
  for (const r of d.shown) {
    if (r < 0 || r >= n) continue;
    let k = sorted.length;
    sorted.push(r);
    while (k > 0 && sorted[k - 1]! > r) {
      sorted[k] = sorted[k - 1]!;
      k--;
    }
    sorted[k] = r;
  }
  const out: number[] = [];
  for (const r of sorted) {
    const prev = out.length > 0 ? out[out.length - 1] : undefined;
    if (prev !== undefined && r - prev - 1 <= FILL && !hasTaken(d, prev + 1, r)) for (let k = prev + 1; k < r; k++) out.push(k);
    out.push(r);
  }
  return out;
}

/** Whether another hit shows a row strictly between `from` and `to`. */
function hasTaken(d: Draft, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (d.taken(k)) return true;
  return false;
}

/** A row as shown: cut around its match, or to the context width. */
function rowText(d: Draft, r: number): string {
  let text = d.texts.get(r);
  if (text === undefined) {
    const m = d.match.get(r);
    const row = d.w.region.rows[r]!;
    text = !m
      ? clipAround(row, 0, CONTEXT_WIDTH)
      : m.spans && m.spans.length > 0
        ? withFields(row, m.at, m.end, m.spans, MATCH_WIDTH, CONTEXT_WIDTH)
        : clipAround(row, m.at, d.widths.get(r) ?? MATCH_WIDTH, m.end);
    d.texts.set(r, text);
  }
  return text;
}

function rowBytes(d: Draft, r: number): number {
  let bytes = d.bytes.get(r);
  if (bytes === undefined) {
    bytes = Buffer.byteLength(rowText(d, r));
    d.bytes.set(r, bytes);
  }
  return bytes;
}

/** Whether row r (not shown) is shown anyway, as one of the few rows between two shown ones (layout). */
function filledIn(d: Draft, r: number): boolean {
  let prev = -1;
  for (let k = r - 1; k >= Math.max(0, r - FILL); k--) {
    if (d.shown.has(k)) {
      prev = k;
      break;
    }
  }
  if (prev < 0) return false;
  const n = d.w.region.rows.length;
  for (let k = r + 1; k < n && k <= prev + FILL + 1; k++) if (d.shown.has(k)) return !hasTaken(d, prev + 1, k);
  return false;
}

/**
 * At least how many bytes showing row r (in the text, not shown, not taken) adds to what `measure`
 * says, without laying the hit out again: nothing for a row shown already between two others;
 * for any other, its own line (at least leastRowBytes), numbered at least as wide as its line number. No line or `…` goes
 * away for it, and the header's first line number loses at most one digit unless a `…` is added.
 */
export function leastGrowth(d: Draft, r: number): number {
  if (filledIn(d, r)) return 0;
  return decimalWidth(d.w.region.first + r) + 2 + leastRowBytes(d, r);
}

/** No more than rowBytes(d, r), without cutting the row: a row not matched shows all of it, or CONTEXT_WIDTH characters of it (each a byte or more). */
function leastRowBytes(d: Draft, r: number): number {
  const known = d.bytes.get(r);
  if (known !== undefined) return known;
  if (d.match.has(r)) return rowBytes(d, r);
  const row = d.w.region.rows[r]!;
  return Math.min(row.endsWith("\r") ? row.length - 1 : row.length, CONTEXT_WIDTH);
}

/** A matched row shown `width` wide (undefined: as wide as a match is). */
export function setWidth(d: Draft, r: number, width: number | undefined): void {
  if (width === undefined) d.widths.delete(r);
  else d.widths.set(r, width);
  d.texts.delete(r);
  d.bytes.delete(r);
  d.edits++;
}

/** How many characters an integer takes written out (`String(n).length`), without writing it. */
export function decimalWidth(n: number): number {
  if (n < 0) return 1 + decimalWidth(-n);
  let width = 1;
  for (let k = n; k >= 10; k = Math.floor(k / 10)) width++;
  return width;
}

const where = (from: number, to: number) => (from === to ? `line ${from}` : `lines ${from}-${to}`);
const titled = (d: Draft) => (d.title ? ` — ${d.title}` : "");

function header(d: Draft, index: number, from: number, to: number): string {
  return `[${index}] ${d.w.sourceId} (${d.w.tool}) ${where(from, to)}${titled(d)}`;
}

/** A draft's bytes that its rows do not change, measured once per window. */
function fixedBytes(d: Draft, calls: NextCalls): { head: number; more: number } {
  if (d.fixed?.w !== d.w) {
    const more = moreLine(d, calls);
    d.fixed = {
      w: d.w,
      head: Buffer.byteLength(`] ${d.w.sourceId} (${d.w.tool}) ${titled(d)}`),
      more: more ? Buffer.byteLength(more) + 1 : 0,
    };
  }
  return d.fixed;
}

function moreLine(d: Draft, calls: NextCalls): string | null {
  if (d.w.more <= 0) return null;
  const c = d.w.chunk;
  return `(+${d.w.more} more matching line${d.w.more === 1 ? "" : "s"} nearby: ${calls.lines(d.w.sourceId, c.line_start, c.line_end)})`;
}

export function renderDraft(d: Draft, index: number, calls: NextCalls): { text: string; lines: HitLine[] } {
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
export function measure(d: Draft, index: number, calls: NextCalls): number {
  const rows = layout(d);
  const first = d.w.region.first;
  const from = first + (rows[0] ?? 0);
  const to = first + (rows.at(-1) ?? 0);
  const width = decimalWidth(to);
  const fixed = fixedBytes(d, calls);
  // The header: "[index" and its fixed part, then where (ASCII digits), then its newline.
  const whereBytes = (from === to ? 5 : 7 + decimalWidth(from)) + width; // where(from, to): ASCII
  let bytes = 1 + decimalWidth(index) + fixed.head + whereBytes + 1;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    if (k > 0 && r - rows[k - 1]! > 1) bytes += width + 4 + 1; // "  …" is 2 + 3 bytes
    bytes += width + 2 + rowBytes(d, r) + 1;
  }
  return bytes + fixed.more;
}
