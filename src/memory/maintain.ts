/**
 * The work a write leaves: check new corrections against older statements, summarise windows
 * that are due, retention, and now and then merging the word indexes. Bounded by time per call
 * (the engine serialises every operation on one connection, so no call may hold it long); what
 * is left is done by the next call, and `summarize` finishes it on request. The one longer step
 * is the index merge (optimize.ts: 1.5 s at a million events, after every quarter of growth).
 */
import type { MemoryDeps } from "./deps.ts";
import type { EventRow } from "./events.ts";
import { maybeOptimize, mergeSmallSegments } from "./optimize.ts";
import { maybeRunRetention } from "./retention.ts";
import { checkedModelSummary, extractiveSummary, nextWindow, storeWindowSummaries, storeWindowSummary } from "./summarize.ts";
import { checkedUpTo, supersedeStep } from "./supersede.ts";

export const STEP_MS = 30;

export type Maintained = { summaries: number[]; pending: boolean; summaryDue: boolean };

/** Supersession checks until none are pending or the time is up; true when all are done. */
export function checkReplacements(deps: MemoryDeps, projectId: number, deadline: number): boolean {
  for (;;) {
    const step = supersedeStep(deps, projectId, deadline);
    if (!step.pending) return true;
    if (performance.now() > deadline) return false;
  }
}

/** A model summary is awaited while fewer than two windows are waiting (after `after`); then extractive takes over. */
function waitForModel(deps: MemoryDeps, projectId: number, after: number): boolean {
  if (deps.config.memory.summarize !== "model") return false;
  const { windowEvents } = deps.config.memory;
  const waiting = deps.db
    .query<{ n: number }, [number, number, number]>(
      "SELECT count(*) AS n FROM (SELECT 1 FROM memory_events WHERE project_id = ? AND archived = 0 AND id > ? LIMIT ?)",
    )
    .get(projectId, after, windowEvents * 2)!.n;
  return waiting < windowEvents * 2;
}

/**
 * `backlog`: the caller is working off what an import left (summarize). The import wrote its
 * batches as dozens of index segments, and a supersession check's lookup (newest rows before the
 * event) walks, in every segment, all the rows newer than the event: the checks that follow an
 * import cost in proportion to the events after each one (quadratic in the import's size; most
 * of a million-event import's 386 s). Merged first (when grown by a quarter, as after any
 * write), a lookup seeks in one segment; the index holds the same rows, the checks find the same.
 * (The summaries' index is merged as before, once the backlog is done: the checks do not read it.)
 */
export async function maintain(
  deps: MemoryDeps,
  projectId: number,
  options: { budgetMs?: number; maxSummaries?: number; force?: boolean; backlog?: boolean } = {},
): Promise<Maintained> {
  if (options.backlog) maybeOptimize(deps, "memory_events_fts");
  const deadline = performance.now() + (options.budgetMs ?? STEP_MS);
  const out: Maintained = { summaries: [], pending: false, summaryDue: false };
  if (!checkReplacements(deps, projectId, deadline)) return { ...out, pending: true };
  // The windows due, one after another (each starts after the one before), written together.
  const ready: { rows: EventRow[]; text: string }[] = [];
  let after = 0;
  for (let n = 0; n < (options.maxSummaries ?? 4); n++) {
    const window = nextWindow(deps, projectId, options.force, after);
    if (!window.due) break;
    if (!options.force && waitForModel(deps, projectId, after)) {
      out.summaryDue = true;
      break;
    }
    if (!checkedUpTo(deps, projectId, window.rows.at(-1)!.id)) {
      out.pending = true;
      break;
    }
    ready.push({ rows: window.rows, text: extractiveSummary(deps, window.rows) });
    after = window.rows.at(-1)!.id;
    if (performance.now() > deadline) break;
  }
  out.summaries.push(...(await storeWindowSummaries(deps, projectId, ready, "extractive")));
  // Cut short by the time or the count: say whether windows are still due.
  if (!out.pending && !out.summaryDue) out.pending = nextWindow(deps, projectId, options.force).due;
  maybeRunRetention(deps);
  // Not while a backlog is being worked off (an import): once it is done, one merge does for all.
  if (!out.pending && !out.summaryDue && !nextWindow(deps, projectId).due && maybeOptimize(deps).length === 0) mergeSmallSegments(deps);
  return out;
}

/** Stores a model's summary of the window starting at `first`; extractive when the text is empty or the window moved. */
export async function storeModelSummary(
  deps: MemoryDeps,
  projectId: number,
  window: { first: number; last: number },
  text: string | null,
): Promise<number | null> {
  const current = nextWindow(deps, projectId, true);
  const rows = current.rows.filter((r) => r.id >= window.first && r.id <= window.last);
  if (rows.length === 0 || rows[0]!.id !== current.rows[0]!.id) return null; // summarised meanwhile
  checkReplacements(deps, projectId, performance.now() + STEP_MS * 10);
  const body = text?.trim() ? checkedModelSummary(deps, rows, text) : extractiveSummary(deps, rows);
  return storeWindowSummary(deps, projectId, rows, body, text?.trim() ? "model" : "extractive");
}
