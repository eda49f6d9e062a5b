/**
 * A query word the text writes apart: "growthfactor" for `growth_factor`, "innodblockwaittimeout"
 * for `innodb-lock-wait-timeout`. The reverse of search.ts's compounds (query words apart, text
 * together): a run of letters no text holds is cut into the fewest words the text does hold, so
 * the concept is looked for with its words apart, joined by anything (lines.ts), or together.
 */

/** A part shorter than this says too little to be a word of its own (`a`, `in` would cut anything). */
export const MIN_PART = 3;
/** At most this many parts (a name of more words is seldom typed run together). */
export const MAX_PARTS = 4;
/** Shorter runs are left alone: two parts of MIN_PART letters. */
const MIN_WORD = 2 * MIN_PART;
/** Longer runs are left alone (each possible part is a lookup). */
const MAX_WORD = 32;
/** Lookups one split may cost at most: past them, no split (a long run of letters that is no name). */
const MAX_LOOKUPS = 96;

/**
 * The fewest words (2 to MAX_PARTS, each at least MIN_PART letters, each one `exists` says the
 * text holds) that written together make `word`; among as few, the one whose first words are
 * longest. Null when there is none, or when the word is not a run of letters.
 */
export function splitWord(word: string, exists: (w: string) => boolean): string[] | null {
  if (word.length < MIN_WORD || word.length > MAX_WORD || !/^\p{L}+$/u.test(word)) return null;
  const known = new Map<string, boolean>();
  let lookups = 0;
  const has = (w: string) => {
    const seen = known.get(w);
    if (seen !== undefined) return seen;
    lookups++;
    const found = exists(w);
    known.set(w, found);
    return found;
  };
  // best[i]: the fewest parts making word.slice(i), or null; filled from the end.
  const best: (string[] | null)[] = new Array(word.length + 1).fill(null);
  best[word.length] = [];
  for (let i = word.length - MIN_PART; i >= 0; i--) {
    // The longest first part first: among splits of as few parts, the first found is kept.
    for (let j = word.length; j >= i + MIN_PART; j--) {
      const rest = best[j];
      if (!rest || rest.length + 1 > MAX_PARTS) continue;
      if (best[i] && best[i]!.length <= rest.length + 1) continue;
      if (j - i === word.length) continue;
      if (lookups >= MAX_LOOKUPS) return null;
      const part = word.slice(i, j);
      if (has(part)) best[i] = [part, ...rest];
    }
  }
  const parts = best[0];
  return parts && parts.length >= 2 ? parts : null;
}
