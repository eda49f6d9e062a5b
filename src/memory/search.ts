/**
 * memory_search: events and summary lines ranked by keyword score and kind (rank.ts). Where a
 * statement was replaced by a later one, the later one comes first and the earlier one is marked
 * as not current (conflicts.ts). What is said again and again (the same command, the same
 * question) is one hit, so it cannot crowd out the one statement that answers; a summary line
 * about an event that is itself a hit is not shown twice. A hit that holds too little of the
 * query's words the memory knows, or, when much of the query is unknown to it, no rare word, is a
 * guess, and is left out; so is one without a quantity when the question asks for one, or
 * without what a "how many" question counts (answer-type.ts). Below an open matter on the whole
 * question (a question or TODO holding all its words), what holds only part of it is left out
 * (open-matter.ts); so is a thin summary line far below the best hit (thin-lines.ts).
 */
import {
  asksQuantity,
  countedWords,
  countPattern,
  frequencyFocus,
  holdsCount,
  holdsQuantity,
  holdsValueFor,
  quantityFocus,
} from "./answer-type.ts";
import { candidates, type WeightedGroup } from "./candidates.ts";
import { ABOVE, resolveReplacements, units } from "./conflicts.ts";
import type { MemoryDeps } from "./deps.ts";
import { eventsById } from "./events.ts";
import { readRepliesWithPrompts } from "./exchange.ts";
import { lineEvent } from "./extractive.ts";
import { aboutQuery, changeFirst, laterRecordFirst } from "./holds-now.ts";
import { DERIVED_WEIGHT, familyKey } from "./morphology.ts";
import { belowOpenMatter } from "./open-matter.ts";
import { withoutOrphans } from "./orphans.ts";
import { type QueryGroup, queryGroups } from "./query.ts";
import { lineWeight, recencyWeight, type TextScore, textScore } from "./rank.ts";
import { aboveRejected } from "./rejected-first.ts";
import { remembered } from "./remember.ts";
import { foldText } from "./stem.ts";
import { summariesById } from "./summarize.ts";
import { lineBody } from "./summary-line.ts";
import { linesHolding } from "./summary-needles.ts";
import { dropThinLines } from "./thin-lines.ts";
import { type EventHit, eventUnit, type Hit, hitScore, isRecord, type SummaryHit, type Unit } from "./units.ts";

const EVENT_CANDIDATES = 60;
const SUMMARY_CANDIDATES = 20;
const SUMMARY_WORDS = 5;
const LINES_PER_SUMMARY = 3;
/** Query groups a search looks up at most (candidates.ts). */
const MAX_GROUPS = 8;
/** A hit holds at least this share of the weight of the query's words the memory holds. */
const MIN_SHARE = 0.4;
/**
 * A record about one of the query's words (aboutQuery) is the memory's statement on it: a quarter
 * of the known words' weight will do (a paraphrased question shares one word of three or four
 * with the record that answers it).
 */
export const RECORD_SHARE = 0.25;
/**
 * How much more a record (a decision, note or correction) about one of the query's words
 * (aboutQuery) weighs than its words alone say: a short prompt or file list naming the word as
 * often is chatter around the subject, the record is what was said about it.
 */
const ABOUT = 1.5;
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

function eventHits(deps: MemoryDeps, projectId: number, ids: number[], groups: WeightedGroup[]): EventHit[] {
  const now = deps.now();
  const hits: EventHit[] = [];
  for (const row of eventsById(deps, ids)) {
    if (row.project_id !== projectId) continue;
    const unit = eventUnit(row, groups, now);
    if (unit) hits.push({ type: "event", row, unit });
  }
  return hits;
}

/** Summaries are found by their own index, and their lines scored with the events' weights (one scale for both). */
function summaryHits(deps: MemoryDeps, projectId: number, ids: number[], groups: WeightedGroup[], looked: QueryGroup[]): SummaryHit[] {
  const now = deps.now();
  const hits: SummaryHit[] = [];
  // Only lines holding a form of one of the words the summaries were looked up by are scored; a
  // stem's first letters begin the word it stems, so a line without them is skipped unstemmed.
  const needles = [...new Set(looked.flatMap((g) => g.forms.map((f) => f.stem.slice(0, 4))))];
  for (const row of summariesById(deps, ids)) {
    if (row.project_id !== projectId) continue;
    const lines: Unit[] = [];
    const holding = linesHolding(row.text, needles);
    for (const i of holding.at) {
      const text = holding.lines[i]!;
      const match = textScore(text, groups);
      if (match.matched === 0) continue;
      const event = lineEvent(text);
      const w = lineWeight(text);
      const repeats = Number(/^- e\d+ \w+ \(x(\d+)\)/.exec(text)?.[1] ?? 1);
      lines.push({
        event,
        order: event ?? row.last_event,
        text,
        score: match.score * w.weight,
        match,
        claim: w.claim,
        record: isRecord(/^- e\d+ (\w+)/.exec(text)?.[1] ?? ""),
        replacedBy: null,
        repeats,
      });
    }
    if (lines.length === 0) continue;
    hits.push({ type: "summary", row, lines, score: 0, recency: recencyWeight(row.created_at, now) });
  }
  return hits;
}

/**
 * What a unit says, for telling repeats apart: its words; for chatter (not a statement of fact)
 * without its numbers and ids, so "Task 12: look at src/m12.ts" and "Task 13: ..." are one.
 */
function samenessOf(text: string, claim: boolean): string {
  const folded = foldText(lineBody(text));
  return (claim ? folded : folded.replace(/[0-9a-f]*\d[0-9a-f]*/g, "#")).replace(/[^\p{L}\p{N}#]+/gu, " ").trim();
}

/** Kept for the next time (a pure function of the text: the same rows come back query after query, and prune asks for each unit several times). */
const keptSameness = [remembered<string>(20_000), remembered<string>(20_000)] as const;
const sameness = (u: Unit) => keptSameness[u.claim ? 1 : 0](u.text, () => samenessOf(u.text, u.claim));

/**
 * Hits too thin to answer are dropped; what repeats is kept once (its best, then newest, statement,
 * counting the others); summary lines about events already in the hits are dropped (a summary
 * with none left goes); summaries rescored by their best line.
 */
function prune(hits: Hit[], passes: (u: Unit) => boolean, partners: Map<Unit, readonly number[]>): Hit[] {
  // A replaced statement and what replaced it stand or fall together, by the better of the two.
  const byEvent = new Map<number, Unit>();
  for (const h of hits) if (h.type === "event") byEvent.set(h.row.id, h.unit);
  const strong = new Set<Unit>();
  const passed = new Set<Unit>();
  // Each newer statement with the older ones that passed (withoutOrphans).
  const beside = new Map<Unit, number[]>();
  for (const h of hits)
    for (const u of h.type === "event" ? [h.unit] : h.lines) {
      if (!passes(u)) continue;
      strong.add(u);
      passed.add(u);
      const newer = u.replacedBy === null ? undefined : byEvent.get(u.replacedBy);
      if (!newer) continue;
      strong.add(newer);
      if (u.event !== null) beside.set(newer, [...(beside.get(newer) ?? []), u.event]);
    }
  for (const [newer, olders] of beside) if (!passed.has(newer)) partners.set(newer, olders);
  const keep = (u: Unit) => strong.has(u);
  const best = new Map<string, Unit>();
  const all = units(hits).filter(keep);
  // Each unit's sameness worked out once here (shown asks for it again and again).
  const sameOf = new Map<Unit, string>();
  for (const u of all) {
    const key = sameness(u);
    sameOf.set(u, key);
    const prior = best.get(key);
    if (!prior) best.set(key, u);
    else {
      const [winner, other] = u.score > prior.score || (u.score === prior.score && u.order > prior.order) ? [u, prior] : [prior, u];
      winner.repeats = prior.repeats + u.repeats;
      other.repeats = 0;
      best.set(key, winner);
    }
  }
  const shown = (u: Unit) => keep(u) && u.repeats > 0 && best.get(sameOf.get(u)!) === u;
  const events = new Set(hits.flatMap((h) => (h.type === "event" && shown(h.unit) ? [h.row.id] : [])));
  const kept = hits.filter((h) => {
    if (h.type === "event") return shown(h.unit);
    h.lines = h.lines
      .filter((l) => shown(l) && (l.event === null || !events.has(l.event)))
      .sort((a, b) => b.score - a.score)
      .slice(0, LINES_PER_SUMMARY);
    if (h.lines.length === 0) return false;
    h.score = h.lines[0]!.score;
    return true;
  });
  // A summary ranks by its best line: one showing a replaced statement puts what replaced it
  // (an event among the hits) above itself, as an event hit does (conflicts.ts).
  for (const h of kept) {
    if (h.type !== "summary") continue;
    for (const l of h.lines) {
      const newer = l.replacedBy === null || !events.has(l.replacedBy) ? undefined : byEvent.get(l.replacedBy);
      if (newer) newer.score = Math.max(newer.score, h.score * ABOVE);
    }
  }
  return kept;
}

/**
 * The groups summaries are looked up by: those the events hold least (a word no event holds any
 * more, because retention dropped it, first). A summary holds fifty events' words, so common
 * words find every summary and only cost lookups.
 */
function summaryGroups(groups: QueryGroup[], looked: WeightedGroup[]): QueryGroup[] {
  const df = new Map(looked.map((g) => [g.group, g.df]));
  const chosen = [...groups]
    .sort((a, b) => (df.get(a.group) ?? 0) - (df.get(b.group) ?? 0) || a.group - b.group)
    .slice(0, SUMMARY_WORDS)
    .map((g) => g.group);
  return groups.filter((g) => chosen.includes(g.group));
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
  /** The known groups of the word naming the quantity a quantity question asks for (quantityFocus), with that word. */
  focus: Map<number, { idf: number; word: string }>;
  /** The rarest known groups besides the focus: a value answers the focus only in a text holding one of them. */
  anchor: Set<number>;
  /** "how often": the weight of a typical word of the query, held by a text holding a frequency said of the anchor (its word is a stop word, no group). */
  frequency: { weight: number; word: string } | null;
  /** Of the groups of what a "how many" question counts (countedWords) that the memory holds, the rarest (the word that narrows what is counted). */
  counted: Set<number>;
  /** A count of the counted groups' forms (countPattern), and the weight of a typical word of the query, which such a count holds ("how many" is stop words). */
  count: { pattern: RegExp | null; weight: number };
};

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
  // What the value must be said of: the rarest of the other words ("which compiler version": compiler).
  const others = scoring.filter((g) => !focus.has(g.group));
  const rarest = Math.min(...others.map((g) => g.df));
  const anchor = new Set(others.filter((g) => g.df === rarest).map((g) => g.group));
  return {
    query,
    groups,
    scoring,
    knownWeight,
    asked,
    rare,
    quantity: asksQuantity(query),
    often,
    counted,
    count: {
      pattern: countPattern(
        countedKnown
          .filter((g) => counted.has(g.group))
          .flatMap((g) => g.forms.filter((f) => f.weight >= DERIVED_WEIGHT).map((f) => f.word)),
      ),
      weight: typical,
    },
    focus,
    anchor,
    frequency: often === null ? null : { weight: typical, word: often },
  };
}

/** Whether a unit holds a focus group by a value of its kind, said of the query's rarest other word (heldFor). */
function heldByValue(u: Unit, g: number, { focus, anchor, quantity }: GateContext): boolean {
  const f = focus.get(g);
  return f !== undefined && quantity && [...anchor].some((a) => u.match.groups.has(a)) && holdsValueFor(f.word, u.text);
}

/**
 * What a unit holds of the query for the gate: its matched words' weight and count, and the word
 * naming the quantity asked for (quantityFocus) as held in full when the unit holds a value of
 * that kind (holdsValueFor) and the query's rarest other word: "how big can a canvas get" is
 * answered by "the canvas is clamped to 8192x8192", which never says "big"; a version number, or a
 * size said of another part, is no answer to it.
 */
function heldFor(u: Unit, context: GateContext): { held: number; matched: number } {
  let held = u.match.held;
  let matched = u.match.matched;
  for (const [g, { idf }] of context.focus) {
    const own = idf * Math.min(1, u.match.forms.get(g) ?? 0);
    if (own >= idf || !heldByValue(u, g, context)) continue;
    held += idf - own;
    if (!u.match.groups.has(g)) matched++;
  }
  // "how many stations": "caps the map at 40 stations" says the count asked for.
  if (context.count.pattern && holdsCount(context.count.pattern, u.text)) held += context.count.weight;
  const f = context.frequency;
  if (f && context.quantity && [...context.anchor].some((a) => u.match.groups.has(a)) && holdsValueFor(f.word, u.text)) held += f.weight;
  return { held, matched };
}

/**
 * What the query asks: the weights of its words the memory holds; a hit holding less than
 * MIN_SHARE of them is a guess. A word no event or summary of the project holds says nothing about
 * which hit is better (a paraphrase: the memory says it otherwise), but a query mostly unknown to
 * the memory is likely about something it never heard of: counting each unknown word as a typical
 * one of the query, a hit holding less than MIN_SHARE of that must hold a rare word (isRare, in its
 * own form: holdsRareWord), or every one of two or more words it knows; and when more than two of
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
 * counted most, the rarest here (a count of the project's other workers answers nothing). The word
 * naming the quantity asked for ("how big", "which version") is held by a value of its kind said
 * of the question's most specific other word (heldFor).
 */
export const relevant: Gate = (context) => (u) => {
  const { groups, scoring, knownWeight, asked, rare, quantity, counted } = context;
  if (quantity && !holdsQuantity(u.text)) return false;
  if (context.often !== null && !holdsValueFor(context.often, u.text)) return false;
  if (counted.size > 0 && ![...counted].some((g) => u.match.groups.has(g))) return false;
  const { held, matched } = heldFor(u, context);
  return (
    (held >= MIN_SHARE * knownWeight &&
      (quantity ||
        held >= MIN_SHARE * asked ||
        (MOSTLY_UNKNOWN * scoring.length >= groups.length && holdsRareWord(u.match, rare)) ||
        holdsAllKnown({ ...u.match, matched }, scoring.length))) ||
    (u.record && held >= RECORD_SHARE * knownWeight && MOSTLY_UNKNOWN * scoring.length >= groups.length && aboutQuery(u, groups))
  );
};

/** A query's groups, kept for the next time (a pure function of the text; shared, never changed): a recall and the search after it ask with the same prompt. */
const keptGroups = remembered<QueryGroup[]>(1000);

/** Ties go to the newer. */
const hitOrder = (h: Hit) => (h.type === "event" ? h.row.id : h.row.last_event);

/**
 * The ranked hits for a query in a project, best first. `wide`: how many candidates to rank
 * (recall, which shows a few hits among other sections, ranks fewer).
 */
export function rankedHits(
  deps: MemoryDeps,
  projectId: number,
  query: string,
  limit: number,
  wide: { events: number; summaries: number } = { events: EVENT_CANDIDATES, summaries: SUMMARY_CANDIDATES },
  gate: Gate = relevant,
): Hit[] {
  const groups = keptGroups(query, () => queryGroups(query).slice(0, MAX_GROUPS));
  const single = deps.registry.single();
  const events = candidates(deps.db, "events", groups, { projectId, single, keep: wide.events });
  const looked = summaryGroups(groups, events.groups);
  const summaries = candidates(deps.db, "summaries", looked, { projectId, single, keep: wide.summaries });
  // One scale: the events' weights, and the summaries' for words only summaries still hold.
  const known = new Set(events.groups.map((g) => g.group));
  const scoring = [...events.groups, ...summaries.groups.filter((g) => !known.has(g.group))];
  const hits: Hit[] = [...eventHits(deps, projectId, events.ids, scoring), ...summaryHits(deps, projectId, summaries.ids, scoring, looked)];
  // Summary lines are compared with events with their summary's age.
  for (const h of hits) if (h.type === "summary") for (const l of h.lines) l.score *= h.recency;
  // A record about one of the query's words is the memory's statement on it: above chatter that names the word as often.
  for (const u of units(hits)) if (u.record && aboutQuery(u, groups)) u.score *= ABOUT;
  const context = gateContext(query, groups, scoring);
  // A reply is read with the prompt it replies to, when that prompt holds enough of the query itself.
  // What opens an exchange: a prompt that passes the gate, or one holding a rare word of the query
  // in its own form ("what OS versions are people on"): the rare word names the subject.
  const passes = gate(context);
  readRepliesWithPrompts(hits, scoring.length, (u) => passes(u) || holdsRareWord(u.match, context.rare));
  resolveReplacements(deps, projectId, hits, scoring);
  const partners = new Map<Unit, readonly number[]>();
  const kept = prune(hits, passes, partners);
  // What holds now first, among the hits that answer.
  laterRecordFirst(kept, groups, context.rare);
  // A change that says the value asked for ("raised the cap to 24x24") holds the word naming it ("how big").
  changeFirst(kept, context.rare, (u, g) => heldByValue(u, g, context));
  aboveRejected(kept);
  for (const h of kept) if (h.type === "summary") h.score = Math.max(...h.lines.map((l) => l.score));
  kept.sort((a, b) => hitScore(b) - hitScore(a) || hitOrder(b) - hitOrder(a));
  const heldOf = (u: Unit) => heldFor(u, context).held;
  return withoutOrphans(
    dropThinLines(belowOpenMatter(kept, context.scoring.length), MIN_SHARE * context.knownWeight, heldOf),
    partners,
  ).slice(0, limit);
}
