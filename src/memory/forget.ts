/**
 * Forgetting deletes for real: the event rows, their entries in the word index (FTS5's
 * secure-delete removes them from the index segments, not just hides them), the summary lines
 * that repeat them, replacement links, and the whole text kept in the context store. Deleted
 * cells are zeroed (secure_delete), then the file is rewritten from its live rows (VACUUM: old copies
 * of rows SQLite moved between pages go too) and the WAL is emptied, so the text is gone from the
 * file, not only from query results. The rewrite is owed in the delete's own transaction (a crash
 * before it leaves the debt, and the next engine pays it) and runs off the host's thread.
 */
import { immediate } from "../db/open.ts";
import { markRewrite, rewriteOwed } from "../db/rewrite.ts";
import { fail, type Result } from "../errors.ts";
import { utf8Length } from "../text.ts";
import type { MemoryDeps } from "./deps.ts";
import { EVENT_COLUMNS, type EventRow, eventsById } from "./events.ts";
import { lineEvent } from "./extractive.ts";
import { extraTerms } from "./identifiers.ts";
import { exactGroups, ftsGroup, stemCounts } from "./query.ts";
import { extractiveSummary, type SummaryRow, summariesById } from "./summarize.ts";

export type Forgotten = { events: number[]; summaries: number[]; rewritten: number[]; note?: string };

/** Per call: a query matching more is forgotten over several calls (the answer says so). */
const MAX_PER_CALL = 5000;

/** Summaries whose window holds one of these events. */
function summariesCovering(deps: MemoryDeps, projectId: number, ids: number[]): SummaryRow[] {
  if (ids.length === 0) return [];
  const lo = Math.min(...ids);
  const hi = Math.max(...ids);
  const rows = deps.db
    .query<{ id: number }, [number, number, number]>(
      "SELECT id FROM memory_summaries WHERE project_id = ? AND first_event <= ? AND last_event >= ?",
    )
    .all(projectId, hi, lo);
  const set = new Set(ids);
  return summariesById(
    deps,
    rows.map((r) => r.id),
  ).filter(
    (s) => s.text.split("\n").some((l) => set.has(lineEvent(l) ?? -1)) || ids.some((id) => id >= s.first_event && id <= s.last_event),
  );
}

/** What a summary becomes without the forgotten events (and lines matching the query): new text, or null to delete it. */
function rewrite(deps: MemoryDeps, s: SummaryRow, gone: Set<number>, matches: (line: string) => boolean): string | null {
  if (s.method === "model") {
    // A model's prose cannot be edited line by line: rebuild from the window's remaining events, or drop it.
    // Its window's events: the project's archived events in its range that no newer summary holds.
    const rest = deps.db
      .query<EventRow, [number, number, number, number]>(
        `SELECT ${EVENT_COLUMNS} FROM memory_events e WHERE e.project_id = ?1 AND e.id BETWEEN ?2 AND ?3 AND e.archived != 0
         AND NOT EXISTS (SELECT 1 FROM memory_summaries n WHERE n.project_id = ?1 AND n.id > ?4 AND e.id BETWEEN n.first_event AND n.last_event)
         ORDER BY e.id`,
      )
      .all(s.project_id, s.first_event, s.last_event, s.id)
      .filter((e) => !gone.has(e.id));
    return rest.length > 0 ? extractiveSummary(deps, rest) : null;
  }
  const [header, ...lines] = s.text.split("\n");
  const kept = lines.filter((l) => !gone.has(lineEvent(l) ?? -1) && !matches(l));
  return kept.length > 0 ? [header, ...kept].join("\n") : null;
}

type Erase = { events: EventRow[]; drop: number[]; rewrite: number[]; matches: (line: string) => boolean };

async function erase(deps: MemoryDeps, projectId: number, what: Erase): Promise<Forgotten> {
  const { db } = deps;
  const ids = what.events.map((e) => e.id);
  const gone = new Set(ids);
  const touched = new Map<number, SummaryRow>();
  for (const s of [...summariesCovering(deps, projectId, ids), ...summariesById(deps, [...what.drop, ...what.rewrite])]) {
    if (s.project_id === projectId) touched.set(s.id, s);
  }
  const plans = [...touched.values()].map((s) => ({ s, text: what.drop.includes(s.id) ? null : rewrite(deps, s, gone, what.matches) }));
  const counted = await Promise.all(plans.map(async (p) => (p.text === null || p.text === p.s.text ? 0 : deps.count([p.text]))));
  const result: Forgotten = { events: ids, summaries: [], rewritten: [] };
  const secure = db.query<{ secure_delete: number }, []>("PRAGMA secure_delete").get()?.secure_delete ?? 0;
  db.exec("PRAGMA secure_delete = 1");
  try {
    immediate(db, () => {
      db.exec("INSERT INTO memory_events_fts (memory_events_fts, rank) VALUES ('secure-delete', 1)");
      db.exec("INSERT INTO memory_summaries_fts (memory_summaries_fts, rank) VALUES ('secure-delete', 1)");
      const del = db.query("DELETE FROM memory_events WHERE id = ?");
      let removed = 0;
      let bytes = 0;
      for (const e of what.events) {
        if (del.run(e.id).changes === 0) continue;
        removed++;
        bytes += utf8Length(e.content);
      }
      db.query("UPDATE memory_projects SET events = max(0, events - ?), text_bytes = max(0, text_bytes - ?) WHERE id = ?").run(
        removed,
        bytes,
        projectId,
      );
      // A forgotten replacement hands its role to what replaced it, or the old statement is current again.
      for (const id of ids) {
        db.query(
          `INSERT OR IGNORE INTO memory_supersessions (old_id, new_id, project_id)
           SELECT o.old_id, n.new_id, o.project_id FROM memory_supersessions o JOIN memory_supersessions n ON n.old_id = o.new_id
           WHERE o.new_id = ?1 AND n.old_id = ?1`,
        ).run(id);
        db.query("DELETE FROM memory_supersessions WHERE new_id = ?1 OR old_id = ?1").run(id);
      }
      plans.forEach((p, i) => {
        if (p.text === null) {
          db.query("DELETE FROM memory_summaries WHERE id = ?").run(p.s.id);
          // Its remaining events stay archived (searchable until retention), never summarised again.
          result.summaries.push(p.s.id);
        } else if (p.text !== p.s.text) {
          db.query("UPDATE memory_summaries SET text = ?, tokens = ?, terms = ? WHERE id = ?").run(
            p.text,
            counted[i]!,
            extraTerms(p.text),
            p.s.id,
          );
          result.rewritten.push(p.s.id);
        }
      });
      db.exec("INSERT INTO memory_events_fts (memory_events_fts, rank) VALUES ('secure-delete', 0)");
      db.exec("INSERT INTO memory_summaries_fts (memory_summaries_fts, rank) VALUES ('secure-delete', 0)");
      // A forget that deleted nothing still rewrites: it clears what an earlier one left behind.
      markRewrite(db);
      // Every page is written anew by the rewrite this owes, with freed space zeroed from then on.
      db.query("INSERT OR IGNORE INTO memory_state (key, value) VALUES (?, '1')").run(CLEAN_PAGES_KEY);
    });
  } finally {
    db.exec(`PRAGMA secure_delete = ${secure}`);
  }
  for (const e of what.events) {
    if (!e.source) continue;
    await deps.dropWhole?.(e.source).catch((error: unknown) => deps.log(`memory: could not drop ${e.source}: ${String(error)}`));
  }
  result.note = await compact(deps);
  return result;
}

/** The key set once every page of memory was written with freed space zeroed (secure_delete). */
export const CLEAN_PAGES_KEY = "clean_pages";

/** Marks a database whose memory has never held anything: every page memory writes from now on is zeroed as it is freed. */
export function markCleanIfEmpty(db: MemoryDeps["db"]): void {
  try {
    if (db.query("SELECT 1 FROM memory_projects LIMIT 1").get()) return;
    db.query("INSERT OR IGNORE INTO memory_state (key, value) VALUES (?, '1')").run(CLEAN_PAGES_KEY);
  } catch {
    // A read-only database: nothing is written or forgotten through it.
  }
}

/**
 * After the rows are gone: every forget rewrites the file (db/rewrite.ts). secure_delete zeroes a
 * deleted row's cell, but a row SQLite had moved to another page while rebalancing left its old
 * bytes in the first page's unused space, which only a rewrite from the live rows clears (the
 * store's purge does the same). The erase committed the marker that owes the rewrite; the engine
 * runs it (`deps.rewrite`, off the host's thread), else it runs here. Returns what the user should
 * know, or "".
 */
async function compact(deps: MemoryDeps): Promise<string> {
  if (deps.rewrite) return deps.rewrite();
  const r = await rewriteOwed(deps.db, true);
  if (!r.ok) deps.log(`memory: rewrite after forget: ${r.reason}`);
  return r.ok ? "" : ` The file could not be rewritten yet (${r.reason}): old copies stay in its free space until it is.`;
}

/** Forgets one event (`e123` / `123`) or summary (`s45`). */
export async function forgetId(
  deps: MemoryDeps,
  projectId: number,
  target: { type: "event" | "summary"; id: number },
): Promise<Result<{ forgotten: Forgotten }>> {
  const none = () => false;
  if (target.type === "summary") {
    const s = summariesById(deps, [target.id])[0];
    if (!s || s.project_id !== projectId) return fail("NOT_FOUND", `No summary s${target.id} in this project; memory search shows ids.`);
    return { ok: true, forgotten: await erase(deps, projectId, { events: [], drop: [s.id], rewrite: [], matches: none }) };
  }
  const e = eventsById(deps, [target.id])[0];
  if (!e || e.project_id !== projectId) return fail("NOT_FOUND", `No event e${target.id} in this project; memory search shows ids.`);
  return { ok: true, forgotten: await erase(deps, projectId, { events: [e], drop: [], rewrite: [], matches: none }) };
}

/**
 * Forgets every event and summary line holding all the query's words (stemmed, as search matches
 * them): AND, never OR, so a forget never reaches further than the words given.
 */
export async function forgetQuery(
  deps: MemoryDeps,
  projectId: number,
  query: string,
): Promise<Result<{ forgotten: Forgotten; more: boolean }>> {
  const terms = exactGroups(query, 12);
  if (terms.length === 0) return fail("EMPTY_QUERY", "Give the words to forget (letters or digits), or an id like e123.");
  const match = terms.map(ftsGroup).join(" ");
  const eventIds = deps.db
    .query<{ id: number }, [string, number]>(
      `SELECT f.rowid AS id FROM memory_events_fts f JOIN memory_events e ON e.id = f.rowid
       WHERE f.memory_events_fts MATCH ? AND e.project_id = ? LIMIT ${MAX_PER_CALL + 1}`,
    )
    .all(match, projectId)
    .map((r) => r.id);
  const summaryIds = deps.db
    .query<{ id: number }, [string, number]>(
      "SELECT f.rowid AS id FROM memory_summaries_fts f JOIN memory_summaries s ON s.id = f.rowid WHERE f.memory_summaries_fts MATCH ? AND s.project_id = ?",
    )
    .all(match, projectId)
    .map((r) => r.id);
  const stems = terms.map((t) => t.forms[0]!.stem);
  const matches = (line: string) => {
    const counts = stemCounts(line);
    return stems.every((s) => counts.has(s));
  };
  const events = eventsById(deps, eventIds.slice(0, MAX_PER_CALL));
  const forgotten = await erase(deps, projectId, { events, drop: [], rewrite: summaryIds, matches });
  return { ok: true, forgotten, more: eventIds.length > MAX_PER_CALL };
}
