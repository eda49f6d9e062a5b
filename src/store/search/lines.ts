/**
 * Which lines of a candidate chunk answer the query, and how well: identifiers and error codes
 * found verbatim weigh most, then the whole query or a quoted phrase on one line, then words
 * (in any inflection, at a word start) weighted by how rare they are among the lines looked at.
 * Each match remembers where on the line it is, so a long line is shown around the right place.
 */

export type TermKind = "ident" | "phrase" | "word";
export type Term = { needle: string; kind: TermKind; weight: number };
export type LineMatch = { row: number; score: number; at: number; words: number; idents: number; phrases: number };

const SUFFIXES = ["ations", "ation", "ings", "ing", "ions", "ion", "ies", "ied", "ers", "er", "ed", "es", "ly", "s"];

/** A crude stem so "failing" finds "failed": the prefix that porter would roughly keep. */
export function stemPrefix(word: string): string {
  for (const suffix of SUFFIXES) {
    if (word.length - suffix.length >= 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 127;

/** Where `needle` starts a word in `lower` (not inside another word), or -1. */
export function findWordStart(lower: string, needle: string, from = 0): number {
  for (let i = lower.indexOf(needle, from); i !== -1; i = lower.indexOf(needle, i + 1)) {
    if (i === 0 || !isWordChar(lower.charCodeAt(i - 1))) return i;
  }
  return -1;
}

function find(lower: string, t: Term): number {
  return t.kind === "word" ? findWordStart(lower, t.needle) : lower.indexOf(t.needle);
}

const isSpace = (c: number) => Number.isNaN(c) || c === 32 || c === 9 || c === 34 || c === 39 || c === 96;

/** The match at `i` is a whole token of the line ("openssl" alone, not in "libxmlsec1-openssl:amd64"). */
function wholeToken(lower: string, i: number, length: number): boolean {
  let end = i + length;
  while (end < lower.length && isWordChar(lower.charCodeAt(end))) end++;
  return isSpace(lower.charCodeAt(i - 1)) && (isSpace(lower.charCodeAt(end)) || /[,.;:)\]}]/.test(lower[end] ?? ""));
}

/**
 * The query's terms for line matching. Word weights come from how many of the given lines hold
 * each word (rare ones count more); identifiers and phrases weigh more than any word.
 */
export function termsFor(q: { words: string[]; idents: string[]; phrases: { text: string }[]; whole: string }, rows: string[]): Term[] {
  const stems = [...new Set(q.words.map(stemPrefix))];
  const lowerRows = rows.map((r) => r.toLowerCase());
  const df = new Map(stems.map((s) => [s, lowerRows.filter((r) => findWordStart(r, s) !== -1).length]));
  const n = Math.max(1, rows.length);
  const idf = (s: string) => Math.log(1 + n / (1 + (df.get(s) ?? 0)));
  const words = stems.map((s) => ({ needle: s, kind: "word" as const, weight: idf(s) }));
  const strongest = Math.max(1, ...words.map((w) => w.weight));
  const terms: Term[] = [...words, ...q.idents.map((s) => ({ needle: s, kind: "ident" as const, weight: 3 * strongest }))];
  const phrases = q.phrases.map((p) => p.text);
  // The query as typed, when it has several words: on one line it is the best answer there is.
  if (q.words.length > 1 && q.whole.length >= 6) phrases.push(q.whole);
  for (const p of new Set(phrases))
    terms.push({ needle: p, kind: "phrase", weight: 2 * strongest + words.reduce((s, w) => s + w.weight, 0) });
  return terms;
}

/** Lines longer than this are scored by their best stretch, not as a whole (minified code, JSON on one line). */
const LONG_LINE = 600;
const SPAN = 240;
const MAX_PLACES = 200;

type Found = { term: Term; at: number; whole: boolean; zero: boolean };

/** "0 failed", "0 ignored", "no errors": the word is there to say there is none. */
const ZERO_BEFORE = /(?:^|[^\w.])(?:0|no|zero) $/;

/** Where each term occurs on the line: the first place, or (long lines) up to MAX_PLACES places. */
function places(lower: string, terms: Term[], all: boolean): Found[] {
  const out: Found[] = [];
  for (const term of terms) {
    let i = find(lower, term);
    for (let n = 0; i >= 0 && n < (all ? MAX_PLACES : 1); n++) {
      out.push({
        term,
        at: i,
        whole: term.kind !== "phrase" && wholeToken(lower, i, term.needle.length),
        zero: term.kind === "word" && ZERO_BEFORE.test(lower.slice(Math.max(0, i - 6), i)),
      });
      i = term.kind === "word" ? findWordStart(lower, term.needle, i + 1) : lower.indexOf(term.needle, i + 1);
    }
  }
  return out;
}

/** The stretch of SPAN characters holding the most (then the heaviest) distinct terms. */
function bestStretch(found: Found[]): Found[] {
  const sorted = [...found].sort((a, b) => a.at - b.at);
  let best: Found[] = [];
  let bestValue = -1;
  for (let lo = 0, hi = 0; lo < sorted.length; lo++) {
    while (hi < sorted.length && sorted[hi]!.at - sorted[lo]!.at <= SPAN) hi++;
    const inside = new Map<Term, Found>();
    for (let k = lo; k < hi; k++) if (!inside.has(sorted[k]!.term)) inside.set(sorted[k]!.term, sorted[k]!);
    const value = inside.size * 1e6 + [...inside.keys()].reduce((v, t) => v + t.weight, 0);
    if (value > bestValue) {
      bestValue = value;
      best = [...inside.values()];
    }
  }
  return best;
}

/**
 * Every line that matches some term, with its score; `at` is where its strongest term is. How
 * many of the query's words a line holds counts before how rare they are; a whole token beats a
 * piece of a compound name; a long line counts only its best stretch.
 */
export function scoreLines(rows: string[], terms: Term[]): LineMatch[] {
  const out: LineMatch[] = [];
  const wordTerms = terms.filter((t) => t.kind === "word");
  const strongest = Math.max(1, ...terms.map((t) => t.weight));
  rows.forEach((text, row) => {
    const lower = text.toLowerCase();
    const long = lower.length > LONG_LINE;
    let found = places(lower, terms, long);
    if (found.length === 0) return;
    if (long) found = bestStretch(found);
    const m = { words: 0, idents: 0, phrases: 0 };
    let score = 0;
    let top: Found | null = null;
    for (const f of found) {
      score += (f.whole ? f.term.weight * 1.5 : f.term.weight) * (f.zero ? 0.25 : 1);
      m[f.term.kind === "word" ? "words" : f.term.kind === "ident" ? "idents" : "phrases"]++;
      if (!top || f.term.weight > top.term.weight) top = f;
    }
    // Coverage first: each word the line holds is worth the strongest term again.
    if (wordTerms.length > 1) score += strongest * m.words * (m.words === wordTerms.length ? 2 : 1);
    out.push({ row, score, at: long ? Math.min(...found.map((f) => f.at)) : top!.at, ...m });
  });
  return out;
}
