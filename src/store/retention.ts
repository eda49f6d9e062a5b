/**
 * Automatic retention: sources older than `retention.days` go, and when the stored text
 * passes `retention.maxStoredBytes` the oldest sources go until it is back under 90% of it.
 * Runs after a capture, at most once an hour unless the size cap is passed.
 */
import type { StoreDeps } from "./deps.ts";
import { MAX_OBJECT_BYTES, objectBytes, pruneObjects } from "../readcache/objects.ts";
import { deleteSources, reclaimSpace, type PurgeResult } from "./purge.ts";

const INTERVAL_MS = 3_600_000;
const DAY_MS = 86_400_000;

function storedBytes(deps: StoreDeps): number {
  return deps.db.query<{ bytes: number }, []>("SELECT total(bytes) AS bytes FROM blobs").get()!.bytes;
}

/** Best effort: retention that finds the database busy runs next time instead of failing a capture. */
export function maybeRunRetention(deps: StoreDeps): PurgeResult | null {
  try {
    return retentionIfDue(deps);
  } catch (error) {
    if (String((error as { code?: unknown }).code ?? "").startsWith("SQLITE_BUSY")) return null;
    throw error;
  }
}

function retentionIfDue(deps: StoreDeps): PurgeResult | null {
  const last = Number(deps.db.query<{ value: string }, []>("SELECT value FROM meta WHERE key = 'retention_at'").get()?.value ?? 0);
  const due = deps.now() - last >= INTERVAL_MS;
  if (!due && storedBytes(deps) <= deps.config.retention.maxStoredBytes && objectBytes(deps.db) <= MAX_OBJECT_BYTES) return null;
  return runRetention(deps);
}

export function runRetention(deps: StoreDeps): PurgeResult {
  const { db, config, now } = deps;
  const total: PurgeResult = { sources: 0, blobs: 0, bytes: 0 };
  const add = (r: PurgeResult) => {
    total.sources += r.sources;
    total.blobs += r.blobs;
    total.bytes += r.bytes;
  };
  if (config.retention.days > 0) {
    const cutoff = now() - config.retention.days * DAY_MS;
    const old = db.query<{ id: number }, [number]>("SELECT id FROM sources WHERE created_at < ? ORDER BY id").all(cutoff);
    // Small batches keep each write lock short for the other processes.
    for (let i = 0; i < old.length; i += 50) add(deleteSources(db, old.slice(i, i + 50).map((r) => r.id)));
  }
  const cap = config.retention.maxStoredBytes;
  let bytes = storedBytes(deps);
  if (bytes > cap) {
    const oldest = db.query<{ id: number }, []>("SELECT id FROM sources ORDER BY created_at, id");
    for (const row of oldest.all()) {
      if (bytes <= cap * 0.9) break;
      add(deleteSources(db, [row.id]));
      bytes = storedBytes(deps);
    }
  }
  pruneObjects(db, config.retention.days * DAY_MS, now());
  db.query("INSERT INTO meta (key, value) VALUES ('retention_at', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
    .run(String(now()));
  if (total.sources > 0) reclaimSpace(db);
  return total;
}
