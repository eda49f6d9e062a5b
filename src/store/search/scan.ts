/**
 * A region's rows and where the query's terms occur on them: the rows that hold some term's text
 * are found first (one search of the region's text per term), and only those are scanned.
 */
import { isAscii } from "../../text.ts";
import { type Occurrence, occurrences, type Term } from "./lines.ts";
import type { Structure } from "./structure.ts";

/** Lines longer than this are scored by stretches, not as a whole. */
export const LONG_LINE = 600;
const MAX_PER_LINE = 5000;

export type Region = {
  rows: string[];
  /** Rows lower-cased, filled as they are needed (lowerRow). */
  lower: string[];
  /** The rows joined by newlines (a trailing newline allowed), when the caller has it. */
  text?: string;
  /** Whether the text has a character that lower-cases to ASCII but is not (foldsToAscii), once known. */
  foldsToAscii?: boolean;
  structure: Structure;
  json: boolean;
  /** Row 0 starts a line (else it starts inside one, at a chunk edge), and the title of its first chunk (a JSON path). */
  firstRowWhole: boolean;
  title: string;
};

/** Where each term occurs on each row of a region. */
export type Scan = { found: Occurrence[][]; has: Uint8Array; n: number };

const NONE: Occurrence[] = [];

/** Row r lower-cased, once: only the rows that hold some term's text are. */
export function lowerRow(region: Region, r: number): string {
  let lower = region.lower[r];
  if (lower === undefined) region.lower[r] = lower = region.rows[r]!.toLowerCase();
  return lower;
}

const SPECIAL = /[.*+?^${}()|[\]\\]/g;
/**
 * Whether the text has a character that lower-cases to ASCII letters though it is not: the
 * Kelvin sign, a dotted capital I. Asked once per region (two searches for one character each
 * are several times quicker than a character class over the text).
 */
function foldsToAscii(region: Region, text: string): boolean {
  region.foldsToAscii ??= text.includes("\u212a") || text.includes("\u0130");
  return region.foldsToAscii;
}

const needlesKept = new WeakMap<Term[], { ascii: boolean; kept: string[] }>();

/**
 * The texts rowsWithTerms looks for, once per query: each term's first form, without those that
 * hold another on one row (every row holding "cache timeout" holds "cache": the phrase marks no
 * other row), and whether they are all ASCII.
 */
function needlesOf(terms: Term[]): { ascii: boolean; kept: string[] } {
  let n = needlesKept.get(terms);
  if (n) return n;
  const all = [...new Set(terms.flatMap((t) => (t.kind === "concept" ? [t.forms[0]!, ...t.short] : [t.parts[0]!])))];
  n = { ascii: all.every(isAscii), kept: all.filter((x) => x.includes("\n") || !all.some((other) => other !== x && x.includes(other))) };
  needlesKept.set(terms, n);
  return n;
}

/**
 * The rows that hold some term's text (a concept's first form, an identifier or phrase as
 * typed): every occurrence starts with it, so no other row has one. An ASCII text is looked for
 * case-blind in the region's text as it is (lower-casing maps no other character to ASCII, but
 * for the two foldsToAscii looks for), a row at a time; else in the rows lower-cased.
 */
function rowsWithTerms(region: Region, terms: Term[]): Uint8Array {
  const { rows } = region;
  const n = rows.length;
  const marked = new Uint8Array(n);
  const { ascii, kept: needles } = needlesOf(terms);
  const text = region.text ?? rows.join("\n");
  const blind = ascii && !foldsToAscii(region, text);
  const lengths = blind ? rows : rows.map((_, r) => lowerRow(region, r));
  const starts = new Int32Array(n + 1);
  for (let r = 0; r < n; r++) starts[r + 1] = starts[r]! + lengths[r]!.length + 1;
  /** Marks the row position `at` is on, and says where the next row starts (-1: none). */
  const mark = (at: number) => {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    marked[lo] = 1;
    return lo + 1 < n ? starts[lo + 1]! : -1;
  };
  if (blind) {
    for (const needle of needles) {
      const re = new RegExp(needle.replace(SPECIAL, "\\$&"), "gi");
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const next = mark(m.index);
        if (next < 0) break;
        re.lastIndex = next;
      }
    }
    return marked;
  }
  const lower = lengths.join("\n");
  for (const needle of needles) {
    for (let at = lower.indexOf(needle); at !== -1; ) {
      const next = mark(at);
      at = next < 0 ? -1 : lower.indexOf(needle, next);
    }
  }
  return marked;
}

export function scanRegion(region: Region, terms: Term[]): Scan {
  const { rows } = region;
  const n = rows.length;
  const has = new Uint8Array(terms.length * n);
  const found: Occurrence[][] = new Array(n);
  const marked = rowsWithTerms(region, terms);
  for (let r = 0; r < n; r++) {
    if (!marked[r]) {
      found[r] = NONE;
      continue;
    }
    const occ = occurrences(rows[r]!, lowerRow(region, r), terms, rows[r]!.length > LONG_LINE ? MAX_PER_LINE : 4);
    found[r] = occ;
    for (const o of occ) has[o.term * n + r] = 1;
  }
  return { found, has, n };
}
