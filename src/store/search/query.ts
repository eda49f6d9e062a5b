/**
 * Turns any user query string into safe FTS5 queries. Nothing the user typed reaches FTS5
 * syntax: words become quoted terms, identifier substrings become quoted trigrams, so quotes,
 * colons, parentheses, `-`, `*`, NEAR, AND/OR and any unicode are just text.
 */
import { identifierTokens } from "../idents.ts";

export type ParsedQuery = {
  /** Lower-cased words for the word index (unicode letters and digits). */
  words: string[];
  /** Quoted phrases: their words, in order, and their text, lower-cased. */
  phrases: { words: string[]; text: string }[];
  /** Identifier-like tokens outside quotes (paths, ids, versions, camelCase), lower-cased. */
  idents: string[];
  /** The whole query, lower-cased and with runs of space collapsed (to find it verbatim). */
  whole: string;
};

const STOP_WORDS = new Set(
  "a an and are as at be but by for from has have in into is it its of on or that the this to was were will with what where which who how why when do does did not no".split(
    " ",
  ),
);
const MAX_TERMS = 12;
const MAX_TRIGRAMS = 8;

const wordsOf = (text: string) => [...text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]);
const unique = <T>(xs: T[]): T[] => [...new Set(xs)];

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
  };
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

/** Every word as the start of an indexed word ("conn" finds "connection"). */
export function wordsPrefixAnd(words: string[]): string | null {
  const ws = words.filter((w) => w.length >= 3).slice(0, MAX_TERMS);
  return ws.length > 0 ? ws.map((w) => `${quote(w)}*`).join(" ") : null;
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
