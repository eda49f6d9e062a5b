/**
 * Retention: archived events (already summarised) older than memory.keepDays, and summarised
 * longer ago than that, are dropped, and the oldest archived events go first when all events'
 * text passes memory.maxBytes. Summaries stay.
 * Bounded per call; the engine calls it after writes at most once an hour.
 */
import { immediate } from "../db/open.ts";
import { DAY_MS, type MemoryDeps } from "./deps.ts";
import { coveringSummaries } from "./summarize.ts";

const SCAN = 20_000;
const INTERVAL_MS = 3_600_000;

export type Retained = { events: number; bytes: number };

type Row = { id: number; project_id: number; archived: number; ts: number; bytes: number };

function totalBytes(deps: MemoryDeps): number {
  return deps.db.query<{ n: number | null }, []>("SELECT sum(text_bytes) AS n FROM memory_projects").get()?.n ?? 0;
}

function drop(deps: MemoryDeps, rows: Row[]): Retained {
  if (rows.length === 0) return { events: 0, bytes: 0 };
  return immediate(deps.db, () => {
    const del = deps.db.query("DELETE FROM memory_events WHERE id = ? AND archived > 0");
    const perProject = new Map<number, { n: number; bytes: number }>();
    for (const r of rows) {
      if (del.run(r.id).changes === 0) continue;
      const p = perProject.get(r.project_id) ?? { n: 0, bytes: 0 };
      p.n++;
      p.bytes += r.bytes;
      perProject.set(r.project_id, p);
    }
    const update = deps.db.query(
      "UPDATE memory_projects SET events = max(0, events - ?), text_bytes = max(0, text_bytes - ?) WHERE id = ?",
    );
    let events = 0;
    let bytes = 0;
    for (const [id, p] of perProject) {
      update.run(p.n, p.bytes, id);
      events += p.n;
      bytes += p.bytes;
    }
    return { events, bytes };
  });
}

/** One bounded pass of both rules. */
export function runRetention(deps: MemoryDeps): Retained {
  const { db, config } = deps;
  const oldest = db
    .query<Row, [number]>(
      "SELECT id, project_id, archived, ts, length(CAST(content AS BLOB)) AS bytes FROM memory_events ORDER BY id LIMIT ?",
    )
    .all(SCAN);
  const out: Retained = { events: 0, bytes: 0 };
  if (config.memory.keepDays > 0) {
    const cutoff = deps.now() - config.memory.keepDays * DAY_MS;
    // An event is kept keepDays after its time and after its summary was written: an imported
    // history of last year stays whole for keepDays, as what happened last month does.
    // (An event whose summary was forgotten has no summary time: its own time decides.)
    const summaries = coveringSummaries(
      deps,
      oldest.filter((r) => r.archived > 0 && r.ts < cutoff),
    );
    const expired = oldest.filter((r) => r.archived > 0 && r.ts < cutoff && (summaries.get(r.id)?.created_at ?? 0) < cutoff);
    const d = drop(deps, expired);
    out.events += d.events;
    out.bytes += d.bytes;
  }
  let over = totalBytes(deps) - config.memory.maxBytes;
  if (over > 0) {
    const victims: Row[] = [];
    for (const r of oldest) {
      if (over <= 0) break;
      if (r.archived === 0) continue;
      victims.push(r);
      over -= r.bytes;
    }
    const d = drop(deps, victims);
    out.events += d.events;
    out.bytes += d.bytes;
  }
  db.query("INSERT INTO memory_state (key, value) VALUES ('retention_at', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
    String(deps.now()),
  );
  return out;
}

/** Retention when an hour has passed since the last run (any process), or the size cap is passed. */
export function maybeRunRetention(deps: MemoryDeps): Retained | null {
  const last = Number(deps.db.query<{ value: string }, []>("SELECT value FROM memory_state WHERE key = 'retention_at'").get()?.value ?? 0);
  const due = Math.abs(deps.now() - last) >= INTERVAL_MS;
  if (!due && totalBytes(deps) <= deps.config.memory.maxBytes) return null;
  return runRetention(deps);
}
