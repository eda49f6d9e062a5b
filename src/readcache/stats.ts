/**
 * What the read cache keeps in this database: the file versions the model has been shown (base
 * versions that later reads are diffed against). What each read saved is recorded with that read
 * in pi's session (`/readcache-status` sums it), not here.
 */
import type { Db } from "../db/open.ts";
import { MAX_OBJECT_BYTES } from "./objects.ts";

export type ReadcacheStats = {
  objects: number;
  bytes: number;
  /** The cap past which the least recently used versions are dropped. */
  maxBytes: number;
  oldestUsedAt: number | null;
  newestUsedAt: number | null;
  /** Versions used since `since` (default: the last 24 hours before `now`). */
  usedRecently: number;
};

export function readcacheStats(db: Db, now: number, since = now - 24 * 3_600_000): ReadcacheStats {
  const row = db
    .query<{ objects: number; bytes: number; oldest: number | null; newest: number | null; recent: number }, [number]>(
      `SELECT count(*) AS objects, total(bytes) AS bytes, min(used_at) AS oldest, max(used_at) AS newest,
       total(used_at >= ?) AS recent FROM objects`,
    )
    .get(since)!;
  return {
    objects: row.objects,
    bytes: row.bytes,
    maxBytes: MAX_OBJECT_BYTES,
    oldestUsedAt: row.oldest,
    newestUsedAt: row.newest,
    usedRecently: row.recent,
  };
}
