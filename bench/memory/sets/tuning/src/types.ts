/** A hand-written project history for tuning: its planted statements, everyday chatter and the questions asked later. */
import type { EventKind } from "../../../../../src/memory/types.ts";

export type Plant = {
  id: string;
  /** 1-based session it is said in. */
  session: number;
  kind: EventKind;
  text: string;
  /** A substring that only this statement holds (facts.json). */
  mark: string;
};

export type Question = {
  id: string;
  query: string;
  answer: string;
  stale?: string;
  /** Asked after this session (default: after the last). */
  after?: number;
  kind: "fact" | "corrected" | "absent";
};

export type ProjectDef = {
  name: string;
  /** The first session's day (ISO date). */
  start: string;
  sessions: number;
  /** Chatter events per session, [lo, hi]. */
  perSession: [number, number];
  /** Everyday events; `{a|b|c}` picks one of the alternatives each time it is used. */
  chatter: [EventKind, string][];
  plants: Plant[];
  questions: Question[];
};
