/**
 * The extractive summary of a window: no model, deterministic. Corrections, decisions, notes,
 * preferences and facts are kept verbatim (up to a long line each), then errors and failed
 * commands, edited files and what was asked, until the summary's token budget is spent. Every
 * line names its event (`- e123 correction: ...`), so a later correction can mark it replaced and
 * forgetting the event removes its line.
 */
import { countTokens } from "../tokens/count.ts";
import { isClaim, statementKind } from "./classify.ts";
import type { EventRow } from "./events.ts";

/** About the seed design's ~150-token summaries, with room for a window full of corrections. */
export const SUMMARY_TOKENS = 400;

type Line = { id: number; label: string; text: string; rank: number };

/** `- e1 note: x` and its newline. */
const MIN_LINE_TOKENS = 7;
const MAX_MISSES = 3;

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);

function lineOf(e: EventRow): Line {
  const text = oneLine(e.content);
  switch (e.kind) {
    case "correction":
      return { id: e.id, label: "correction", text: clip(text, 320), rank: 0 };
    case "decision":
      return { id: e.id, label: "decision", text: clip(text, 320), rank: 1 };
    case "note":
      return { id: e.id, label: "note", text: clip(text, 320), rank: 2 };
    case "prompt": {
      const kind = statementKind(text);
      if (kind === "preference") return { id: e.id, label: "preference", text: clip(text, 280), rank: 3 };
      if (kind === "fact") return { id: e.id, label: "fact", text: clip(text, 280), rank: 4 };
      return { id: e.id, label: "asked", text: clip(text, 120), rank: 8 };
    }
    case "error":
      return { id: e.id, label: "error", text: clip(text, 200), rank: 5 };
    case "command":
      return { id: e.id, label: "command", text: clip(text, 160), rank: 6 };
    case "files":
      return { id: e.id, label: "files", text: clip(text, 160), rank: 7 };
    case "answer":
      return { id: e.id, label: "answer", text: clip(text, isClaim(text) ? 200 : 120), rank: isClaim(text) ? 9 : 10 };
  }
}

export function summaryHeader(events: EventRow[], sessions: number, day: (ts: number) => string): string {
  const first = events[0]!;
  const last = events.at(-1)!;
  const from = day(Math.min(...events.map((e) => e.ts)));
  const to = day(Math.max(...events.map((e) => e.ts)));
  return (
    `Summary of e${first.id}-e${last.id} (${events.length} events, ${sessions} session${sessions === 1 ? "" : "s"}, ` +
    `${from === to ? from : `${from} to ${to}`})`
  );
}

/** The window's lines in rank then time order (a command failing three times is one line), not yet cut to a budget. */
export function rankedLines(events: EventRow[], replaced: ReadonlySet<number>): { line: Line; text: string }[] {
  const seen = new Map<string, { line: Line; times: number }>();
  for (const e of events) {
    const line = lineOf(e);
    if (replaced.has(e.id)) line.rank = 11;
    const key = `${line.label}\n${line.text}`;
    const prior = seen.get(key);
    if (prior) prior.times++;
    else seen.set(key, { line, times: 1 });
  }
  return [...seen.values()]
    .sort((a, b) => a.line.rank - b.line.rank || a.line.id - b.line.id)
    .map(({ line, times }) => ({ line, text: `- e${line.id} ${line.label}${times > 1 ? ` (x${times})` : ""}: ${line.text}` }));
}

/**
 * The window's lines that fit `budget` tokens (real ones, each line and its newline), in rank then
 * time order. Statements already replaced come last (kept when there is room: a replacement can be
 * undone by forgetting it).
 */
export function extractiveLines(events: EventRow[], replaced: ReadonlySet<number>, budget = SUMMARY_TOKENS): string[] {
  const out: string[] = [];
  let used = 0;
  let misses = 0;
  for (const { line, text } of rankedLines(events, replaced)) {
    // Corrections and decisions get three times the room; the rest fits the budget.
    const room = (line.rank <= 1 ? budget * 3 : budget) - used;
    // No line is shorter than this; and after a few that did not fit, the rest (as long) will not either.
    if (room < MIN_LINE_TOKENS || (line.rank > 1 && misses >= MAX_MISSES)) {
      if (line.rank > 1) break;
      continue;
    }
    const cost = countTokens(text) + 1;
    if (cost > room) {
      misses++;
      continue;
    }
    used += cost;
    out.push(text);
  }
  return out;
}

const REF = /^- e(\d+)\b/;

/** The event a summary line names, or null (the header, a model's free text). */
export function lineEvent(line: string): number | null {
  const m = REF.exec(line);
  return m ? Number(m[1]) : null;
}
