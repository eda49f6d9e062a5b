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

/** The words of a run, camelCase split. */
function runWords(run: string): string[] {
  return camelWords(run) ?? [run.toLowerCase()];
}

const MAX_KEY = 64;
const MAX_KEY_WORDS = 8;

const isKeyChar = (c: number) =>
  (c >= 48 && c <= 57) ||
  (c >= 65 && c <= 90) ||
  (c >= 97 && c <= 122) ||
  c === 95 ||
  c === 36 ||
  c === 46 ||
  c === 45 ||
  c === 47 ||
  c === 64 ||
  c > 127;
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c === 64 || c > 127;
/** What may stand before a key: a line's start, space, or an opening bracket or separator. */
const isKeyBoundary = (c: number) => Number.isNaN(c) || c <= 32 || c === 123 || c === 44 || c === 59 || c === 40 || c === 91;

/**
 * The keys of a text: what a value follows (`Homepage: ...`, `"version": "1.0"`,
 * `--bs-primary:#0d6efd`, `maxRetryCount = 3`, `- url: ...`), not a URL's scheme, `::`, or a
 * comparison. One pass over the separators, walking back to each key's start.
 */
function keysOf(text: string, add: (key: string) => void): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 58 && c !== 61) continue;
    const next = text.charCodeAt(i + 1);
    if (next === 58 || next === 61 || next === 47) continue;
    let j = i - 1;
    const prev = text.charCodeAt(j);
    if (prev === 58 || prev === 61 || prev === 33 || prev === 60 || prev === 62) continue;
    while (j >= 0 && i - j <= 3 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j--;
    const quote = text.charCodeAt(j) === 34 || text.charCodeAt(j) === 39 ? text.charCodeAt(j) : 0;
    if (quote) j--;
    const end = j + 1;
    while (j >= 0 && end - j <= MAX_KEY && isKeyChar(text.charCodeAt(j))) j--;
    let start = j + 1;
    if (quote && text.charCodeAt(j) === quote) j--;
    if (end - start > MAX_KEY || !isKeyBoundary(text.charCodeAt(j))) continue;
    while (start < end && text.charCodeAt(start) === 45) start++;
    if (start < end && isLetter(text.charCodeAt(start))) add(text.slice(start, end));
  }
}

const isAsciiAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAsciiLower = (c: number) => c >= 97 && c <= 122;
const isAsciiUpper = (c: number) => c >= 65 && c <= 90;

/** The ASCII letter-and-digit runs with a camelCase edge and few enough parts to be names (one pass, no regex). */
function asciiCamelTokens(text: string, add: (token: string) => void): void {
  let start = -1;
  let edges = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (isAsciiAlnum(c)) {
      if (start < 0) {
        start = i;
        edges = 0;
      } else if (isAsciiUpper(c) && isAsciiLower(text.charCodeAt(i - 1))) edges++;
      continue;
    }
    if (start >= 0 && edges > 0 && edges < MAX_PARTS && i - start <= MAX_KEY) add(text.slice(start, i));
    start = -1;
  }
}

/** The words of an ASCII key, lower-cased, space-separated: letter and digit runs, split at camelCase edges and between letters and digits. */
function asciiKeyWords(key: string): { text: string; n: number } {
  let text = "";
  let n = 0;
  let prev = 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (!isAsciiAlnum(c)) {
      prev = 0;
      continue;
    }
    const digit = c <= 57;
    const edge =
      prev === 0 ||
      (isAsciiUpper(c) && isAsciiLower(prev)) ||
      (isAsciiUpper(c) && isAsciiUpper(prev) && isAsciiLower(key.charCodeAt(i + 1))) ||
      digit !== prev <= 57;
    if (edge) {
      if (n > 0) text += " ";
      n++;
    }
    text += isAsciiUpper(c) ? String.fromCharCode(c + 32) : key[i];
    prev = c;
  }
  return { text, n };
}

/** The words of a key: letter and digit runs, camelCase split, lower-cased. */
function keyWords(key: string): { text: string; n: number } {
  if (isAscii(key)) return asciiKeyWords(key);
  const words = [...key.matchAll(WORD_RUN)].flatMap((r) => runWords(r[0]));
  return { text: words.join(" "), n: words.length };
}

/**
 * What the word index holds besides the text, the chunk's names: the words of each distinct
 * camelCase identifier ("parallel gc threads" for `ParallelGCThreads`, so "gc threads" finds it)
 * and of each key (`--bs-border-radius-lg:` gives "bs border radius lg"), one per line. Weighted
 * up, they put the chunk that defines a name before chunks that only use it.
 */
export function namesText(text: string): string {
  const ascii = isAscii(text);
  const tokens = new Set<string>();
  if (ascii) {
    if (ASCII_CAMEL_EDGE.test(text)) asciiCamelTokens(text, (t) => tokens.add(t));
  } else if (CAMEL_EDGE.test(text)) {
    for (const m of text.matchAll(WORD_RUN)) if (m[0].length <= MAX_KEY && CAMEL_EDGE.test(m[0])) tokens.add(m[0]);
  }
  const keys = new Set<string>();
  keysOf(text, (k) => keys.add(k));
  const out = new Set<string>();
  for (const t of tokens) {
    const words = camelWords(t);
    if (words) out.add(words.join(" "));
  }
  for (const k of keys) {
    const words = keyWords(k);
    if (words.n > 0 && words.n <= MAX_KEY_WORDS) out.add(words.text);
  }
  return [...out].join("\n");
}
