/**
 * Words written together: "CODEOWNERS" holds "code", "openexchangerates" holds "exchange" and
 * "rates". The index splits camel case and snake case, not a closed compound, so a query word
 * said only inside one is otherwise missed (rank.ts counts it at PART_WEIGHT).
 */
import type { WeightedGroup } from "./candidates.ts";
import { remembered } from "./remember.ts";

/** What a word held only as a part of a closed compound ("codeowners", "openexchangerates") holds of its weight. */
export const PART_WEIGHT = 0.8;
/** The shortest query word, and the shortest other part, a closed compound is split at. */
const MIN_PART = 4;

/**
 * The query groups a text holds only as a part of a closed compound, a run of letters written
 * without a break or a change of case (camel case and snake case are split by the index already):
 * the query word's own form at the start, in the middle or at the end, the rest on each side
 * MIN_PART letters or none. Compound splitting at a known word (Koehn and Knight, "Empirical
 * methods for compound splitting", EACL 2003), the query word being the known part.
 */
export function compoundParts(text: string, groups: WeightedGroup[]): Set<number> {
  const out = new Set<number>();
  const long = compoundsOf(text);
  if (long.length === 0) return out;
  for (const g of groups) {
    const word = g.word.toLowerCase();
    if (word.length < MIN_PART || !/^\p{L}+$/u.test(word)) continue;
    for (const w of long) {
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

const keptCompounds = remembered<string[]>(20_000);
/** A text's runs of letters long enough to be two words of MIN_PART, each once. */
const COMPOUND = new RegExp(`(?<![\\p{L}\\p{N}])(?:\\p{Ll}{${2 * MIN_PART},}|\\p{Lu}{${2 * MIN_PART},})(?![\\p{L}\\p{N}])`, "gu");
const compoundsOf = (text: string) => keptCompounds(text, () => [...new Set((text.match(COMPOUND) ?? []).map((w) => w.toLowerCase()))]);
