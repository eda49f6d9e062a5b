/**
 * A verb's nouns and a noun's verbs that English derives with more than an inflection and that
 * the suffix rules of morphology.ts cannot reach: "store" and "storage", "decide" and "decision",
 * "fail" and "failure", "analyze" and "analysis". From WordNet 3.1's derivationally related forms
 * (derivation-pairs.ts), so the pairs are English's, not any history's.
 */
import { DERIVATION_PAIRS } from "./derivation-pairs.ts";

let partners: Map<string, string[]> | null = null;

function table(): Map<string, string[]> {
  if (partners) return partners;
  const out = new Map<string, string[]>();
  const link = (a: string, b: string) => {
    const list = out.get(a);
    if (!list) out.set(a, [b]);
    else if (!list.includes(b)) list.push(b);
  };
  for (const entry of DERIVATION_PAIRS.split("|")) {
    const [verb, noun] = entry.split(" ");
    if (!verb || !noun) continue;
    link(verb, noun);
    link(noun, verb);
  }
  partners = out;
  return out;
}

/** The words WordNet derives from a word or the word from (a verb's nouns, a noun's verbs), none when it lists none. */
export function derivedWords(word: string): readonly string[] {
  return table().get(word) ?? [];
}
