/**
 * Turns any user query string into safe FTS5 queries. Nothing the user typed reaches FTS5
 * syntax: words become quoted terms, identifier substrings become quoted trigrams, so quotes,
 * colons, parentheses, `-`, `*`, NEAR, AND/OR and any unicode are just text.
 */
import { camelWords, identifierTokens } from "../idents.ts";

/**
 * One thing the query names, as typed between spaces: a word, or an identifier with its words
 * ("maxRetryCount", "max_retry_count" and "--max-retry-count" all have the words max retry count).
 * Text may write it with the words apart or together, so both are looked for.
 */
export type Concept = {
  /** Its words, lower-cased: letter and digit runs, camelCase split. */
  words: string[];
  /** The words written together ("maxretrycount"), how the word index sees `maxRetryCount`. */
  joined: string;
  /** Its letter and digit runs as typed, lower-cased (camelCase not split): how the word index sees the text it came from. */
  runs: string[];
  /** A stop word ("the", "which"): it finds nothing on its own. */
  stop: boolean;
  /** All digits (an exit status, a count): matched whole, never as the start of a longer number. */
  number: boolean;
  /**
   * Short forms a tool may print instead (abbreviations.ts): the word's first letters (`sched`
   * for "scheduler"), a compound's initials (`ro` for "read-only"). Found only as
   * a whole part of an identifier, and weighed below the word itself.
   */
  short: string[];
  /** Typed as one word the text writes apart (word-split.ts): a name, weighed like an identifier. */
  split?: boolean;
};

export type ParsedQuery = {
  /** Lower-cased words for the word index (unicode letters and digits). */
  words: string[];
  /** Quoted phrases: their words, in order, and their text, lower-cased. */
  phrases: { words: string[]; text: string }[];
  /** Identifier-like tokens outside quotes (paths, ids, versions, camelCase), lower-cased. */
  idents: string[];
  /** The whole query, lower-cased and with runs of space collapsed (to find it verbatim). */
  whole: string;
  /** What it names, in order, without repeats. */
  concepts: Concept[];
  /** It asks how many or how much: a count written next to its words is the answer. */
  quantity?: boolean;
  /** The word after "how many", "how much" or "number of": what is counted. */
  counted?: string;
};

const STOP_WORDS = new Set(
  "a an and are as at be but by for from has have in into is it its of on or that the this to was were will with what where which who how why when do does did not no".split(
    " ",
  ),
);
/** "How many", "how much", "total", "number of": the query asks for a count. */
const QUANTITY = /\bhow (?:many|much)\b|\btotal\b|\bnumber of\b/i;
/** The noun a count is asked of: the word right after "how many", "how much", "number of". */
const COUNTED_NOUN = /\b(?:how (?:many|much)|number of)\s+([\p{L}\p{N}]+)/iu;
const MAX_TERMS = 12;
export const MAX_TRIGRAMS = 8;

const wordsOf = (text: string) => [...text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]);
const unique = <T>(xs: T[]): T[] => [...new Set(xs)];

const RUN = /[\p{L}\p{N}]+/gu;
const DIGITS = /^\p{N}+$/u;

/** The words of one space-separated token, camelCase split ("maxRetryCount" -> max retry count). */
function tokenWords(token: string): string[] {
  return [...token.matchAll(RUN)].flatMap((m) => camelWords(m[0]) ?? [m[0].toLowerCase()]);
}

export function conceptOf(words: string[], runs: string[] = words): Concept {
  return {
    words,
    joined: words.join(""),
    runs,
    stop: words.length === 1 && STOP_WORDS.has(words[0]!),
    number: words.every((w) => DIGITS.test(w)),
    short: [],
  };
}

function conceptsOf(text: string): Concept[] {
  const seen = new Set<string>();
  const out: Concept[] = [];
  for (const token of text.split(/[\s"]+/)) {
    const words = tokenWords(token);
    const key = words.join(" ");
    if (words.length === 0 || seen.has(key)) continue;
    seen.add(key);
    out.push(
      conceptOf(
        words,
        [...token.matchAll(RUN)].map((m) => m[0].toLowerCase()),
      ),
    );
  }
  return out.slice(0, MAX_TERMS);
}

export function parseQuery(raw: string): ParsedQuery {
  const text = raw.normalize("NFC").slice(0, 2000);
  const phrases: string[] = [];
  const rest = text.replace(/"([^"]*)"/g, (_m, p: string) => {
    if (p.trim()) phrases.push(p.trim());
    return " ";
  });
  return {
    words: unique(wordsOf(text)).slice(0, MAX_TERMS * 2),
    phrases: phrases.map((p) => ({ words: wordsOf(p), text: p.toLowerCase() })).filter((p) => p.words.length > 0),
    idents: unique(identifierTokens(rest).map((s) => s.toLowerCase())).slice(0, MAX_TERMS),
    whole: text.toLowerCase().replace(/"/g, "").replace(/\s+/g, " ").trim(),
    concepts: conceptsOf(text),
    ...(QUANTITY.test(text) ? { quantity: true } : {}),
    ...countedNoun(text),
  };
}

function countedNoun(text: string): { counted?: string } {
  const m = COUNTED_NOUN.exec(text);
  return m && !STOP_WORDS.has(m[1]!.toLowerCase()) ? { counted: m[1]!.toLowerCase() } : {};
}

/** The concepts that carry meaning: all but the stop words (all of them when that is all there is). */
export function contentConcepts(q: ParsedQuery): Concept[] {
  const content = q.concepts.filter((c) => !c.stop);
  return content.length > 0 ? content : q.concepts;
}

/** One concept for the word index: its words next to each other, or written together. */
function conceptMatch(c: Concept): string {
  if (c.words.length === 1) return c.short.length === 0 ? quote(c.words[0]!) : `(${[c.words[0]!, ...c.short].map(quote).join(" OR ")})`;
  const forms = [...new Set([c.words.join(" "), c.runs.join(" "), c.joined])].map(quote);
  // Its words apart (`random.py:385(sample)` for "random.sample"), when each says something on its own.
  if (c.runs.length > 1 && c.runs.every((w) => w.length >= 3)) forms.push(`(${c.runs.map(quote).join(" AND ")})`);
  // Its initials (`ro` for "read-only"), when the text never writes it out (query-variants.ts).
  forms.push(...c.short.map(quote));
  return `(${forms.join(" OR ")})`;
}

/**
 * Every concept must match (stop words left out), quoted phrases as phrases. Concepts given
 * explicitly (a subset) are matched as they are.
 */
export function conceptsAnd(concepts: Concept[], phrases: { words: string[] }[] = []): string | null {
  const inPhrases = new Set(phrases.flatMap((p) => p.words));
  const terms = [
    ...phrases.map((p) => quote(p.words.join(" "))),
    ...concepts.filter((c) => !c.words.every((w) => inPhrases.has(w))).map(conceptMatch),
  ].slice(0, MAX_TERMS);
  return terms.length > 0 ? terms.join(" AND ") : null;
}

/** Any concept may match. */
export function conceptsOr(concepts: Concept[]): string | null {
  return concepts.length > 0 ? concepts.slice(0, MAX_TERMS).map(conceptMatch).join(" OR ") : null;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

export function quote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** All words must match (FTS5 implicit AND); quoted phrases as phrases. */
export function wordsAnd(words: string[], phrases: { words: string[] }[] = []): string | null {
  const inPhrases = new Set(phrases.flatMap((p) => p.words));
  const terms = [...phrases.map((p) => quote(p.words.join(" "))), ...words.filter((w) => !inPhrases.has(w)).map(quote)].slice(0, MAX_TERMS);
  return terms.length > 0 ? terms.join(" ") : null;
}

/** The words wordsPrefixAnd looks up as the start of longer words (a number is matched whole). */
export function prefixWords(words: string[]): string[] {
  return words.filter((w) => w.length >= 3 && !DIGITS.test(w)).slice(0, MAX_TERMS);
}

/**
 * Every word as the start of an indexed word ("conn" finds "connection"); a number whole, however
 * short (an exit status "28" is never the start of "2810", and leaving it out lets any place match).
 */
export function wordsPrefixAnd(words: string[]): string | null {
  const numbers = words.filter((w) => DIGITS.test(w));
  const ws = [...prefixWords(words).map((w) => `${quote(w)}*`), ...numbers.map(quote)].slice(0, MAX_TERMS);
  return ws.length > 0 ? ws.join(" ") : null;
}

/** Any word may match; stop words dropped when something else is left. */
export function wordsOr(words: string[]): string | null {
  const content = words.filter((w) => !STOP_WORDS.has(w));
  const ws = (content.length > 0 ? content : words).slice(0, MAX_TERMS);
  return ws.length > 0 ? ws.map(quote).join(" OR ") : null;
}

export function trigramsOf(s: string): string[] {
  const cps = [...s.toLowerCase()];
  const out: string[] = [];
  for (let i = 0; i + 3 <= cps.length; i++) out.push(cps.slice(i, i + 3).join(""));
  return unique(out);
}

/** Every trigram of every substring must be present (candidates; the substring is verified after). */
export function substringsAnd(substrings: string[]): string | null {
  const grams = unique(substrings.flatMap((s) => evenly(trigramsOf(s), MAX_TRIGRAMS)));
  return grams.length > 0 ? grams.map(quote).join(" AND ") : null;
}

/** At most n items, spread evenly over xs. */
export function evenly<T>(xs: T[], n: number): T[] {
  if (xs.length <= n) return xs;
  return Array.from({ length: n }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (n - 1))]!);
}
