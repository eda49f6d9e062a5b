/** The ranked pieces a search is made of: events, and summaries with their matching lines. */
import type { WeightedGroup } from "./candidates.ts";
import type { EventRow } from "./events.ts";
import { eventWords } from "./query.ts";
import { eventWeight, recencyWeight, type TextScore, wordsScore } from "./rank.ts";
import type { SummaryRow } from "./summarize.ts";

/** One statement: an event, or a line of a summary. */
export type Unit = {
  /** The event it is or names (null for a summary line that names none). */
  event: number | null;
  /** Its place in time: the event id (a free summary line: its summary's last event). */
  order: number;
  text: string;
  score: number;
  match: TextScore;
  claim: boolean;
  /** A record someone kept on purpose: a decision, note or correction (an event of that kind, or a summary line labelled so). */
  record: boolean;
  /** An agent's answer (an event) that states a fact (rank.ts eventWeight: claim): what the agent found and said, the record's nearest kin. */
  statedAnswer?: boolean;
  replacedBy: number | null;
  /** How many events said the same (repeated chatter shown once). */
  repeats: number;
};

export type EventHit = { type: "event"; row: EventRow; unit: Unit };
export type SummaryHit = { type: "summary"; row: SummaryRow; lines: Unit[]; score: number; recency: number };
export type Hit = EventHit | SummaryHit;

/** Kinds of event that are records kept on purpose, not chatter. */
export const isRecord = (kind: string) => kind === "decision" || kind === "note" || kind === "correction";

export const hitScore = (h: Hit) => (h.type === "event" ? h.unit.score : h.score);

/** A summary hit less the lines `keep` refuses, scored by its best line left; false when none is left. */
export function keepLines(h: SummaryHit, keep: (line: Unit) => boolean): boolean {
  h.lines = h.lines.filter(keep);
  if (h.lines.length === 0) return false;
  h.score = Math.max(...h.lines.map((l) => l.score));
  return true;
}

/** An event as a ranked unit (null when it matches none of the groups); `manner`: the query asks how something is done (rank.ts eventWeight). */
export function eventUnit(row: EventRow, groups: WeightedGroup[], now: number, manner = false): Unit | null {
  const match = wordsScore(eventWords(row), groups);
  if (match.matched === 0) return null;
  const w = eventWeight(row.kind, row.content, groups, manner);
  return {
    event: row.id,
    order: row.id,
    text: row.content,
    score: match.score * w.weight * recencyWeight(row.ts, now),
    match,
    claim: w.claim,
    record: isRecord(row.kind),
    statedAnswer: row.kind === "answer" && w.claim,
    replacedBy: null,
    repeats: 1,
  };
}
