/**
 * The verb of a question in the passive: "where are the nightly dumps stored", "what are the map
 * tiles drawn from". It names how the subject relates to the answer, and a statement giving the
 * answer says that relation in its own words ("nightly dumps land in s3://ops-dumps", "tiles come
 * from the OSM extract"), or in none: a verb is paraphrased far more often than the nouns it joins.
 * So it is left out of what a hit must hold (gate.ts heldFor). Not in a "how" question: there the
 * verb is what is asked ("how is the session cookie signed").
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
 * The participle after the question's auxiliary and its subject ("where is the preview site
 * hosted": hosted), or null ("how is X encrypted"). Only the subject after the auxiliary: in
 * "which release is pinned" the verb is the question's one predicate. The participle ends the
 * subject, so it comes before a stop word or the end; one before a content word is inside the
 * subject, an adjective or noun ("where is the shared config stored": stored, not shared; "the
 * read replica"). When none ends the subject so, the last one. A participle that is itself a stop
 * word ("kept", "used") is found, so a word after it ("kept for archived projects") is not taken
 * for the verb; the query's words hold no stop word (query.ts), so none is left out for it.
 */
export function passiveParticiple(query: string): string | null {
  const words = wordsOf(foldText(query));
  if (words[0] === "how") return null;
  const aux = words.findIndex((w) => AUX.test(w));
  if (aux === -1) return null;
  const rest = words.slice(aux + 2);
  const at = rest.flatMap((w, i) => (REGULAR.test(w) || IRREGULAR.test(w) ? [i] : []));
  const i = at.find((i) => rest[i + 1] === undefined || isStopWord(rest[i + 1]!)) ?? at.at(-1);
  return i === undefined ? null : rest[i]!;
}
