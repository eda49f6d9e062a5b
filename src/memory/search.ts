/**
 * memory_search: events and summary lines ranked by keyword score and kind (rank.ts). Where a
 * statement was replaced by a later one, the later one comes first and the earlier one is marked
 * as not current (conflicts.ts); a later change, found on its own or too thin for that, is shown
 * right above the earlier hit it changes (later-change.ts). What is said again and again (the same
 * command, the same question, the same reply after another "Done.") is one hit, so it cannot crowd
 * out the one statement that answers; a summary line
 * about an event that is itself a hit is not shown twice. A hit that holds too little of the
 * query's words the memory knows, or, when much of the query is unknown to it, no rare word, is a
 * guess, and is left out; so is one without a quantity when the question asks for one, without
 * what a "how many" question counts, naming no one for a "who" question (the gate: gate.ts). Below an open matter on the whole
 * question (a question or TODO holding all its words), what holds only part of it is left out
 * (open-matter.ts); so is a thin summary line far below the best hit (thin-lines.ts).
 */
import { asksManner } from "./answer-type.ts";
import { candidates, type WeightedGroup } from "./candidates.ts";
import { ABOVE, resolveReplacements, units } from "./conflicts.ts";
import type { MemoryDeps } from "./deps.ts";
import { eventsById } from "./events.ts";
import { REPLY_WINDOW, readExchanges } from "./exchange.ts";
import { lineEvent } from "./extractive.ts";
import { type Gate, gateContext, heldByValue, heldFor, holdsAskedValue, holdsRareWord, MIN_SHARE, relevant } from "./gate.ts";
import { aboutQuery, changeFirst, laterRecordFirst } from "./holds-now.ts";
import { keepAbove, laterChanges, rareInProject } from "./later-change.ts";
import { laterSettingFirst } from "./later-setting.ts";
import { belowOpenMatter } from "./open-matter.ts";
import { withoutOrphans } from "./orphans.ts";
import { type QueryGroup, queryGroups } from "./query.ts";
import { lineWeight, newerWeights, recencyWeight, textScore } from "./rank.ts";
import { aboveRejected } from "./rejected-first.ts";
import { remembered } from "./remember.ts";
import { foldText, wordsOf } from "./stem.ts";
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
/**
 * How much more a record (a decision, note or correction) about one of the query's words
 * (aboutQuery) weighs than its words alone say: a short prompt or file list naming the word as
 * often is chatter around the subject, the record is what was said about it.
 */
const ABOUT = 1.5;
/**
 * How much more a text holding a value of the kind a quantity question asks for, said of its
 * subject (gate.ts holdsAskedValue), weighs than its words alone say: the version in a tool's
 * output answers "what zig version does the build step use"; the build errors around it name
 * zig as often and answer nothing.
 */
const VALUE = 2;
/**
 * A hit ranked below this share of the best hit (by its score with recency, as shown) is left
 * out: four times below what the memory found for the question, it is a guess beside
 * it (most often a statement about a neighbouring property of the subject). Not when it is part
 * of an exchange with a hit above (exchange.ts: the prompt that says the value, read with its reply).
 */
const GUESS = 0.25;
function eventHits(deps: MemoryDeps, projectId: number, ids: number[], groups: WeightedGroup[], manner: boolean): EventHit[] {
  const now = deps.now();
  const hits: EventHit[] = [];
  for (const row of eventsById(deps, ids)) {
    if (row.project_id !== projectId) continue;
    const unit = eventUnit(row, groups, now, manner);
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

/** Lead-in words a repeat may differ by ("Done.", "Ok, so", "Found it."): a statement said again is the same statement. */
const LEAD_IN = 2;
/** What is left after a lead-in must say something: this many words or more. */
const MIN_REST = 4;
const NEGATION = /^(?:no|not|never|dont|cannot|nope|without)$/;
/** A negating lead-in word: samenessOf splits "don't", "can't", "doesn't" at the apostrophe (words[at] "don", then "t"). */
const negates = (words: readonly string[], at: number) => NEGATION.test(words[at]!) || (words[at]!.endsWith("n") && words[at + 1] === "t");

/**
 * A first clause of one or two words set off by a full stop, an exclamation mark, a comma, a
 * semicolon or a dash ("Done.", "Found it!", "Right,", "Ok —"): an acknowledgement before what is
 * said. Not one set off by a colon: "Staging: ..." is a label, part of what is said.
 */
const LEAD_CLAUSE = /^\s*([^\s.!?,;:—–]+(?:\s+[^\s.!?,;:—–]+)?)\s*(?:[.!]+|[,;]|\s[—–-])\s+\S/u;

/** How many words a unit's text opens with as an acknowledgement (LEAD_CLAUSE), up to LEAD_IN; 0 when it has none. */
function leadInWords(text: string): number {
  const clause = LEAD_CLAUSE.exec(lineBody(text))?.[1];
  const n = clause === undefined ? 0 : wordsOf(foldText(clause)).length;
  return n <= LEAD_IN ? n : 0;
}

/**
 * Sameness keys with the same words after a short lead-in ("Done. set; the simulator reports
 * that coordinate now" and "Set; the simulator reports that coordinate now") are one: an agent
 * opens the same reply with a different acknowledgement each time (LEAD_CLAUSE), never a label
 * ("Staging: images pull ..." and "Production: images pull ..." are two statements) and never a
 * negation.
 */
function sameSaying(): (key: string, text: string) => string {
  const canonical = new Map<string, string>();
  const tails = (key: string, text: string): string[] => {
    const lead = leadInWords(text);
    if (lead === 0) return [key];
    const words = key.split(" ");
    const out = [key];
    for (let n = 1; n <= lead && words.length - n >= MIN_REST; n++) {
      if (negates(words, n - 1)) break;
      // Only the whole lead-in is dropped: "found it" is an acknowledgement, "it set ..." is not a statement.
      if (n === lead) out.push(words.slice(n).join(" "));
    }
    return out;
  };
  return (key, text) => {
    const forms = tails(key, text);
    const known = forms.map((f) => canonical.get(f)).find((c) => c !== undefined);
    const chosen = known ?? key;
    for (const f of forms) if (!canonical.has(f)) canonical.set(f, chosen);
    return chosen;
  };
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
  const said = sameSaying();
  for (const u of all) {
    const key = said(sameness(u), u.text);
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

/** Whether an event hit is near one of `hits` in its session (REPLY_WINDOW events): one exchange, a prompt and its reply. */
const exchangedWith = (h: Hit, hits: Hit[]) =>
  h.type === "event" &&
  hits.some((o) => o.type === "event" && o.row.session_id === h.row.session_id && Math.abs(o.row.id - h.row.id) <= REPLY_WINDOW);

/** When each hit's statement was said: an event's time; a summary's, its best line's event's (its own when that names none). */
function timesShown(deps: MemoryDeps, hits: Hit[]): Map<Hit, number> {
  const lineEvents = hits.flatMap((h) => (h.type === "summary" && h.lines[0]?.event != null ? [h.lines[0].event] : []));
  const ts = new Map(eventsById(deps, lineEvents).map((r) => [r.id, r.ts]));
  return new Map(hits.map((h) => [h, h.type === "event" ? h.row.ts : (ts.get(h.lines[0]?.event ?? -1) ?? h.row.created_at)]));
}

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
  const hits: Hit[] = [
    ...eventHits(deps, projectId, events.ids, scoring, asksManner(query)),
    ...summaryHits(deps, projectId, summaries.ids, scoring, looked),
  ];
  // Summary lines are compared with events with their summary's age.
  for (const h of hits) if (h.type === "summary") for (const l of h.lines) l.score *= h.recency;
  // A record about one of the query's words is the memory's statement on it: above chatter that names the word as often.
  for (const u of units(hits)) if (u.record && aboutQuery(u, groups)) u.score *= ABOUT;
  const context = gateContext(query, groups, scoring);
  // A value of the kind a quantity question asks for, said of its subject, is typed evidence: above chatter naming the subject as often.
  for (const u of units(hits)) if (holdsAskedValue(u, context)) u.score *= VALUE;
  // A reply is read with the prompt it replies to, when that prompt holds enough of the query itself.
  // What opens an exchange: a prompt that passes the gate, or one holding a rare word of the query
  // in its own form ("what OS versions are people on"): the rare word names the subject.
  const passes = gate(context);
  // ... and a prompt that says the value with the answer or record replying to it, when that passes the gate.
  readExchanges(hits, scoring.length, (u) => passes(u) || holdsRareWord(u.match, context.rare), passes);
  resolveReplacements(deps, projectId, hits, scoring);
  const partners = new Map<Unit, readonly number[]>();
  // Units' matches are settled from here on: each is judged once.
  const judged = new Map<Unit, boolean>();
  const settled = (u: Unit) => {
    const known = judged.get(u);
    if (known !== undefined) return known;
    const v = passes(u);
    judged.set(u, v);
    return v;
  };
  // The word naming the quantity asked for is held by a value of its kind too ("listens on 8080" holds "port").
  const later = laterChanges(hits, settled, groups, rareInProject(deps, projectId, single), (u, g) => heldByValue(u, g, context));
  const kept = prune(hits, later.size === 0 ? settled : (u) => settled(u) || later.has(u), partners);
  // What holds now first, among the hits that answer.
  laterRecordFirst(kept, groups, context.rare);
  // A change that says the value asked for ("raised the cap to 24x24") holds the word naming it ("how big").
  changeFirst(kept, context.rare, (u, g) => heldByValue(u, g, context));
  aboveRejected(kept);
  laterSettingFirst(kept);
  // What the reorderings above lifted, a later change stays right above (later-change.ts).
  keepAbove(later);
  for (const h of kept) if (h.type === "summary") h.score = Math.max(...h.lines.map((l) => l.score));
  // Recency breaks near ties among them (rank.ts newerWeights).
  const shownAt = timesShown(deps, kept);
  const newer = newerWeights(kept, (h) => shownAt.get(h)!);
  const ranked = (h: Hit) => hitScore(h) * newer.get(h)!;
  kept.sort((a, b) => ranked(b) - ranked(a) || hitOrder(b) - hitOrder(a));
  // Four times below the best, a hit is a guess beside what the memory found, unless
  // it is part of an exchange with a hit above that (a prompt saying the value, its reply).
  const best = kept.length === 0 ? 0 : ranked(kept[0]!);
  const above = kept.filter((h, i) => i === 0 || ranked(h) >= GUESS * best);
  const passed = new Set(above);
  const shown = kept.filter((h) => passed.has(h) || exchangedWith(h, above));
  const heldOf = (u: Unit) => heldFor(u, context).held;
  return withoutOrphans(
    dropThinLines(belowOpenMatter(shown, context.scoring.length), MIN_SHARE * context.knownWeight, heldOf),
    partners,
  ).slice(0, limit);
}
