/**
 * What search finds on a line and the character tests it finds it with: a query's terms, their
 * occurrences, where a word starts, whole tokens and keys. Shared by lines.ts and the finders it
 * calls (joined-parts.ts), which need the same tests.
 */

export type TermKind = "concept" | "ident" | "phrase";
export type Term = {
  kind: TermKind;
  /** Concept: its words; ident and phrase: the text, lower-cased. */
  parts: string[];
  /** What is looked for of each part: the last word of a concept as a stem ("fail" for "failed"). */
  forms: string[];
  number: boolean;
  weight: number;
  /** The concept's place in the query (phrases and idents: -1). */
  concept: number;
  /** The query asks how many: an occurrence with a count next to it is worth more. */
  count?: boolean;
  /** The thing the query asks how many of ("errors" of "how many errors in the run"): a count of it answers wherever it is. */
  countedThing?: boolean;
  /** A concept's short forms (abbreviations.ts), found as whole parts of identifiers where the word is not. */
  short: string[];
  /**
   * Its other short forms (clippings and contractions, abbreviations.ts), for a text that also
   * writes the word out: found only as a part of one identifier with another word of the query
   * (`FLT_EPSILON` for "float epsilon"), where the identifier says what the short form stands for.
   */
  joinedShort?: ReadonlySet<string>;
  /** The concept is the word "version": a version number written next to another word of the query says it (`Valgrind-3.19.0`, `openapi: 3.0.3`). */
  version?: boolean;
  /** The concept is the word "size": a size in bytes on a line with another word of the query says it (`7.7kb`, `14 MB`). */
  size?: boolean;
};
export type Occurrence = {
  term: number;
  at: number;
  end: number;
  /** A whole token of the line, not a piece of a longer one. */
  whole: boolean;
  /** Written as in the query, not in another inflection ("servers" for "servers", not "server"). */
  exact: boolean;
  /** A concept's words found apart on the line, not written together (`random.py:385(sample)` for "random.sample"). */
  loose?: boolean;
  key: boolean;
  zero: boolean;
  /** In the last part of a path (`jvm/temurin-25-jdk`, not `jvm/temurin-25-jdk/lib/ct.sym`): the entry it names, not one under it. */
  leaf?: boolean;
  /** A number stands right before it ("4 tests failed") or is its value ("errorCount":5); looked for when the query asks how many. */
  counted?: boolean;
  /** A short form of the concept (`sched` for "scheduler"), not the word. */
  short?: boolean;
  /** Not a whole token, but its start (`errno@@GLIBC`, not `__h_errno`): what the token names, not a part of a longer name. */
  head?: boolean;
  /** A short form that counts only next to another concept in one identifier (Term.joinedShort). */
  joined?: boolean;
};

export const isDigit = (c: number) => c >= 48 && c <= 57;
export const isUpper = (c: number) => c >= 65 && c <= 90;
export const isLower = (c: number) => c >= 97 && c <= 122;
export const isWordChar = (c: number) => isDigit(c) || isUpper(c) || isLower(c) || c > 127;

/** Position i of the line starts a word: after a non-word character, or at a camelCase edge. */
export function wordStart(orig: string, i: number): boolean {
  if (i === 0) return true;
  const p = orig.charCodeAt(i - 1);
  if (!isWordChar(p)) return true;
  const c = orig.charCodeAt(i);
  if (isLower(p) && isUpper(c)) return true;
  if (isUpper(p) && isUpper(c) && isLower(orig.charCodeAt(i + 1))) return true;
  return isDigit(p) !== isDigit(c);
}

export const isSpace = (c: number) => Number.isNaN(c) || c === 32 || c === 9 || c === 34 || c === 39 || c === 96;
/** Quotes and brackets that close a key before its `:` or `=`: `"` `'` `` ` `` `)` `]`. */
const isCloser = (c: number) => c === 34 || c === 39 || c === 96 || c === 41 || c === 93;
/** Punctuation that ends a sentence or a list: `, . ; : ) ] }`. */
const isEnding = (c: number) => c === 44 || c === 46 || c === 59 || c === 58 || c === 41 || c === 93 || c === 125;

/** The token around [at, end) is a whole token of the line ("openssl" alone, not in "libssl-openssl:amd64"). */
export function wholeToken(lower: string, at: number, end: number): boolean {
  if (!isSpace(lower.charCodeAt(at - 1))) return false;
  const c = lower.charCodeAt(end);
  if (isSpace(c)) return true;
  // Punctuation that ends a sentence or a list, not a dot or colon inside a longer token.
  return isEnding(c) && !isWordChar(lower.charCodeAt(end + 1));
}

/** A key: what a value follows (`Key:`, `"key":`, `key=`, `--name:`), or the first word of the line. */
export function isKey(lower: string, at: number, end: number): boolean {
  let j = end;
  while (j < lower.length && isCloser(lower.charCodeAt(j))) j++;
  while (j < lower.length && j - end < 4 && (lower.charCodeAt(j) === 32 || lower.charCodeAt(j) === 9)) j++;
  const c = lower[j];
  if (c === ":" && lower[j + 1] !== "/" && lower[j + 1] !== ":") return true;
  if (c === "=" && lower[j + 1] !== "=") return true;
  let i = 0;
  while (i < at && !isWordChar(lower.charCodeAt(i))) i++;
  return i === at;
}
