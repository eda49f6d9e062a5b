/**
 * Words written together: "CODEOWNERS" holds "code", "openexchangerates" holds "exchange" and
 * "rates". The index splits camel case and snake case, not a closed compound, so a query word
 * said only inside one is otherwise missed (rank.ts counts it at PART_WEIGHT).
 */
import type { WeightedGroup } from "./candidates.ts";

/** What a word held only as a part of a closed compound ("codeowners", "openexchangerates") holds of its weight. */
export const PART_WEIGHT = 0.8;
/** The shortest query word, and the shortest other part, a closed compound is split at. */
const MIN_PART = 4;

/**
 * The query groups a text holds only as a part of a closed compound, a word written without a
 * break ("codeowners", "CODEOWNERS"; the index splits snake case and camel case too, but not
 * this): the query word at the start, in the middle or at the end, the rest on each side MIN_PART
 * letters or none. Compound splitting at a known word (Koehn and Knight, "Empirical methods for
 * compound splitting", EACL 2003), the query word being the known part. `long`: the text's long
 * words, folded (query.ts longWordsOf).
 */
export function compoundParts(long: string, groups: WeightedGroup[], held: ReadonlyMap<number, number>): Set<number> {
  const out = new Set<number>();
  if (long === "") return out;
  for (const g of groups) {
    const word = g.word;
    // One scan of all the long words for the word; most texts hold it in none.
    if (word.length < MIN_PART || held.has(g.group) || !long.includes(word)) continue;
    for (const w of long.slice(1).split(" ")) {
      const at = w.indexOf(word);
      if (at === -1) continue;
      const after = w.length - at - word.length;
      if ((at === 0 || at >= MIN_PART) && (after === 0 || after >= MIN_PART) && at + after > 0) {
        out.add(g.group);
        break;
      }
    }
  }
  return out;
}
