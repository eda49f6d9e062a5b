/**
 * Retention of captured sources: those older than `retention.days` go, and when the stored text
 * passes `retention.maxStoredBytes` the oldest go until it is back under 90% of it. Called by
 * the engine's maintenance (src/maintenance.ts), which also decides when it is due.
 */
import type { EngineDeps } from "./engine-deps.ts";
import { deleteSources, type PurgeResult } from "./purge.ts";

const DAY_MS = 86_400_000;

export function storedBytes(deps: EngineDeps): number {
  return deps.db.query<{ bytes: number }, []>("SELECT total(bytes) AS bytes FROM blobs").get()!.bytes;
}

export function dropExpiredSources(deps: EngineDeps): PurgeResult {
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
    for (let i = 0; i < old.length; i += 50)
      add(
        deleteSources(
          db,
          old.slice(i, i + 50).map((r) => r.id),
        ),
      );
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
  return total;
}
