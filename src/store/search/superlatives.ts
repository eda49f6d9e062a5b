/**
 * "Which file has the most errors", "the slowest test": a superlative asks for the row of a
 * listing whose number is the extreme one, and a listing is seldom sorted by the column asked
 * about (a compiler's per-file error table is sorted by file name). When the query has a
 * superlative of quantity and one of the best places is a header over rows (the lines it owns,
 * or the rows of its block), the row whose number under the header's matching word is the
 * largest (or the smallest) becomes a place of its own, ranked right after the header, with the
 * header shown over it. The superlatives are English's for quantity and size: `most`/`least`
 * (the periphrastic forms) and the `-est` forms of the dimension adjectives (high, low, large,
 * small, big, long, short, slow, fast, great, heavy, few), a closed class of the grammar, not
 * words of any output.
 */
import type { Term } from "./lines.ts";
import { lowerRow, type Region, type Scan } from "./scan.ts";
import type { Anchor } from "./score.ts";

const LARGEST = new Set(["most", "highest", "largest", "biggest", "greatest", "longest", "slowest", "heaviest"]);
const SMALLEST = new Set(["least", "fewest", "lowest", "smallest", "shortest", "fastest", "lightest"]);

/** Header places looked at, best first. */
const HEADERS = 3;
/** A listing has at least this many rows, and at most this many are read. */
const MIN_ROWS = 3;
const MAX_ROWS = 2000;
/** The extreme row ranks this close below its header. */
const AFTER_HEADER = 0.99;

export type Extreme = "largest" | "smallest";

/**
 * Whether the query asks for the largest or the smallest of something, or neither: a superlative
 * typed as a word of its own (a concept of one word), not a part of a name (`BIGGEST_ALIGN`,
 * `max-connections`: `max` and `min` name settings far more often than they ask for an extreme,
 * and are left out).
 */
export function superlativeOf(terms: Term[]): Extreme | null {
  for (const t of terms) {
    if (t.kind !== "concept" || t.parts.length !== 1) continue;
    if (LARGEST.has(t.parts[0]!)) return "largest";
    if (SMALLEST.has(t.parts[0]!)) return "smallest";
  }
  return null;
}

/** A number's characters: digits, and the `,` and `.` written inside one. */
const isDigit = (c: number) => c >= 48 && c <= 57;

/** The number on a row whose digits overlap columns [from, to) (a right-aligned count under its column's name), or null. */
function numberUnder(row: string, from: number, to: number): { value: number; at: number; end: number } | null {
  for (let i = 0; i < row.length; ) {
    if (!isDigit(row.charCodeAt(i)) || (i > 0 && /[\w.]/.test(row[i - 1]!))) {
      i++;
      continue;
    }
    let j = i;
    while (j < row.length && (isDigit(row.charCodeAt(j)) || ((row[j] === "," || row[j] === ".") && isDigit(row.charCodeAt(j + 1))))) j++;
    // A whole number: not the start of a word or a path (`404.html`, `v2`).
    const whole = j === row.length || !/[A-Za-z_/]/.test(row[j]!);
    if (whole && i < to && j > from) return { value: Number(row.slice(i, j).replace(/,/g, "")), at: i, end: j };
    i = j;
  }
  return null;
}

/** The rows a header row is over: those it owns (indented under it), else the rest of its block; null when too few. */
function rowsUnder(region: Region, h: number): [number, number] | null {
  const s = region.structure;
  const end = s.childEnd[h]! > h ? s.childEnd[h]! : s.paraEnd[h]!;
  const last = Math.min(end, h + MAX_ROWS);
  return last - h >= MIN_ROWS ? [h + 1, last] : null;
}

/** The anchors with, for each of the best places that head a listing, the listing's extreme row under the header word. */
export function withExtremeRows(region: Region, terms: Term[], scan: Scan, anchors: Anchor[], extreme: Extreme): Anchor[] {
  const headers = [...anchors].sort((a, b) => b.score - a.score).slice(0, HEADERS);
  const out = [...anchors];
  for (const h of headers) {
    const under = rowsUnder(region, h.row);
    if (!under) continue;
    // The header's words the query names, each a column: the first whose rows hold numbers under it.
    for (const o of scan.found[h.row]!) {
      if (terms[o.term]!.kind === "phrase") continue;
      let best: { row: number; value: number; at: number; end: number } | null = null;
      let rows = 0;
      for (let r = under[0]; r <= under[1]; r++) {
        const n = numberUnder(lowerRow(region, r), o.at, o.end);
        if (!n || Number.isNaN(n.value)) continue;
        rows++;
        if (!best || (extreme === "largest" ? n.value > best.value : n.value < best.value)) best = { row: r, ...n };
      }
      if (!best || rows < MIN_ROWS) continue;
      const score = h.score * AFTER_HEADER;
      const there = out.find((a) => a.row === best!.row);
      if (there) there.score = Math.max(there.score, score);
      else out.push({ row: best.row, at: best.at, end: best.end, score, suppliers: [h.row], record: null, complete: h.complete });
      break;
    }
  }
  return out;
}
