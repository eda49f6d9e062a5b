/** The ranked pieces a search is made of: events, and summaries with their matching lines. */
import type { WeightedTerm } from "./candidates.ts";
import type { EventRow } from "./events.ts";
import { eventWeight, recencyWeight, type TextScore, textScore } from "./rank.ts";
import type { SummaryRow } from "./summarize.ts";

/** What conflicts are judged on: one statement (an event, or a line of a summary). */
export type Unit = {
  /** The event it is or names (null for a summary line that names none). */
  event: number | null;
  /** Its place in time: the event id (a free summary line: its summary's last event). */
  order: number;
  text: string;
  score: number;
  match: TextScore;
  claim: boolean;
  /** It may replace an older statement (the user's statements and corrections, not the assistant's answers). */
  replaces: boolean;
  replacedBy: number | null;
};

export type EventHit = { type: "event"; row: EventRow; unit: Unit };
export type SummaryHit = { type: "summary"; row: SummaryRow; lines: Unit[]; score: number; recency: number };
export type Hit = EventHit | SummaryHit;

export const hitScore = (h: Hit) => (h.type === "event" ? h.unit.score : h.score);

/** An event as a ranked unit (null when it matches none of the terms). */
export function eventUnit(row: EventRow, terms: WeightedTerm[], now: number): Unit | null {
  const match = textScore(row.content, terms);
  if (match.matched === 0) return null;
  const w = eventWeight(row.kind, row.content);
  return {
    event: row.id,
    order: row.id,
    text: row.content,
    score: match.score * w.weight * recencyWeight(row.ts, now),
    match,
    claim: w.claim,
    replaces: w.replaces,
    replacedBy: null,
  };
}
