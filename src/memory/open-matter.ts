/**
 * When what the memory holds on the whole question is an open matter, part of it is no answer.
 * A hit holding every word of the query the memory knows (two or more) that reads as open (a
 * question, or a note marked as work still to do: the TODO, FIXME and XXX tags of ESLint's
 * no-warning-comments rule, eslint.org/docs/latest/rules/no-warning-comments) says the subject came
 * up and was not settled. A hit ranked below it holding only some of those words speaks of
 * something else that shares a word (the budget of another thing, the owner of another job), and
 * is left out; hits holding them all stay, the open matter first among them. A statement that the
 * matter is unsettled ("retention: not decided yet") holding all the known words but one opens it
 * the same way: below it, what holds fewer of them than it does is left out. A question is answered
 * after it is asked: when the first open matter among the hits is a question, an event said after
 * it (its reply, a later decision in other words) stays; a summary's lines below it still hold the
 * whole question, and a TODO or an unsettled statement stays open until a statement on the whole
 * question settles it.
 */
import { units } from "./conflicts.ts";
import { isStopWord } from "./stopwords.ts";
import { lineBody } from "./summary-line.ts";
import { type Hit, keepLines, type Unit } from "./units.ts";

const OPEN = /\?|\b(?:todo|fixme|xxx)\b/i;
/**
 * A question said without its question mark: a text that begins the way English asks, a wh-word
 * and then an auxiliary verb before the subject ("where's the signing key for ...", "what is the
 * ...", "whats the ...", "how do we ..."). A wh-word followed by a subject ("when the cache misses,
 * ...", "how we deploy: ...") begins a statement.
 */
const ASKS =
  /^\W*(?:who|what|which|where|when|why|how)(?:['’]?(?:s|re)\b|\s+(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have)\b)/i;

/**
 * A statement that says the matter is not settled: "retention is not decided yet", "owner
 * unknown", "still undecided", "TBD". The placeholders TBD, TBA and TBC (to be decided,
 * announced, confirmed) and the plain English ways of saying a thing is undecided, unknown or
 * unsure (the uncertainty cues hedge detection looks for: not known, unclear, not sure; Farkas et
 * al., "The CoNLL-2010 Shared Task: Learning to Detect Hedges and their Scope in Natural Language
 * Text", 2010).
 */
const UNSETTLED =
  /\b(?:tbd|tba|tbc|still open|to be (?:decided|determined|confirmed)|not (?:yet )?(?:decided|settled|sure|known|clear)|(?:have|has|had)(?:n'?t| not) (?:yet )?(?:decided|settled|figured out))\b/i;
/**
 * Undecided, unresolved, unclear, unknown (cues of the same kind) when said of the matter
 * (predicative: "owner unknown", "the cause is unclear, ...",
 * "unresolved for now"), not of a noun they stand before (attributive: "crashes on an unknown id",
 * "an unresolved import", "unclear error message"), which names a thing and settles nothing. In
 * English the attributive adjective comes right before its noun; a stop word (SMART's) or the end
 * of the clause after it is no noun.
 */
const UNSETTLED_ADJECTIVE = /\b(?:undecided|unresolved|unclear|unknown)\b(?:[ \t]+([\p{L}\p{N}_'-]+))?/giu;
const saysUnsettled = (body: string): boolean =>
  UNSETTLED.test(body) || [...body.matchAll(UNSETTLED_ADJECTIVE)].some((m) => m[1] === undefined || isStopWord(m[1].toLowerCase()));

/** Whether a text asks: a question mark, or begun as a question (ASKS). */
const asks = (body: string) => body.includes("?") || ASKS.test(body);

/** Whether a statement reads as an open matter: a question (with its mark, or begun as one: ASKS), work marked as still to do, or a matter said to be unsettled (UNSETTLED). */
export const readsOpen = (text: string) => {
  const body = lineBody(text);
  return OPEN.test(body) || ASKS.test(body) || saysUnsettled(body);
};

/**
 * The hits (best first), less those below an open matter on the whole query that hold only part
 * of it. What replaced a statement that stays, stays with it (a replaced statement and what
 * replaced it stand or fall together, search.ts): the correction of a statement on the whole
 * question is the answer to it, whatever words it says it in.
 */
export function belowOpenMatter(hits: Hit[], known: number): Hit[] {
  if (known < 2) return hits;
  let need = known;
  const whole = (u: Unit) => u.match.matched >= need;
  // A statement that the matter is unsettled holding all the known words but one opens it too; below it, what holds fewer is left out.
  const unsettledOpener = (u: Unit) => u.match.matched >= Math.max(2, known - 1) && saysUnsettled(lineBody(u.text));
  let open = false;
  // When the matter was opened by a question: what was said after it may answer it.
  let askedAt = Number.POSITIVE_INFINITY;
  const kept: Hit[] = [];
  const later: Hit[] = [];
  for (const h of hits) {
    const own = units([h]);
    if (open) {
      if (h.type === "event" && !whole(h.unit) && h.row.id < askedAt) {
        later.push(h);
        continue;
      }
      if (h.type === "summary" && !keepLines(h, whole)) continue;
    }
    kept.push(h);
    const openers = own.filter((u) => whole(u) && readsOpen(u.text));
    if (openers.length > 0) {
      if (!open) askedAt = Math.min(...openers.filter((u) => asks(lineBody(u.text))).map((u) => u.event ?? Number.POSITIVE_INFINITY));
      open = true;
    } else if (!open && own.some(unsettledOpener)) {
      open = true;
      need = Math.min(...own.filter(unsettledOpener).map((u) => u.match.matched));
    }
  }
  const replacing = new Set(units(kept).flatMap((u) => (u.replacedBy === null ? [] : [u.replacedBy])));
  const back = new Set(later.filter((h) => h.type === "event" && replacing.has(h.row.id)));
  return back.size === 0 ? kept : hits.filter((h) => kept.includes(h) || back.has(h));
}
