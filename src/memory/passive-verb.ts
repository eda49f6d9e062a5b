/**
 * The verb of a question in the passive: "where are the golden files kept", "what polygons are the
 * map regions drawn from", "which release is the build pinned to". It names how the subject relates
 * to the answer, and a statement giving the answer says that relation in its own words ("golden
 * snapshots live in test/resources", "health board polygons from hb_2024.geojson", "with-compiler:
 * ghc-9.6.4"), or in none: a verb is paraphrased far more often than the nouns it joins. So a hit
 * that does not hold it is not short of it (gate.ts heldFor). Not in a "how" question: there the
 * verb is what is asked ("how is a save file encrypted").
 */
import { foldText, wordsOf } from "./stem.ts";
import { isStopWord } from "./stopwords.ts";

/** The auxiliaries of the English passive: a form of "be", or of "get" ("gets deleted"). */
const AUX = /^(?:is|are|was|were|be|been|being|get|gets|got)$/;
/**
 * Past participles of common English irregular verbs (those not ending in -ed), as any grammar's
 * table of irregular verbs lists them; "left" is left out, it is mostly the side.
 */
const IRREGULAR =
  /^(?:kept|drawn|written|made|built|sent|held|set|put|run|read|done|given|taken|shown|known|found|bound|hidden|chosen|spoken|frozen|thrown|grown|sold|told|paid|laid|lost|meant|spent|stuck|hung|won|brought|bought|caught|taught|fed|led|shut|split|spread|cut)$/;
/** A regular participle: three letters or more, then -ed ("pinned", "hosted"; not "red", "bed"). */
const REGULAR = /^\p{L}{3,}ed$/u;

/**
 * The participle after the question's auxiliary and its subject ("where is the staging environment
 * hosted": hosted), or null ("how is X encrypted"). Only the subject after the auxiliary: in
 * "which release is pinned" the verb is the question's one predicate.
 */
export function passiveParticiple(query: string): string | null {
  const words = wordsOf(foldText(query));
  if (words[0] === "how") return null;
  const aux = words.findIndex((w) => AUX.test(w));
  if (aux === -1) return null;
  return words.slice(aux + 2).find((w) => !isStopWord(w) && (REGULAR.test(w) || IRREGULAR.test(w))) ?? null;
}
