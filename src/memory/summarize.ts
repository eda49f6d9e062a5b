/**
 * Rolling summaries. When a project's unarchived events pass memory.windowEvents or
 * memory.windowTokens, the oldest window of them is summarised and archived (it stays
 * searchable until retention drops it; the summary stays). One window per step. The window is
 * claimed in the transaction that writes its summary: a second process that summarised it first
 * wins, and this one finds the next window.
 */
import { IN_ID_LIST, idList } from "../db/id-list.ts";
import { immediate } from "../db/open.ts";
import { redact } from "../redact/redact.ts";
import type { MemoryDeps } from "./deps.ts";
import { EVENT_COLUMNS, type EventRow } from "./events.ts";
import { extractiveLines, lineEvent, summaryHeader } from "./extractive.ts";
import { extraTerms } from "./identifiers.ts";
import { replacements } from "./supersede.ts";

export type SummaryRow = {
  id: number;
  project_id: number;
  first_event: number;
  last_event: number;
  events: number;
  text: string;
  tokens: number;
  method: string;
  created_at: number;
  terms: string | null;
};

export const SUMMARY_COLUMNS = "id, project_id, first_event, last_event, events, text, tokens, method, created_at, terms";
const MAX_MODEL_SUMMARY_BYTES = 8192;

export type Window = { rows: EventRow[]; due: boolean; tokens: number };

/**
 * The oldest unarchived events up to one window, and whether the project is past a threshold.
 * `after`: the last event of windows summarised but not yet written (the window after them).
 */
export function nextWindow(deps: MemoryDeps, projectId: number, force = false, after = 0): Window {
  const { windowEvents, windowTokens } = deps.config.memory;
  const rows = deps.db
    .query<EventRow, [number, number, number]>(
      `SELECT ${EVENT_COLUMNS} FROM memory_events WHERE project_id = ? AND archived = 0 AND id > ? ORDER BY id LIMIT ?`,
    )
    .all(projectId, after, windowEvents);
  const window: EventRow[] = [];
  let tokens = 0;
  for (const r of rows) {
    window.push(r);
    tokens += r.tokens;
    if (tokens >= windowTokens) break;
  }
  const due = window.length > 0 && (force || window.length >= windowEvents || tokens >= windowTokens);
  return { rows: window, due, tokens };
}

const day = (ts: number) => new Date(ts).toISOString().slice(0, 10);

function sessionsIn(rows: EventRow[]): number {
  return new Set(rows.map((r) => r.session_id)).size;
}

/** The extractive summary text of a window, statements replaced by later ones left out. */
export function extractiveSummary(deps: MemoryDeps, rows: EventRow[]): string {
  const replaced = new Set(
    replacements(
      deps,
      rows.map((r) => r.id),
    ).keys(),
  );
  return [summaryHeader(rows, sessionsIn(rows), day), ...extractiveLines(rows, replaced)].join("\n");
}

/**
 * A model's summary, checked: redacted, cut to size, and every correction and decision of the
 * window it left out added back verbatim (a model must not drop what the user corrected).
 */
export function checkedModelSummary(deps: MemoryDeps, rows: EventRow[], text: string): string {
  let body = redact(text.trim()).text;
  if (Buffer.byteLength(body) > MAX_MODEL_SUMMARY_BYTES) body = `${body.slice(0, MAX_MODEL_SUMMARY_BYTES / 2)}…`;
  const kept = new Set(body.split("\n").map(lineEvent));
  const replaced = new Set(
    replacements(
      deps,
      rows.map((r) => r.id),
    ).keys(),
  );
  const missing = rows.filter((r) => (r.kind === "correction" || r.kind === "decision") && !kept.has(r.id) && !body.includes(`e${r.id}`));
  const added = extractiveLines(missing, replaced);
  return [summaryHeader(rows, sessionsIn(rows), day), body, ...added].join("\n");
}

/** Writes the summary and archives its window, unless another process archived any of it first. */
export async function storeWindowSummary(
  deps: MemoryDeps,
  projectId: number,
  rows: EventRow[],
  text: string,
  method: "extractive" | "model",
): Promise<number | null> {
  return (await storeWindowSummaries(deps, projectId, [{ rows, text }], method))[0] ?? null;
}

/**
 * Writes consecutive windows' summaries in one transaction (a commit each made a backlog's pass
 * write the same pages again and again), in order, each unless another process archived any of
 * its events first; then the ones after it are left for the next pass. The ids written.
 */
export async function storeWindowSummaries(
  deps: MemoryDeps,
  projectId: number,
  windows: readonly { rows: EventRow[]; text: string }[],
  method: "extractive" | "model",
): Promise<number[]> {
  const tokens: number[] = [];
  for (const w of windows) tokens.push(await deps.count([w.text]));
  if (windows.length === 0) return [];
  return immediate(deps.db, () => {
    const { db } = deps;
    const written: number[] = [];
    for (const [i, { rows, text }] of windows.entries()) {
      const ids = rows.map((r) => r.id);
      const list = idList(ids);
      const open = db
        .query<{ n: number }, [string]>(`SELECT count(*) AS n FROM memory_events WHERE archived = 0 AND id ${IN_ID_LIST}`)
        .get(list)!.n;
      if (open !== ids.length) break;
      const summary = db
        .query<{ id: number }, [number, number, number, number, string, number, string, number, string | null]>(
          "INSERT INTO memory_summaries (project_id, first_event, last_event, events, text, tokens, method, created_at, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .get(projectId, ids[0]!, ids.at(-1)!, ids.length, text, tokens[i]!, method, deps.now(), extraTerms(text))!.id;
      // A flag, not the summary's id (the summary is the one whose range holds the event, coveringSummaries):
      // 0 and 1 take no bytes in a row, so archiving rewrites each row in place. A row that grew would
      // split its full page, and a tenth of the events' pages would stay empty.
      db.query(`UPDATE memory_events SET archived = 1 WHERE id ${IN_ID_LIST}`).run(list);
      written.push(summary);
    }
    return written;
  });
}

/**
 * The summary each archived event is in: the newest of the project's summaries whose range holds
 * it (ranges of one project do not overlap, unless a forgotten newest event's id was used again).
 * Databases written before archived became a flag hold the summary's id there; the range says the same.
 */
export function coveringSummaries(deps: MemoryDeps, events: readonly { id: number; project_id: number }[]): Map<number, SummaryRow> {
  const out = new Map<number, SummaryRow>();
  const byProject = new Map<number, number[]>();
  for (const e of events) byProject.set(e.project_id, [...(byProject.get(e.project_id) ?? []), e.id]);
  for (const [projectId, ids] of byProject) {
    ids.sort((a, b) => a - b);
    // Those ending inside the span, and the one that runs past its end (by memory_summaries_range).
    const found = deps.db
      .query<SummaryRow, [number, number, number]>(
        `SELECT * FROM (SELECT ${SUMMARY_COLUMNS} FROM memory_summaries WHERE project_id = ?1 AND last_event BETWEEN ?2 AND ?3)
         UNION ALL SELECT * FROM (SELECT ${SUMMARY_COLUMNS} FROM memory_summaries WHERE project_id = ?1 AND last_event > ?3 ORDER BY last_event LIMIT 1)`,
      )
      .all(projectId, ids[0]!, ids.at(-1)!)
      .filter((s) => s.first_event <= ids.at(-1)!)
      .sort((a, b) => a.id - b.id);
    for (const s of found) {
      // The first id at or after the summary's first event (a binary search), then its range.
      let lo = 0;
      let hi = ids.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (ids[mid]! < s.first_event) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < ids.length && ids[i]! <= s.last_event; i++) out.set(ids[i]!, s);
    }
  }
  return out;
}

/** The project's newest summaries, newest first. */
export function latestSummaries(deps: MemoryDeps, projectId: number, n: number): SummaryRow[] {
  return deps.db
    .query<SummaryRow, [number, number]>(`SELECT ${SUMMARY_COLUMNS} FROM memory_summaries WHERE project_id = ? ORDER BY id DESC LIMIT ?`)
    .all(projectId, n);
}

export function summariesById(deps: MemoryDeps, ids: readonly number[]): SummaryRow[] {
  if (ids.length === 0) return [];
  return deps.db
    .query<SummaryRow, [string]>(`SELECT ${SUMMARY_COLUMNS} FROM memory_summaries WHERE id ${IN_ID_LIST} ORDER BY id`)
    .all(idList(ids));
}

/** The window of a model summary as lines a model can summarise. */
export function windowText(rows: EventRow[]): string {
  return rows.map((r) => `- e${r.id} ${r.kind}: ${r.content.replace(/\s+/g, " ").slice(0, 600)}`).join("\n");
}
