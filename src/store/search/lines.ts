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

/** Every line that matches some term, with its score; `at` is where its strongest term is. */
export function scoreLines(rows: string[], terms: Term[]): LineMatch[] {
  const out: LineMatch[] = [];
  const wordCount = terms.filter((t) => t.kind === "word").length;
  rows.forEach((text, row) => {
    const lower = text.toLowerCase();
    let score = 0;
    let at = -1;
    let best = 0;
    const m = { words: 0, idents: 0, phrases: 0 };
    for (const t of terms) {
      const i = find(lower, t);
      if (i < 0) continue;
      // A whole token is a better match than a piece of a compound name.
      score += t.kind === "phrase" ? t.weight : t.weight * (wholeToken(lower, i, t.needle.length) ? 1.5 : 1);
      m[t.kind === "word" ? "words" : t.kind === "ident" ? "idents" : "phrases"]++;
      if (t.weight > best) {
        best = t.weight;
        at = i;
      }
    }
    if (score === 0) return;
    // Every word on one line is worth more than the same words scattered.
    if (wordCount > 1 && m.words === wordCount) score *= 1.5;
    out.push({ row, score, at, ...m });
  });
  return out;
}
