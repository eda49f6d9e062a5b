/**
 * A cheap view of a (possibly huge) tool output for the recognisers: the line count, numbered head
 * and tail windows, and a whole-text scan that finds a literal needle fast and only then tests the
 * line it sits on. ANSI colours are stripped from the lines looked at, never from the whole text.
 * Every operation is linear in the text; nothing splits the whole text into lines.
 */
import { stripAnsi } from "../../text.ts";

export type Line = { line: number; text: string };
/** A matching line: `m` is the line regex's match on the line's visible text; `offset` where the line starts. */
export type Hit = Line & { m: RegExpExecArray; offset: number };

export type TextView = {
  /** The text as captured (ANSI escapes included). */
  readonly text: string;
  readonly lineCount: number;
  /** The first and last few KiB, ANSI stripped, for detection. */
  readonly headText: string;
  readonly tailText: string;
  /** Numbered visible lines of the head and tail windows (they overlap when the text is short). */
  head(): Line[];
  tail(): Line[];
  /**
   * Lines holding `needle` (a string, or a regex with the g flag searched as is), kept when `line`
   * (matched against the visible line text; anchor it yourself) matches too. The first `max` are
   * returned; `total` counts all of them (or the first `limit`), and `visit` sees every one counted.
   */
  scan(
    needle: string | RegExp,
    line?: RegExp | null,
    max?: number,
    visit?: (hit: Hit) => void,
    limit?: number,
  ): { hits: Hit[]; total: number };
  /** Up to `n` visible lines after a hit's line. */
  after(hit: Hit, n: number): Line[];
  /** The visible line before a hit's line, if any. */
  before(hit: Hit): Line | null;
};

const HEAD_CHARS = 16 * 1024;
const TAIL_CHARS = 48 * 1024;
const WINDOW_LINES = 400;
/** Longest line text a hit or window keeps: enough to read, bounded for minified files. */
const MAX_LINE_CHARS = 600;
/** Raw characters read for one line before stripping colours (escapes inflate a line). */
const MAX_RAW_LINE = MAX_LINE_CHARS * 4;
/** Lines a scan accepts at most; counts past it are reported as this. */
const MAX_SCAN_LINES = 1_000_000;
/** Texts with more lines than this get no line index (4 bytes a line); their scans walk newlines instead. */
const MAX_INDEXED_LINES = 4_000_000;

/** Newlines in text[from, to): indexOf hops for ordinary lines, a plain loop once lines turn out very short. */
export function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  let i = from;
  for (;;) {
    const j = text.indexOf("\n", i);
    if (j === -1 || j >= to) return n;
    n++;
    i = j + 1;
    if ((n & 1023) === 0 && i - from < n * 8) break;
  }
  for (; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** What a terminal would show of a raw line: colours removed, the part after the last carriage return, clipped. */
export function visible(raw: string): string {
  let t = stripAnsi(raw.length > MAX_RAW_LINE ? raw.slice(0, MAX_RAW_LINE) : raw);
  if (t.endsWith("\r")) t = t.slice(0, -1);
  const cr = t.lastIndexOf("\r");
  if (cr !== -1) t = t.slice(cr + 1);
  return t.length > MAX_LINE_CHARS ? t.slice(0, MAX_LINE_CHARS) : t;
}

export function isBlank(text: string): boolean {
  return !/[\p{L}\p{N}]/u.test(text);
}

function indexNewlines(text: string, end: number, lineCount: number): Int32Array {
  const out = new Int32Array(lineCount - 1);
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < end && n < out.length; i = text.indexOf("\n", i + 1)) out[n++] = i;
  return out;
}

export function createTextView(text: string, knownLines?: number): TextView {
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  const lineCount = knownLines ?? (text.length === 0 ? 0 : countNewlines(text, 0, end) + 1);
  const lineEnd = (start: number) => {
    const nl = text.indexOf("\n", start);
    return nl === -1 || nl > end ? end : nl;
  };
  const rawLine = (start: number, stop: number) => text.slice(start, Math.min(stop, start + MAX_RAW_LINE));
  // Offsets of the newlines, built on the first scan that needs line numbers: a hit's line is then
  // a binary search, however many scans run and however far apart their hits are.
  let newlines: Int32Array | null | undefined;
  const lineOf = (offset: number, cursor: { at: number; line: number }): number => {
    if (newlines === undefined) newlines = lineCount <= MAX_INDEXED_LINES && lineCount > 1 ? indexNewlines(text, end, lineCount) : null;
    if (newlines) {
      let lo = 0;
      let hi = newlines.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (newlines[mid]! < offset) lo = mid + 1;
        else hi = mid;
      }
      return lo + 1;
    }
    cursor.line += countNewlines(text, cursor.at, offset);
    cursor.at = offset;
    return cursor.line;
  };
  let headCache: Line[] | null = null;
  let tailCache: Line[] | null = null;

  const head = (): Line[] => {
    if (headCache) return headCache;
    headCache = [];
    let pos = 0;
    for (let line = 1; line <= Math.min(lineCount, WINDOW_LINES) && pos < HEAD_CHARS && pos <= end; line++) {
      const stop = lineEnd(pos);
      headCache.push({ line, text: visible(rawLine(pos, stop)) });
      pos = stop + 1;
    }
    return headCache;
  };

  const tail = (): Line[] => {
    if (tailCache) return tailCache;
    tailCache = [];
    let stop = end;
    for (let line = lineCount; line > 0 && tailCache.length < WINDOW_LINES && end - stop < TAIL_CHARS; line--) {
      const start = stop === 0 ? 0 : text.lastIndexOf("\n", stop - 1) + 1;
      tailCache.push({ line, text: visible(rawLine(start, stop)) });
      if (start === 0) break;
      stop = start - 1;
    }
    tailCache.reverse();
    return tailCache;
  };

  const scan: TextView["scan"] = (needle, lineRe = null, max = 200, visit, limit = MAX_SCAN_LINES) => {
    const hits: Hit[] = [];
    let total = 0;
    const cursor = { at: 0, line: 1 };
    const re = typeof needle === "string" ? null : needle;
    let from = 0;
    while (from <= end && total < limit) {
      let at: number;
      let found: RegExpExecArray | null = null;
      if (re) {
        re.lastIndex = from;
        found = re.exec(text);
        at = found ? found.index : -1;
      } else at = text.indexOf(needle as string, from);
      if (at === -1 || at > end) break;
      const start = at === 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
      const stop = lineEnd(at);
      from = stop + 1;
      // Counting only: no line text needed.
      if (!lineRe && hits.length >= max && !visit) {
        total++;
        continue;
      }
      const shown = visible(rawLine(start, stop));
      const m = lineRe ? lineRe.exec(shown) : found;
      if (lineRe && !m) continue;
      total++;
      if (hits.length >= max && !visit) continue;
      const hit = {
        line: lineOf(start, cursor),
        text: shown,
        m: m ?? (Object.assign([shown], { index: 0, input: shown }) as RegExpExecArray),
        offset: start,
      };
      visit?.(hit);
      if (hits.length < max) hits.push(hit);
    }
    return { hits, total };
  };

  const after = (hit: Hit, n: number): Line[] => {
    const out: Line[] = [];
    let pos = lineEnd(hit.offset) + 1;
    for (let line = hit.line + 1; out.length < n && pos <= end && line <= lineCount; line++) {
      const stop = lineEnd(pos);
      out.push({ line, text: visible(rawLine(pos, stop)) });
      pos = stop + 1;
    }
    return out;
  };

  const before = (hit: Hit): Line | null => {
    if (hit.offset === 0) return null;
    const start = hit.offset === 1 ? 0 : text.lastIndexOf("\n", hit.offset - 2) + 1;
    return { line: hit.line - 1, text: visible(rawLine(start, hit.offset - 1)) };
  };

  return {
    text,
    lineCount,
    headText: stripAnsi(text.slice(0, HEAD_CHARS)),
    tailText: stripAnsi(text.slice(Math.max(0, end - TAIL_CHARS), end)),
    head,
    tail,
    scan,
    after,
    before,
  };
}
