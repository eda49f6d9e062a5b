/**
 * Housekeeping that spans subsystems, in one place the engine calls: retention of captured
 * sources and of the read cache's base versions, and purges. No subsystem reaches into
 * another's tables; each exposes its own step and this module runs them together.
 */

import { type Db, isBusy } from "./db/open.ts";
import { clearObjects, MAX_OBJECT_BYTES, objectBytes, pruneObjects } from "./readcache/index.ts";
import type { EngineDeps } from "./store/index.ts";
import { dropExpiredSources, type PurgeFilter, type PurgeResult, purge, reclaimSpace, storedBytes } from "./store/index.ts";

const INTERVAL_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Runs every retention step now. */
export function runMaintenance(deps: EngineDeps): PurgeResult {
  const { db, config, now } = deps;
  const dropped = dropExpiredSources(deps);
  const objects = pruneObjects(db, config.retention.days * DAY_MS, now());
  db.query("INSERT INTO meta (key, value) VALUES ('retention_at', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
    String(now()),
  );
  if (dropped.sources > 0 || objects > 0) reclaimSpace(db);
  return dropped;
}

/**
 * After a write: at most once an hour, or at once when a size cap is passed. Best effort: a
 * database another process keeps busy gets its maintenance next time instead of failing a capture.
 */
export function maybeRunMaintenance(deps: EngineDeps): PurgeResult | null {
  try {
    const last = Number(deps.db.query<{ value: string }, []>("SELECT value FROM meta WHERE key = 'retention_at'").get()?.value ?? 0);
    const due = deps.now() - last >= INTERVAL_MS;
    if (!due && storedBytes(deps) <= deps.config.retention.maxStoredBytes && objectBytes(deps.db) <= MAX_OBJECT_BYTES) return null;
    return runMaintenance(deps);
  } catch (error) {
    if (isBusy(error)) return null;
    throw error;
  }
}

/**
 * A purge of sources; purging everything also clears the read cache's base versions, first, so
 * the space the purge reclaims (and the WAL it empties) covers them too.
 */
export function purgeAll(db: Db, filter: PurgeFilter, now: number): PurgeResult {
  if (filter.all) clearObjects(db);
  const result = purge(db, filter, now);
  if (filter.all && result.sources === 0) reclaimSpace(db);
  return result;
}
