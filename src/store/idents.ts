/**
 * Identifier-like tokens: what the substring (trigram) index holds, and what a query looks up
 * in it. Plain words are the word index's job (stemmed, with prefixes); the trigram index only
 * needs tokens a word index cannot find inside: paths, ids, hashes, versions, error codes,
 * snake_case and camelCase names. Text and queries are split the same way, so a query token is
 * always inside one indexed token.
 */

import { isAscii } from "../text.ts";

/** Runs of characters between whitespace, quotes, brackets, commas and semicolons. */
const TOKEN = /[^\s"'`()[\]{}<>,;]+/g;
const NOT_A_LETTER = /[^\p{L}]/u;
const CAMEL = /\p{Ll}\p{Lu}/u;

export const MIN_IDENT = 4;

/** Worth a trigram lookup: at least 4 characters with a digit or punctuation, or camelCase. */
export function isIdentifierLike(token: string): boolean {
  return token.length >= MIN_IDENT && (NOT_A_LETTER.test(token) || CAMEL.test(token));
}

/** A token without the punctuation that ends a sentence or opens a list (`foo.`, `:bar`, `x=`). */
function trim(token: string): string {
  return token.replace(/^[.:=!?*#]+|[.:=!?*]+$/g, "");
}

export function identifierTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const t = trim(m[0]);
    if (isIdentifierLike(t)) out.push(t);
  }
  return out;
}

/**
 * The text the trigram index gets for a chunk: its distinct identifier-like tokens, one per line
 * (the index keeps no positions or counts, so a repeat would only cost time).
 */
export function identifierText(text: string): string {
  return [...new Set(identifierTokens(text))].join("\n");
}

/** Letters and digits runs: the tokens the word index (unicode61) makes. */
const WORD_RUN = /[\p{L}\p{N}]+/gu;
/** The words of a run written together: an acronym before a capitalised word, a capitalised or lower-case word, an acronym, digits. */
const CAMEL_PART = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[^\p{L}\p{N}]+/gu;
/** A lower-case letter then a capital: where camelCase starts a word. */
const CAMEL_EDGE = /\p{Ll}\p{Lu}/u;
/** ASCII text with no camelCase anywhere skips the token scan. */
const ASCII_CAMEL_EDGE = /[a-z][A-Z]/;
/** More words than this is not a name but an id or base64 (`VqcNGcj...`). */
const MAX_PARTS = 6;

/**
 * The words of an identifier written together, lower-cased: camelCase, PascalCase and acronyms
 * ("ParallelGCThreads" -> parallel gc threads, "maxRetryCount" -> max retry count), digit runs
 * apart. Null when the run has no camelCase edge, or too many parts to be a name.
 */
export function camelWords(run: string): string[] | null {
  if (!CAMEL_EDGE.test(run)) return null;
  const parts = run.match(CAMEL_PART) ?? [];
  if (parts.length < 2 || parts.length > MAX_PARTS) return null;
  return parts.map((p) => p.toLowerCase());
}

/**
 * What the word index gets besides the text: the words of each distinct camelCase identifier,
 * one identifier per line ("parallel gc threads"), so "parallel gc threads" and "gc threads" find
 * `ParallelGCThreads`. Empty for text without camelCase (most logs), at the cost of one scan.
 */
export function identifierWordsText(text: string): string {
  if (isAscii(text) ? !ASCII_CAMEL_EDGE.test(text) : !CAMEL_EDGE.test(text)) return "";
  const out = new Set<string>();
  for (const m of text.matchAll(WORD_RUN)) {
    if (m[0].length > 64) continue;
    const words = camelWords(m[0]);
    if (words) out.add(words.join(" "));
  }
  return [...out].join("\n");
}
