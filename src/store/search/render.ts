/**
 * A hit as the model reads it: the matching lines and the lines that name their record,
 * numbered as grep does (`917: match`, `918- context`), `…` where lines are left out, long lines
 * cut around the match. Within the byte budget each hit then shows its record to the end (the
 * answer is often a few lines after the line that matched: a stanza's `Homepage:`, a collection
 * error's exception), the first hit the most, and then lines around the matches, so fewer hits
 * get more of it.
 */
import type { NextCalls } from "../next-calls.ts";
import { clipAround } from "./clip.ts";
import { withFields } from "./fields-text.ts";
import type { Hit, HitLine, SourcedWindow } from "./hit.ts";
import { titleFor } from "./hit-title.ts";
import { jsonRecord } from "./json.ts";
import { MAX_RECORD, recordsOf } from "./structure.ts";

const MATCH_WIDTH = 320;
const CONTEXT_WIDTH = 160;
/** Rows left out between two shown ones are shown after all when there are this few. */
const FILL = 2;
/** What showing its record may add to a hit: the first hit, the others. */
const RECORD_BYTES = [1600, 900];
/** What growing into the larger records around a hit may add (the rest goes to lines on both sides). */
const OUTER_BYTES = [1600, 900];
/** A record is the hit's own when its first match is at most this many rows into it. */
const OUTER_HEAD = 2;
/** A matched long line is shown up to this wide when the budget allows (an NDJSON record is one line). */
const WIDE_MATCH = 1000;
/** Lines around the matches are added while the answer is under this size (the answer's tail often follows). */
const FILL_TARGET = 1700;
const MAX_FILL_STEPS = 16;
/** A record longer than MAX_RECORD is still grown towards its end, up to this many rows. */
const LONG_RECORD = 120;

type Place = { at: number; end: number; spans?: [number, number][]; path?: string };
type Draft = {
  w: SourcedWindow;
  match: Map<number, Place>;
  shown: Set<number>;
  /** Rows that show the record, in the order they are added. */
  growth: number[];
  /** Rows to the end of the larger records around the last match, added after the nearest context. */
  outer: number[];
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

function draft(w: SourcedWindow): Draft {
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
  return {
    w,
    match,
    shown,
    growth,
    outer,
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

const PAST = 0x7fffffff;

/** The rows a draft shows, in order: its shown rows, and the few rows between two of them. */
function layout(d: Draft): number[] {
  const n = d.w.region.rows.length;
  // A typed array sorts numerically without a comparator; rows past the text sort last, and end it.
  const sorted = new Int32Array(d.shown.size);
  let at = 0;
  d.shown.forEach((r) => {
    sorted[at++] = r >= 0 && r < n ? r : PAST;
  });
  sorted.sort();
  const out: number[] = [];
  for (let i = 0; i < sorted.length && sorted[i] !== PAST; i++) {
    const r = sorted[i]!;
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

/** A matched row shown `width` wide (undefined: as wide as a match is). */
function setWidth(d: Draft, r: number, width: number | undefined): void {
  if (width === undefined) d.widths.delete(r);
  else d.widths.set(r, width);
  d.texts.delete(r);
  d.bytes.delete(r);
  d.edits++;
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
  const fixed = fixedBytes(d, calls);
  // The header: "[index" and its fixed part, then where (ASCII digits), then its newline.
  const whereBytes = (from === to ? 5 : 7 + String(from).length) + String(to).length; // where(from, to): ASCII
  let bytes = 1 + String(index).length + fixed.head + whereBytes + 1;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    if (k > 0 && r - rows[k - 1]! > 1) bytes += width + 4 + 1; // "  …" is 2 + 3 bytes
    bytes += width + 2 + rowBytes(d, r) + 1;
  }
  return bytes + fixed.more;
}

/** A draft's first and last shown rows. */
function span(d: Draft): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = -1;
  for (const r of d.shown) [lo, hi] = [Math.min(lo, r), Math.max(hi, r)];
  return [lo, hi];
}

/** Two places on one long row, far enough apart to show different text: two hits, not one. */
function apartOnLongRow(a: Draft, b: Draft): boolean {
  for (const [r, m] of b.match) {
    const other = a.match.get(r);
    if (other && a.w.region.rows[r]!.length > MATCH_WIDTH && Math.abs(other.at - m.at) > MATCH_WIDTH / 2) return true;
  }
  return false;
}

/**
 * Hits of one text whose lines overlap or touch become one hit (its matches, context and record
 * together), so no line is shown twice and the slot goes to the next hit.
 */
function mergeTouching(drafts: Draft[], maxLines: number): Draft[] {
  const out: Draft[] = [];
  for (const d of drafts) {
    const [lo, hi] = span(d);
    const into = out.find((o) => {
      if (o.w.region !== d.w.region || apartOnLongRow(o, d)) return false;
      // A hit shows at most maxLines matching lines: past that, the later hit is trimmed instead.
      if (new Set([...o.match.keys(), ...d.match.keys()]).size > maxLines) return false;
      const [a, b] = span(o);
      return lo <= b + 1 && hi >= a - 1;
    });
    if (!into) {
      out.push(d);
      continue;
    }
    for (const [r, m] of d.match) if (!into.match.has(r)) into.match.set(r, m);
    for (const r of d.shown) into.shown.add(r);
    into.growth.push(...d.growth);
    into.outer.push(...d.outer);
    into.w = { ...into.w, more: into.w.more + d.w.more };
    into.record ||= d.record;
  }
  return out;
}

/** Renders the windows within `budget` bytes: hits that do not fit are dropped (counted), the rest get context. */
export function renderHits(
  windows: SourcedWindow[],
  budget: number,
  calls: NextCalls,
  limit = windows.length,
  maxLines = Number.POSITIVE_INFINITY,
): { hits: Hit[]; omitted: number; unused: number } {
  // Which hit shows each line of a text (by blob, then line number): a line is shown by one hit only.
  // `handovers` counts the changes: what another hit may show changes with each.
  const owners = new Map<number, Map<number, number>>();
  const linesOf = (d: Draft) => owners.get(d.w.region.blob) ?? owners.set(d.w.region.blob, new Map()).get(d.w.region.blob)!;
  const ownerOf = (d: Draft, r: number) => linesOf(d).get(d.w.region.first + r);
  let handovers = 0;
  const own = (d: Draft, r: number, i: number) => {
    linesOf(d).set(d.w.region.first + r, i);
    handovers++;
  };
  const keyOf = (d: Draft, r: number) => `${d.w.region.blob}:${d.w.region.first + r}`;
  const longMatch = (d: Draft, r: number) => d.match.has(r) && d.w.region.rows[r]!.length > MATCH_WIDTH;
  const drafts: Draft[] = [];
  let unused = 0;
  for (const d of mergeTouching(windows.map(draft), maxLines)) {
    const i = drafts.length;
    const mine = (r: number) => (ownerOf(d, r) ?? i) === i || longMatch(d, r);
    if (i >= limit) {
      unused++;
      continue;
    }
    // A hit whose matching lines another hit already shows adds nothing: the next one takes its place.
    if (![...d.match.keys()].some(mine)) continue;
    for (const r of [...d.shown]) {
      if (mine(r)) own(d, r, i);
      else d.shown.delete(r);
    }
    d.taken = (r: number) => (ownerOf(d, r) ?? i) !== i;
    drafts.push(d);
  }
  // A draft's size changes with what it shows and with the lines other hits take; measured again only then.
  const remember = (d: Draft, i: number, bytes: number) => {
    d.sized = { edits: d.edits, owners: handovers, index: i, bytes };
    return bytes;
  };
  const size = (d: Draft, i: number) => {
    const s = d.sized;
    return s && s.edits === d.edits && s.owners === handovers && s.index === i ? s.bytes : remember(d, i, measure(d, i + 1, calls));
  };
  let kept = drafts;
  while (kept.length > 1 && kept.reduce((s, d, i) => s + size(d, i), 0) > budget) kept = kept.slice(0, -1);
  let total = kept.reduce((s, d, i) => s + size(d, i), 0);
  /** Shows row r in draft i when it fits `within` (the budget) and `cap` (what the draft may still grow by). */
  const tryAdd = (d: Draft, i: number, r: number, cap = Number.POSITIVE_INFINITY, within = budget): boolean => {
    if (r < 0 || r >= d.w.region.rows.length || d.shown.has(r) || d.taken(r)) return false;
    const old = size(d, i);
    d.shown.add(r);
    d.edits++;
    const grown = size(d, i);
    if (total - old + grown > within || grown - old > cap) {
      d.shown.delete(r);
      d.edits++;
      remember(d, i, old);
      return false;
    }
    total += grown - old;
    // The line was no other hit's: this draft's own size stays as measured.
    own(d, r, i);
    remember(d, i, grown);
    return true;
  };
  // The records, to their end, best hit first.
  for (const [i, d] of kept.entries()) {
    const start = size(d, i);
    const cap = RECORD_BYTES[Math.min(i, RECORD_BYTES.length - 1)]!;
    for (const r of d.growth) if (!d.shown.has(r) && !d.taken(r) && !tryAdd(d, i, r, cap - (size(d, i) - start))) break;
  }
  // A matched long line shown wider (the rest of a one-line record), best hit first; not a line
  // other hits show other places of (their cuts would then overlap).
  const matchedBy = new Map<string, number>();
  for (const d of kept) for (const r of d.match.keys()) matchedBy.set(keyOf(d, r), (matchedBy.get(keyOf(d, r)) ?? 0) + 1);
  for (const [i, d] of kept.entries()) {
    for (const r of d.match.keys()) {
      if (d.w.region.rows[r]!.length <= MATCH_WIDTH || matchedBy.get(keyOf(d, r))! > 1 || d.match.get(r)!.spans) continue;
      const old = size(d, i);
      setWidth(d, r, WIDE_MATCH);
      const grown = size(d, i);
      if (total - old + grown > Math.min(budget, FILL_TARGET)) {
        setWidth(d, r, undefined);
        remember(d, i, old);
      } else total += grown - old;
    }
  }
  const growOuter = () => {
    for (const [i, d] of kept.entries()) {
      const start = size(d, i);
      const cap = OUTER_BYTES[Math.min(i, OUTER_BYTES.length - 1)]!;
      for (const r of d.outer)
        if (!d.shown.has(r) && !d.taken(r) && !tryAdd(d, i, r, cap - (size(d, i) - start), Math.min(budget, FILL_TARGET))) break;
    }
  };
  // Context for neighbouring answers: a few lines each side of the matches, more when there are
  // fewer hits; then more lines around them while the answer is short, two after for one before
  // (what a matched line leads to, its value, result or outcome, follows it).
  const maxContext = kept.length <= 1 ? 6 : kept.length === 2 ? 5 : 4;
  for (let step = 1; step <= MAX_FILL_STEPS; step++) {
    // Past the nearest lines, the larger records to their end first (what a matched row's record leads to).
    if (step === maxContext + 1) growOuter();
    const within = step <= maxContext ? budget : Math.min(budget, FILL_TARGET);
    const past = step - maxContext;
    const after = past <= 0 ? [step] : [maxContext + 2 * past - 1, maxContext + 2 * past];
    const before = past <= 0 ? step : past % 2 === 0 ? maxContext + past / 2 : 0;
    for (const [i, d] of kept.entries()) {
      if (d.record) continue;
      for (const m of d.match.keys()) {
        for (const k of after) tryAdd(d, i, m + k, Number.POSITIVE_INFINITY, within);
        if (before > 0) tryAdd(d, i, m - before, Number.POSITIVE_INFINITY, within);
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
  return { hits, omitted: drafts.length - kept.length, unused };
}
