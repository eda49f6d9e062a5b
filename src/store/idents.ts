/**
 * Identifier-like tokens: what the substring (trigram) index holds, and what a query looks up
 * in it. Plain words are the word index's job (stemmed, with prefixes); the trigram index only
 * needs tokens a word index cannot find inside: paths, ids, hashes, versions, error codes,
 * snake_case and camelCase names. Text and queries are split the same way, so a query token is
 * always inside one indexed token.
 */

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
