/**
 * memory_search: events and summary lines ranked by keyword score, kind and recency. Where a
 * statement was replaced by a later one, the later one comes first and the earlier one is marked
 * as not current (conflicts.ts). A summary line about an event that is itself a hit is not shown
 * twice.
 */
import { candidates, type WeightedTerm } from "./candidates.ts";
import { resolveConflicts } from "./conflicts.ts";
import type { MemoryDeps } from "./deps.ts";
import { eventsById } from "./events.ts";
import { lineEvent } from "./extractive.ts";
import { expandTerms, type QueryTerm, queryTerms } from "./query.ts";
import { lineWeight, recencyWeight, textScore } from "./rank.ts";
import { foldText } from "./stem.ts";
import { summariesById } from "./summarize.ts";
import { type EventHit, eventUnit, type Hit, hitScore, type SummaryHit, type Unit } from "./units.ts";

const EVENT_CANDIDATES = 60;
const SUMMARY_CANDIDATES = 20;
const SUMMARY_WORDS = 5;
const LINES_PER_SUMMARY = 3;

function eventHits(deps: MemoryDeps, projectId: number, ids: number[], terms: WeightedTerm[]): EventHit[] {
  const now = deps.now();
  const hits: EventHit[] = [];
  for (const row of eventsById(deps, ids)) {
    if (row.project_id !== projectId) continue;
    const unit = eventUnit(row, terms, now);
    if (unit) hits.push({ type: "event", row, unit });
  }
  return hits;
}

/** Summaries are found by their own index, and their lines scored with the events' weights (one scale for both). */
function summaryHits(deps: MemoryDeps, projectId: number, ids: number[], terms: WeightedTerm[], looked: QueryTerm[]): SummaryHit[] {
  const now = deps.now();
  const hits: SummaryHit[] = [];
  // Only lines holding one of the words the summaries were looked up by (the query's rarest) are
  // scored; a stem's first letters begin the word it stems, so a line without them is skipped unstemmed.
  const needles = [...new Set(looked.map((t) => t.stem.slice(0, 4)))];
  for (const row of summariesById(deps, ids)) {
    if (row.project_id !== projectId) continue;
    const lines: Unit[] = [];
    const folded = foldText(row.text).split("\n");
    for (const [i, text] of row.text.split("\n").entries()) {
      if (i === 0 || !needles.some((n) => folded[i]?.includes(n))) continue;
      const match = textScore(text, terms);
      if (match.matched === 0) continue;
      const event = lineEvent(text);
      const w = lineWeight(text);
      lines.push({
        event,
        order: event ?? row.last_event,
        text,
        score: match.score * w.weight,
        match,
        claim: w.claim,
        replaces: w.replaces,
        replacedBy: null,
      });
    }
    if (lines.length === 0) continue;
    const recency = recencyWeight(row.created_at, now);
    hits.push({ type: "summary", row, lines, score: 0, recency });
  }
  return hits;
}

/** Summary lines about events already in the hits are dropped (a summary with none left goes); summaries rescored. */
function dedupe(hits: Hit[]): Hit[] {
  const events = new Set(hits.flatMap((h) => (h.type === "event" ? [h.row.id] : [])));
  return hits.filter((h) => {
    if (h.type === "event") return true;
    h.lines = h.lines
      .filter((l) => l.event === null || !events.has(l.event))
      .sort((a, b) => b.score - a.score)
      .slice(0, LINES_PER_SUMMARY);
    if (h.lines.length === 0) return false;
    h.score = h.lines[0]!.score * h.recency;
    return true;
  });
}

/**
 * The words summaries are looked up by: the query words rarest among the events (a word no event
 * holds any more, because retention dropped it, first), with their synonyms. A summary holds
 * fifty events' words, so common words find every summary and only cost lookups.
 */
function summaryTerms(terms: QueryTerm[], looked: WeightedTerm[]): QueryTerm[] {
  const df = new Map<number, number>();
  for (const t of looked) if (t.own) df.set(t.group, t.df);
  const groups = [...new Set(terms.map((t) => t.group))]
    .sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0) || a - b)
    .slice(0, SUMMARY_WORDS);
  return terms.filter((t) => groups.includes(t.group));
}

/** Ties go to the newer. */
const hitOrder = (h: Hit) => (h.type === "event" ? h.row.id : h.row.last_event);

/** The ranked hits for a query in a project, best first. */
/** `wide`: how many candidates to rank (recall, which shows a few hits among other sections, ranks fewer). */
export function rankedHits(
  deps: MemoryDeps,
  projectId: number,
  query: string,
  limit: number,
  wide: { events: number; summaries: number } = { events: EVENT_CANDIDATES, summaries: SUMMARY_CANDIDATES },
): Hit[] {
  const terms = expandTerms(queryTerms(query));
  const single = deps.registry.single();
  const events = candidates(deps.db, "events", terms, { projectId, single, keep: wide.events });
  const looked = summaryTerms(terms, events.terms);
  const summaries = candidates(deps.db, "summaries", looked, { projectId, single, keep: wide.summaries });
  // One scale: the events' weights, and the summaries' for words only summaries still hold.
  const known = new Set(events.terms.map((t) => `${t.group} ${t.stem}`));
  const scoring = [...events.terms, ...summaries.terms.filter((t) => !known.has(`${t.group} ${t.stem}`))];
  const hits: Hit[] = [...eventHits(deps, projectId, events.ids, scoring), ...summaryHits(deps, projectId, summaries.ids, scoring, looked)];
  // Summary lines were scored without their summary's age; conflicts compare like with like.
  for (const h of hits) if (h.type === "summary") for (const l of h.lines) l.score *= h.recency;
  resolveConflicts(deps, projectId, hits, scoring);
  for (const h of hits) if (h.type === "summary") for (const l of h.lines) l.score /= h.recency;
  return dedupe(hits)
    .sort((a, b) => hitScore(b) - hitScore(a) || hitOrder(b) - hitOrder(a))
    .slice(0, limit);
}
