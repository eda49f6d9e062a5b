/**
 * Episodic memory's one request/answer vocabulary. Every surface (pi, MCP, CLI, the stdio RPC)
 * sends a MemoryRequest to the engine's memory entry point and gets a Result<MemoryAnswer> back:
 * plain JSON both ways, so the same calls work in-process and over a pipe.
 */
import type { Result } from "../errors.ts";
import { sha256Bytes } from "../hash.ts";

export const EVENT_KINDS = ["prompt", "answer", "decision", "correction", "error", "command", "files", "note"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export function isEventKind(value: unknown): value is EventKind {
  return typeof value === "string" && (EVENT_KINDS as readonly string[]).includes(value);
}

/** The latest time a JavaScript date can hold (year 275760): a later `ts` is refused. */
export const MAX_TS = 8.64e15;

/**
 * Stable keys for the events of one import that have no id of their own: an event's session,
 * kind, time and text, and how many identical events came before it in the same import (the same
 * line twice is two events; the same file imported again is none). Holds one small number per
 * distinct event.
 */
export function importKeys(): (event: { session?: string | null; kind: string; ts?: number; text: string }) => string {
  const seen = new Map<number, number>();
  return (event) => {
    const digest = Buffer.from(sha256Bytes(JSON.stringify([event.session ?? null, event.kind, event.ts ?? null, event.text])));
    const short = digest.readUIntBE(0, 6);
    const before = seen.get(short) ?? 0;
    seen.set(short, before + 1);
    return `line\0${digest.toString("base64")}\0${before}`;
  };
}

/** Events per addMany call: a bigger import is sent in batches (the CLI does). */
export const MAX_BATCH = 5000;

/**
 * One event to store. `ts` (ms since the epoch) only for imports; otherwise the service's clock.
 * `key`: a stable key of an imported event; an event whose key was stored before is not stored again.
 */
export type NewEvent = { kind: EventKind; text: string; session?: string | null; ts?: number; key?: string };

export type MemoryRequest =
  | { type: "add"; project: string; session?: string | null; kind: EventKind; text: string; ts?: number }
  | { type: "addMany"; project: string; session?: string | null; events: NewEvent[] }
  | { type: "search"; project: string; query: string; limit?: number; session?: string | null }
  | {
      type: "recall";
      project: string;
      session?: string | null;
      prompt?: string;
      /** Token budget (default memory.recallTokens). */
      budget?: number;
      /** Recorded as an injection (shown by /memory and stats) when set. */
      inject?: "start" | "prompt";
    }
  | { type: "forget"; project: string; id?: string; query?: string }
  | { type: "stats"; project?: string }
  | { type: "status"; project: string; session?: string | null }
  | { type: "setEnabled"; project: string; enabled: boolean }
  /** Summarise due windows now (extractive), at most `steps` windows (bounded work per call). */
  | { type: "summarize"; project: string; steps?: number; force?: boolean }
  /** The next window due for a summary, as text a model can summarise (memory.summarize = model). */
  | { type: "window"; project: string }
  /** Stores a model's summary of a window given by `window`; falls back to extractive when `text` is empty. */
  | { type: "storeSummary"; project: string; window: { first: number; last: number }; text: string | null }
  | { type: "retention" }
  /** The newest events and summaries of a project, newest first (the page's list). */
  | { type: "recent"; project: string; limit?: number };

export type HitType = "event" | "summary";

export type MemoryHit = {
  /** `e123` for an event, `s45` for a summary. */
  id: string;
  type: HitType;
  kind: EventKind | "summary";
  ts: number;
  session: string | null;
  text: string;
  score: number;
  /** The event that replaced this one (a later correction), when there is one. */
  supersededBy: string | null;
};

export type AddAnswer = {
  type: "add";
  id: string;
  kind: EventKind;
  tokens: number;
  /** The event was cut at memory.maxEventBytes; the whole text is this context-store source. */
  cut: boolean;
  sourceId: string | null;
  redactions: number;
  /** Earlier events this one replaces. */
  supersedes: string[];
  summaries: string[];
  /** A window is due and memory.summarize = model: the surface may ask for it (`window`). */
  summaryDue: boolean;
  /** Set when the project's memory is turned off: nothing was stored. */
  skipped?: string;
};

export type AddManyAnswer = {
  type: "addMany";
  added: number;
  /** Events not stored because an event with the same key was stored before (a repeated import). */
  duplicates: number;
  ids: string[];
  /** Events not stored, with their position in the request and why. */
  rejected: { index: number; reason: string }[];
  summaries: string[];
  /** Windows are still due for a summary: `summarize` until it is false. */
  pending: boolean;
  skipped?: string;
};

export type SearchAnswer = { type: "search"; query: string; hits: MemoryHit[]; text: string };

export type RecallAnswer = {
  type: "recall";
  text: string;
  tokens: number;
  budget: number;
  items: { id: string; section: "summary" | "session" | "recent" | "related" }[];
};

export type ForgetAnswer = { type: "forget"; events: number; summaries: number; ids: string[]; text: string };

export type InjectionInfo = { at: number; session: string | null; mode: "start" | "prompt"; tokens: number; items: number };

export type ProjectStats = {
  project: string;
  enabled: boolean;
  events: number;
  unarchived: number;
  summaries: number;
  sessions: number;
  textBytes: number;
  supersessions: number;
};

export type StatsAnswer = {
  type: "stats";
  projects: ProjectStats[];
  totals: { events: number; summaries: number; textBytes: number; databaseBytes: number };
  text: string;
};

export type StatusAnswer = {
  type: "status";
  project: ProjectStats;
  sessionEvents: number;
  injections: InjectionInfo[];
  text: string;
};

export type SummarizeAnswer = { type: "summarize"; summaries: string[]; pending: boolean };

export type WindowAnswer = {
  type: "window";
  window: { first: number; last: number; events: number; tokens: number } | null;
  /** The window's events as lines `- e123 kind: text`, for a model to summarise. */
  text: string;
};

export type RetentionAnswer = { type: "retention"; events: number; bytes: number };

export type SetEnabledAnswer = { type: "setEnabled"; project: string; enabled: boolean; text: string };

export type RecentAnswer = { type: "recent"; hits: MemoryHit[] };

export type MemoryAnswer =
  | AddAnswer
  | AddManyAnswer
  | SearchAnswer
  | RecallAnswer
  | ForgetAnswer
  | StatsAnswer
  | StatusAnswer
  | SummarizeAnswer
  | WindowAnswer
  | RetentionAnswer
  | SetEnabledAnswer
  | RecentAnswer;

/** What a surface needs: the engine (or anything) with the memory entry point. */
export type MemoryLike = { memory(request: MemoryRequest): Promise<Result<MemoryAnswer>> };

/** Narrows an answer to the type a request asked for (a mismatch is a bug, not a user error). */
export function answerOf<T extends MemoryAnswer["type"]>(answer: MemoryAnswer, type: T): Extract<MemoryAnswer, { type: T }> {
  if (answer.type !== type) throw new Error(`memory: expected a ${type} answer, got ${answer.type}`);
  return answer as Extract<MemoryAnswer, { type: T }>;
}
