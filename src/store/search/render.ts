/**
 * A hit as the model reads it: the matching lines and the lines that name their record,
 * numbered as grep does (`917: match`, `918- context`), `…` where lines are left out, long lines
 * cut around the match. Within the byte budget each hit then shows its record to the end (the
 * answer is often a few lines after the line that matched: a stanza's `Homepage:`, a collection
 * error's exception), the first hit the most, and then lines around the matches, so fewer hits
 * get more of it.
 */
import type { NextCalls } from "../next-calls.ts";
import { type Draft, draft, leastGrowth, MATCH_WIDTH, measure, renderDraft, setWidth } from "./draft.ts";
import type { Hit, SourcedWindow } from "./hit.ts";

/** What showing its record may add to a hit: the first hit, the others. */
const RECORD_BYTES = [1600, 900];
/** What growing into the larger records around a hit may add (the rest goes to lines on both sides). */
const OUTER_BYTES = [1600, 900];
/** A matched long line is shown up to this wide when the budget allows (an NDJSON record is one line). */
const WIDE_MATCH = 1000;
/** Lines around the matches are added while the answer is under this size (the answer's tail often follows). */
const FILL_TARGET = 1900;
const MAX_FILL_STEPS = 16;
/** A first hit scoring this many times the second's gets its context before the others. */
const DOMINANT = 2;
/** Lines shown after each line that names a hit's record. */
const SUPPLIER_CONTEXT = 3;

/**
 * Row r, above the record a hit's first match is in (a line that owns the lines indented under
 * it), is a line of the record before it (indented under one of that one's lines). Not when the
 * hit's top line owns nothing: a traceback's error line closes the indented lines above it.
 */
function aboveIsOther(d: Draft, r: number): boolean {
  const s = d.w.region.structure;
  return r >= 0 && r < d.top && s.childEnd[d.top]! > d.top && s.owner[r]! >= 0;
}

/** A draft's first and last shown rows. */
function span(d: Draft): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = -1;
  for (const r of d.shown) {
    if (r < lo) lo = r;
    if (r > hi) hi = r;
  }
  return [lo, hi];
}

/** The widest stretch of a long row one cut shows with a place's start and end in it (clipAround). */
const ONE_CUT = MATCH_WIDTH - MATCH_WIDTH / 4;

/** Two places on one long row, far enough apart to show different text (one cut would not show both): two hits, not one. */
function apartOnLongRow(a: Draft, b: Draft): boolean {
  for (const [r, m] of b.match) {
    const other = a.match.get(r);
    if (
      other &&
      a.w.region.rows[r]!.length > MATCH_WIDTH &&
      (Math.abs(other.at - m.at) > MATCH_WIDTH / 2 ||
        (!other.spans && !m.spans && Math.max(other.end, m.end) - Math.min(other.at, m.at) > ONE_CUT))
    )
      return true;
  }
  return false;
}

/** How many rows two drafts match together (each row once). */
function matchedTogether(a: Draft, b: Draft): number {
  let n = a.match.size;
  for (const r of b.match.keys()) if (!a.match.has(r)) n++;
  return n;
}

/**
 * Hits of one text whose lines overlap or touch become one hit (its matches, context and record
 * together), so no line is shown twice and the slot goes to the next hit.
 */
function mergeTouching(drafts: Draft[], maxLines: number): Draft[] {
  const out: Draft[] = [];
  // Each kept draft's first and last shown rows, kept up to date as drafts merge into it.
  const spans = new Map<Draft, [number, number]>();
  for (const d of drafts) {
    const [lo, hi] = span(d);
    const into = out.find((o) => {
      if (o.w.region !== d.w.region || apartOnLongRow(o, d)) return false;
      // A hit shows at most maxLines matching lines: past that, the later hit is trimmed instead.
      if (matchedTogether(o, d) > maxLines) return false;
      const [a, b] = spans.get(o)!;
      return lo <= b + 1 && hi >= a - 1;
    });
    // A weak hit next to a strong one would only widen it: left out.
    if (into && d.w.weak && !into.w.weak) continue;
    if (!into) {
      out.push(d);
      spans.set(d, [lo, hi]);
      continue;
    }
    for (const [r, m] of d.match) {
      const o = into.match.get(r);
      if (!o) into.match.set(r, m);
      // Two places near each other on one long row: the row is cut to show both.
      else if (!o.spans && !m.spans && Math.max(o.end, m.end) - Math.min(o.at, m.at) <= ONE_CUT)
        into.match.set(r, { ...o, at: Math.min(o.at, m.at), end: Math.max(o.end, m.end) });
    }
    for (const r of d.shown) into.shown.add(r);
    const merged = spans.get(into)!;
    spans.set(into, [Math.min(merged[0], lo), Math.max(merged[1], hi)]);
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
    // What the row adds at least already does not fit: no need to lay the hit out again to know.
    const least = leastGrowth(d, r);
    if (least > within - total || least > cap) return false;
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
  const growRecords = (which: number[]) => {
    for (const i of which) {
      const d = kept[i]!;
      const start = size(d, i);
      const cap = RECORD_BYTES[Math.min(i, RECORD_BYTES.length - 1)]!;
      for (const r of d.growth) if (!d.shown.has(r) && !d.taken(r) && !tryAdd(d, i, r, cap - (size(d, i) - start))) break;
    }
  };
  // A matched long line shown wider (the rest of a one-line record), best hit first; not a line
  // other hits show other places of (their cuts would then overlap).
  const matchedBy = new Map<string, number>();
  for (const d of kept) for (const r of d.match.keys()) matchedBy.set(keyOf(d, r), (matchedBy.get(keyOf(d, r)) ?? 0) + 1);
  const widen = () => {
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
  };
  const growOuter = (which: number[]) => {
    for (const i of which) {
      const d = kept[i]!;
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
  const fill = (which: number[]) => {
    for (let step = 1; step <= MAX_FILL_STEPS; step++) {
      // Past the nearest lines, the larger records to their end first (what a matched row's record leads to).
      if (step === maxContext + 1) growOuter(which);
      const within = step <= maxContext ? budget : Math.min(budget, FILL_TARGET);
      const past = step - maxContext;
      const after = past <= 0 ? [step] : [maxContext + 2 * past - 1, maxContext + 2 * past];
      const before = past <= 0 ? step : past % 2 === 0 ? maxContext + past / 2 : 0;
      for (const i of which) {
        const d = kept[i]!;
        if (d.record) continue;
        for (const m of d.match.keys()) {
          for (const k of after) tryAdd(d, i, m + k, Number.POSITIVE_INFINITY, within);
          if (before <= 0) continue;
          // A line of the record before the hit's is not its context: the next line below the
          // hit's nearest context comes in its place (what the record leads to follows its matches).
          if (step <= maxContext && aboveIsOther(d, m - before)) {
            if (m === Math.min(...d.match.keys()))
              tryAdd(d, i, Math.max(...d.match.keys()) + maxContext + (d.top - (m - before)), Number.POSITIVE_INFINITY, within);
          } else tryAdd(d, i, m - before, Number.POSITIVE_INFINITY, within);
        }
        // The lines that name the matches' record open it: the few after them say what it is.
        if (step <= SUPPLIER_CONTEXT)
          for (const r of d.w.suppliers) if (!d.match.has(r)) tryAdd(d, i, r + step, Number.POSITIVE_INFINITY, within);
      }
    }
  };
  const all = kept.map((_, i) => i);
  // A first hit far stronger than the next is the likely answer: its record and the lines around
  // it come before the other hits' (the answer may sit a few lines past what matched).
  const dominant = kept.length > 1 && kept[0]!.w.score >= DOMINANT * kept[1]!.w.score;
  // Hits with only some of the query, after ones with all of it, get what those leave.
  const strong = all.filter((i) => !kept[i]!.w.weak);
  const first = dominant ? [0] : strong.length < all.length ? strong : all;
  growRecords(first);
  if (first.length < all.length) {
    fill(first);
    growRecords(all.filter((i) => !first.includes(i)));
  }
  widen();
  fill(all);
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
