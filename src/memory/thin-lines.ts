/**
 * A summary line is a digest's copy of an older event, found through the summaries' own index by
 * the query's rarest words. One holding less than the share of the query a hit needs (let in only
 * as a record about one of the query's words, search.ts) and scoring below THIN_MARGIN of the best
 * hit is one of the many things said about that word, not the statement on the question: an
 * answer stands out, and a line that does not is left out.
 */
import { type Hit, hitScore, keepLines, type Unit } from "./units.ts";

/** A thin summary line is kept when it scores at least this share of the best hit. */
export const THIN_MARGIN = 0.5;

/**
 * The hits (in their order), less summary lines holding less than `enough` of the query's weight far
 * below the best hit. `held`: what a line holds of the query (its words' weight, and what the gate
 * counts besides: a value standing for a word, search.ts).
 */
export function dropThinLines(hits: Hit[], enough: number, held: (line: Unit) => number = (l) => l.match.held): Hit[] {
  const best = Math.max(0, ...hits.map(hitScore));
  return hits.filter((h) => h.type === "event" || keepLines(h, (l) => held(l) >= enough || l.score >= THIN_MARGIN * best));
}
