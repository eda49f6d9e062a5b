/**
 * The gate of memory_search: whether a hit holds enough of the query to answer it, or is a guess
 * (a share of the query's known words, a rare word, a record about the query's subject, a value of
 * the kind a quantity question asks for, what a "how many" question counts). search.ts ranks,
 * this decides what may be shown.
 */

import { clippings } from "./abbreviations.ts";
import {
  asksClockTime,
  asksPerson,
  asksQuantity,
  asksWhen,
  countedWords,
  countPattern,
  frequencyFocus,
  holdsClockTime,
  holdsCount,
  holdsWhen,
  namesSomeone,
  quantityFocus,
  requiredValues,
  versionCompound,
  versionOf,
} from "./answer-type.ts";
import type { WeightedGroup } from "./candidates.ts";
import { asksEnvName, namesEnvName } from "./env-name.ts";
import { aboutQuery } from "./holds-now.ts";
import { DERIVED_WEIGHT, familyKey } from "./morphology.ts";
import { passiveParticiple } from "./passive-verb.ts";
import { asksPlace, namesPlace } from "./place.ts";
import type { QueryGroup } from "./query.ts";
import type { TextScore } from "./rank.ts";
import { foldText, wordsOf } from "./stem.ts";
import { isStopWord } from "./stopwords.ts";
import { lineBody } from "./summary-line.ts";
import type { Unit } from "./units.ts";
import { holdsQuantity, holdsValueFor } from "./value-kinds.ts";

/** A hit holds at least this share of the weight of the query's words the memory holds. */
export const MIN_SHARE = 0.4;
/**
 * A hit holding two or more of the query's words is no one-word guess: this share will do. The
 * question's other words are often said otherwise in it ("which queue do the nightly exports go
 * to" and "exports now run nightly from a rabbitmq consumer").
 */
export const LOOSE_SHARE = 0.3;
/**
 * A record about one of the query's words (aboutQuery) is the memory's statement on it: a quarter
 * of the known words' weight will do (a paraphrased question shares one word of three or four
 * with the record that answers it).
 */
export const RECORD_SHARE = 0.25;
/**
 * An agent's answer stating a fact about the most specific of the query's words it holds (the
 * one fewest rows hold), and holding another of them, is the nearest thing to a record: what was
 * found and said about that subject. CLAIM_SHARE of the known words will do, as for any hit
 * holding two of them (LOOSE_SHARE), and however many of the question's words the memory never
 * heard: those are said otherwise in it.
 */
export const CLAIM_SHARE = 0.3;
/** A query with more than this many words for each word the memory knows is mostly unknown to it. */
const MOSTLY_UNKNOWN = 3;
/**
 * A rare word names something specific: it is in at most 1% of the project's rows, or, in a short
 * history (where 1% is a row or two), in at most RARE_ROWS of them; never in a tenth of them (in a
 * history of a few events every word is in few).
 */
const RARE_SHARE = 0.01;
const RARE_ROWS = 8;
const NEVER_RARE_SHARE = 0.1;
export const isRare = (g: WeightedGroup) => g.df <= Math.min(NEVER_RARE_SHARE * g.rows, Math.max(RARE_ROWS, RARE_SHARE * g.rows));

/**
 * Whether a match holds a rare word of the query (isRare) in its own form or one of its family
 * (morphology.ts: DERIVED_WEIGHT and up), not only as a short form or initials (abbreviations.ts,
 * phrases.ts): "lts" in a text is no evidence of "lighthouse" in the query, and a short form
 * that happens to be in one or two rows makes the word look rare without being so.
 */
export function holdsRareWord(m: TextScore, rare: Set<number>): boolean {
  return [...m.groups.keys()].some((g) => rare.has(g) && (m.forms.get(g) ?? 0) >= DERIVED_WEIGHT);
}

/** Whether a match holds every one of the query's words the memory knows, two or more of them. */
export function holdsAllKnown(m: TextScore, known: number): boolean {
  return known >= 2 && m.matched >= known;
}

/** What a hit is judged against: the query, its groups, and those the memory holds with their weights. */
export type GateContext = {
  query: string;
  groups: QueryGroup[];
  scoring: WeightedGroup[];
  /** The weight of the query's words the memory holds. */
  knownWeight: number;
  /** The same, each word the memory does not hold counted as a typical one of the query. */
  asked: number;
  /** The rare groups (isRare). */
  rare: Set<number>;
  quantity: boolean;
  /**
   * "how often", "how frequently": only a frequency or period answers (holdsValueFor), not any
   * quantity ("18.5%" shares the question's words and answers nothing of how often).
   */
  often: string | null;
  /** The focus words whose value is required (requiredValues): "how long ...", "what interval ...": only a text holding a value of their kind answers. */
  required: string[];
  /** The known groups of the word naming the quantity a quantity question asks for (quantityFocus), with that word. */
  focus: Map<number, { idf: number; word: string }>;
  /** The words naming the quantity asked for (quantityFocus), known to the memory or not. */
  focusWords: string[];
  /** The rarest known groups besides the focus: a value answers the focus only in a text holding one of them. */
  anchor: Set<number>;
  /** "how often": the weight of a typical word of the query, held by a text holding a frequency said of the anchor (its word is a stop word, no group). */
  frequency: { weight: number; word: string } | null;
  /** Of the groups of what a "how many" question counts (countedWords) that the memory holds, the rarest (the word that narrows what is counted). */
  counted: Set<number>;
  /** "what time", "time of day": a time of day asked for (answer-type.ts asksClockTime). */
  clock: boolean;
  /** The known groups of what a version asked for is of (answer-type.ts versionCompound): a text holding none of them says another thing's version. */
  versioned: Set<number>;
  /** "when ..." or "what time ...": a time of day or a day of the week answers (answer-type.ts holdsWhen). */
  when: boolean;
  /** "how many ... can / may": what is allowed asked for, which a limit answers (statesLimit). */
  limit: boolean;
  /** "where ...": a place asked for (place.ts). */
  place: boolean;
  /** "which env var ...": an environment variable's name asked for (env-name.ts). */
  envName: boolean;
  /** "who ...": a person asked for; the known groups of the question's verb ("who approves ..."), which a text naming no one may hold instead. */
  person: { verb: Set<number> } | null;
  /** The known groups of the question's verb in the passive (passive-verb.ts), with their weight: left out of what a hit must hold. */
  passive: Map<number, number>;
  /** A count of the counted groups' forms (countPattern), and the weight of a typical word of the query, which such a count holds ("how many" is stop words). */
  count: { pattern: RegExp | null; weight: number };
};

/** Of the query's groups a unit holds, the one fewest rows hold (the most specific word it says). */
function narrowestHeld(u: Unit, scoring: WeightedGroup[]): WeightedGroup[] {
  let best: WeightedGroup | undefined;
  for (const g of scoring) if (u.match.groups.has(g.group) && (!best || g.df < best.df)) best = g;
  return best ? [best] : [];
}

/**
 * The groups of the first word after "who" and its auxiliaries ("who has to approve ...": approve).
 * "who is the X" has no verb: what follows a form of "be" is the person's role, which a text
 * naming no one holds as often.
 */
function verbGroups(query: string, scoring: WeightedGroup[]): Set<number> {
  const words = wordsOf(foldText(query)).slice(1);
  if (COPULA.test(words[0] ?? "")) return new Set();
  const verb = words.find((w) => !isStopWord(w));
  if (verb === undefined) return new Set();
  const key = familyKey(verb);
  return new Set(scoring.filter((g) => g.forms.some((f) => familyKey(f.word) === key)).map((g) => g.group));
}

const COPULA = /^(?:is|are|was|were|s|be|been)$/;

/** Whether a unit holds the query's word fewest rows hold (its most specific word). */
function holdsRarest(u: Unit, scoring: WeightedGroup[]): boolean {
  const held = narrowestHeld(u, scoring)[0];
  return held !== undefined && held.df === Math.min(...scoring.map((g) => g.df));
}

/** Whether a hit holds enough of the query to answer it. */
export type Gate = (c: GateContext) => (u: Unit) => boolean;

export function gateContext(query: string, groups: QueryGroup[], scoring: WeightedGroup[]): GateContext {
  const weights = scoring.map((g) => g.idf).sort((a, b) => a - b);
  const typical = weights[Math.floor(weights.length / 2)] ?? 0;
  const knownWeight = weights.reduce((a, b) => a + b, 0);
  const asked = knownWeight + (groups.length - scoring.length) * typical;
  const rare = new Set(scoring.filter(isRare).map((g) => g.group));
  const counting = new Set(countedWords(query).map(familyKey));
  const countedKnown = scoring.filter((g) => counting.has(familyKey(g.word)));
  // Of what it counts, the word that narrows it most (the rarest here): "gunicorn workers" are not any workers.
  const narrowest = Math.min(...countedKnown.map((g) => g.df));
  const counted = new Set(countedKnown.filter((g) => g.df === narrowest).map((g) => g.group));
  const often = frequencyFocus(query);
  const focusWords = new Map(quantityFocus(query).map((w) => [familyKey(w), w]));
  const focus = new Map<number, { idf: number; word: string }>();
  for (const g of scoring) {
    const word = focusWords.get(familyKey(g.word));
    if (word !== undefined) focus.set(g.group, { idf: g.idf, word });
  }
  // What the value must be said of: the rarest of the other words ("which compiler version is
  // the build on": compiler), or what the version is of ("which zig release does the box run": zig).
  const others = scoring.filter((g) => !focus.has(g.group));
  const rarest = Math.min(...others.map((g) => g.df));
  const of = new Set(versionOf(query).map(familyKey));
  const anchor = new Set(others.filter((g) => g.df === rarest || of.has(familyKey(g.word))).map((g) => g.group));
  const compound = new Set(versionCompound(query).map(familyKey));
  const clock = asksClockTime(query);
  const verb = passiveParticiple(query);
  const passive = new Map(
    verb === null ? [] : scoring.filter((g) => familyKey(g.word) === familyKey(verb)).map((g) => [g.group, g.idf] as const),
  );
  return {
    query,
    groups,
    scoring,
    passive,
    person: asksPerson(query) ? { verb: verbGroups(query, scoring) } : null,
    place: asksPlace(query),
    envName: asksEnvName(query),
    limit: asksLimit(query),
    clock,
    versioned: new Set(scoring.filter((g) => compound.has(familyKey(g.word))).map((g) => g.group)),
    when: clock || asksWhen(query),
    knownWeight,
    asked,
    rare,
    quantity: asksQuantity(query),
    often,
    required: requiredValues(query),
    counted,
    count: {
      pattern: countPattern(
        countedKnown
          .filter((g) => counted.has(g.group))
          .flatMap((g) => [
            ...g.forms.filter((f) => f.weight >= DERIVED_WEIGHT).map((f) => f.word),
            // A count written with the word clipped ("30 req/s": abbreviations.ts) counts it too.
            ...clippings(g.word),
          ]),
      ),
      weight: typical,
    },
    focus,
    focusWords: [...focusWords.values()],
    anchor,
    frequency: often === null ? null : { weight: typical, word: often },
  };
}

/** Whether a unit holds a focus group by a value of its kind, said of the query's rarest other word (heldFor). */
export function heldByValue(u: Unit, g: number, { focus, anchor, quantity }: GateContext): boolean {
  const f = focus.get(g);
  return f !== undefined && quantity && [...anchor].some((a) => u.match.groups.has(a)) && holdsValueFor(f.word, u.text);
}

/**
 * Whether a unit holds a value of the kind a quantity question asks for (holdsValueFor), said of
 * its anchor: typed evidence, whether or not the memory knows the word naming the quantity ("what
 * zig version": a tool's output saying "zig 0.13.0", not a build error saying only "zig").
 */
export function holdsAskedValue(u: Unit, { quantity, focusWords, anchor }: GateContext): boolean {
  return quantity && [...anchor].some((a) => u.match.groups.has(a)) && focusWords.some((w) => holdsValueFor(w, u.text));
}

/**
 * What a unit holds of the query for the gate: its matched words' weight and count, and the word
 * naming the quantity asked for (quantityFocus) as held in full when the unit holds a value of
 * that kind (holdsValueFor) and the query's rarest other word: "how big can a canvas get" is
 * answered by "the canvas is clamped to 8192x8192", which never says "big"; a version number, or a
 * size said of another part, is no answer to it.
 */
export function heldFor(u: Unit, context: GateContext): { held: number; matched: number } {
  let held = u.match.held;
  let matched = u.match.matched;
  for (const [g, { idf }] of context.focus) {
    const own = idf * Math.min(1, u.match.forms.get(g) ?? 0);
    if (own >= idf || !heldByValue(u, g, context)) continue;
    held += idf - own;
    if (!u.match.groups.has(g)) matched++;
  }
  // The question's verb in the passive ("where are the files stored"; "kept" is a stop word, never asked) is said in the answer's own words, if at all.
  // Left out of what is asked: the rest held in the same share of the rest.
  let verb = 0;
  for (const [g, idf] of context.passive) if (!u.match.groups.has(g)) verb += idf;
  if (verb > 0 && verb < context.knownWeight) held *= context.knownWeight / (context.knownWeight - verb);
  // "how many stations": "caps the map at 40 stations" says the count asked for.
  if (context.count.pattern && holdsCount(context.count.pattern, u.text)) held += context.count.weight;
  const f = context.frequency;
  if (f && context.quantity && [...context.anchor].some((a) => u.match.groups.has(a)) && holdsValueFor(f.word, u.text)) held += f.weight;
  return { held, matched };
}

/**
 * What the query asks: the weights of its words the memory holds; a hit holding less than
 * MIN_SHARE of them is a guess, or less than LOOSE_SHARE when it holds two or more of them. A
 * word no event or summary of the project holds says nothing about which hit is better (a
 * paraphrase: the memory says it otherwise), but a query mostly unknown to the memory is likely
 * about something it never heard of: counting each unknown word as a typical one of the query,
 * a hit holding less than that share of it must hold a rare word (isRare, in its own form:
 * holdsRareWord), or every one of two or more words it knows; and when more than two of
 * every three of the query's words are unknown (MOSTLY_UNKNOWN), one rare word is not enough
 * either: the question is likely about something never said, and what the memory holds of it is
 * the neighbourhood (the tool's other settings, the service's other parts), not the answer. A question asking for a quantity ("how long ...",
 * "which version ...") is not answered by a text without one, and a text with one is typed
 * evidence of its own (answer-type.ts). A record (a decision, note or correction) about one of
 * the query's words, said the way English puts what a sentence is about, first, is the memory's
 * statement on that subject: RECORD_SHARE of the known words will do, and the words the memory
 * never saw (a paraphrase) do not count against it, as long as they are no more than two of every
 * three of the query's words (one made mostly of words never heard is likely about something
 * never said). A "how many" question is about what it counts: a hit holds that word (countedWords),
 * when the memory knows it; of several ("how many gunicorn workers"), the one that narrows what is
 * counted most, the rarest here (a count of the project's other workers answers nothing); asked what
 * is allowed ("how many rows can a batch hold"), a limit said of the question's most specific word
 * ("cap each batch at 500 lines") answers in its own words. An
 * agent's answer stating a fact (units.ts statedAnswer) about the most specific query word it holds
 * (narrowestHeld), its subject said first as a record's is, and holding a second query word, passes
 * at CLAIM_SHARE: "Thumbnails are made by imgproxy from the original image" answers "which worker
 * resizes images for thumbnails"; an answer about something else that holds the query's specific
 * word only in passing does not, nor one holding that word alone (chatter naming the subject). The word
 * naming the quantity asked for ("how big", "which version") is held by a value of its kind said
 * of the question's most specific other word (heldFor). A "who" question asks for a person
 * (answer-type.ts asksPerson): a text naming no one (namesSomeone) and not holding the question's
 * verb is about another side of the subject; one naming someone and holding the question's most
 * specific word passes at RECORD_SHARE, the person being typed evidence as a value is. A question
 * asking what time of day (asksClockTime) is answered only by a text saying one; one asking a
 * version, only by a text naming what the version is of (versionCompound), when the memory knows it. A "where"
 * question (place.ts) is answered by a text naming a place (a path, a URL, a remote) that holds
 * RECORD_SHARE of the known words; a "when" or "what time" question, by a text saying a time of
 * day or a day of the week (holdsWhen) that holds as much; a "which env var" question
 * (env-name.ts), by a text naming an environment variable (`RELAY_HOST`) that holds as much.
 */
export const relevant: Gate = (context) => (u) => {
  const { groups, scoring, knownWeight, asked, rare, quantity, counted } = context;
  if (quantity && !holdsQuantity(u.text)) return false;
  if (context.often !== null && !holdsValueFor(context.often, u.text)) return false;
  if (context.required.length > 0 && !context.required.some((w) => holdsValueFor(w, u.text))) return false;
  // A limit said of the question's most specific word answers "how many ... can" in its own words ("max 500 lines per batch" for "how many rows").
  if (
    counted.size > 0 &&
    ![...counted].some((g) => u.match.groups.has(g)) &&
    !(context.limit && statesLimit(u.text) && holdsRarest(u, scoring))
  )
    return false;
  if (context.clock && !holdsClockTime(u.text)) return false;
  if (context.versioned.size > 0 && ![...context.versioned].some((g) => u.match.groups.has(g))) return false;
  if (context.person && ![...context.person.verb].some((g) => u.match.groups.has(g)) && !namesSomeone(u.text)) return false;
  const { held, matched } = heldFor(u, context);
  const share = matched >= 2 ? LOOSE_SHARE : MIN_SHARE;
  // A person said with the question's most specific word is typed evidence, as a value is for a quantity.
  if (context.person && held >= RECORD_SHARE * knownWeight && holdsRarest(u, scoring) && namesSomeone(u.text)) return true;
  // Said with a quarter of the question's words, what the question asks for is typed evidence, as a person is for "who":
  // a place for "where", a time of day or a day of the week for "when" or "what time", a variable's name for "which env var".
  if (held >= RECORD_SHARE * knownWeight && holdsAskedType(u.text, context)) return true;
  return (
    (held >= share * knownWeight &&
      (quantity ||
        held >= share * asked ||
        (MOSTLY_UNKNOWN * scoring.length >= groups.length && holdsRareWord(u.match, rare)) ||
        holdsAllKnown({ ...u.match, matched }, scoring.length))) ||
    (u.record && held >= RECORD_SHARE * knownWeight && MOSTLY_UNKNOWN * scoring.length >= groups.length && aboutQuery(u, groups)) ||
    (u.statedAnswer === true &&
      matched >= 2 &&
      held >= CLAIM_SHARE * knownWeight &&
      MOSTLY_UNKNOWN * scoring.length >= groups.length &&
      aboutQuery(u, narrowestHeld(u, scoring)))
  );
};

/** Whether a text says what a "where", "when" / "what time" or "which env var" question asks for. */
const holdsAskedType = (text: string, { place, when, envName }: GateContext) =>
  (place && namesPlace(text)) || (when && holdsWhen(text)) || (envName && namesEnvName(text));

/** A "how many" question asking what is allowed: "can", "may", "allowed" after it. */
const asksLimit = (query: string) => /^\s*how\s+(?:many|much)\b.*\b(?:can|may|allowed)\b/i.test(query);
/** A limit stated: a maximum, a cap, "at most", "up to". */
const statesLimit = (text: string) => /\b(?:max(?:imum)?|caps?|capped|limits?|at most|up to)\b/i.test(lineBody(text));
