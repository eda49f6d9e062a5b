/** The word form of code the search index holds, and the index query for a search term. */

/**
 * `getPathNoStrict` -> `get Path No Strict`, `HTTPException` -> `HTTP Exception`; the tokenizer splits
 * the rest. Both patterns look one character ahead at most: linear on any text (`([A-Z]+)([A-Z][a-z])`
 * backtracks quadratically on a long run of capitals).
 */
export function splitIdentifiers(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z])(?=[A-Z][a-z])/g, "$1 ");
}

/** Words of one term, lower-cased, as the tokenizer would make them (letters and digits; the rest separates). */
export function termWords(term: string): string[] {
  return splitIdentifiers(term)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Every term's words as prefixes (`get* AND path*`): a candidate filter, confirmed by reading the files. */
export function wordQuery(terms: string[]): string | null {
  const words = terms.flatMap(termWords);
  if (words.length === 0) return null;
  return [...new Set(words)].map((w) => `"${w}"*`).join(" AND ");
}
