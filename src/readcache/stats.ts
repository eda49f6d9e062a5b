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

/** What the read cache saved: per read it answered with a marker or a diff, pi's read's tokens minus what was sent. */
export type ReadcacheSavings = {
  /** Reads answered from the cache (unchanged, unchanged_range, diff). */
  reads: number;
  byMode: Record<string, number>;
  /** What pi's own read would have sent for them (its cut included). */
  builtInTokens: number;
  sentTokens: number;
  savedTokens: number;
};

export const NO_READS: ReadcacheSavings = { reads: 0, byMode: {}, builtInTokens: 0, sentTokens: 0, savedTokens: 0 };

export function readcacheSavings(db: Db, filter: { session?: string; project?: string } = {}): ReadcacheSavings {
  const conds: string[] = [];
  const params: string[] = [];
  if (filter.session) {
    conds.push("session = ?");
    params.push(filter.session);
  }
  if (filter.project) {
    conds.push("project = ?");
    params.push(filter.project);
  }
  const where = conds.length > 0 ? `WHERE ${conds.join(" AND ")}` : "";
  const rows = db
    .query<{ mode: string; reads: number; builtIn: number; sent: number }, string[]>(
      `SELECT mode, count(*) AS reads, total(builtin_tokens) AS builtIn, total(sent_tokens) AS sent FROM readcache_reads ${where} GROUP BY mode`,
    )
    .all(...params);
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
  const builtInTokens = sum((r) => r.builtIn);
  const sentTokens = sum((r) => r.sent);
  return {
    reads: sum((r) => r.reads),
    byMode: Object.fromEntries(rows.map((r) => [r.mode, r.reads])),
    builtInTokens,
    sentTokens,
    savedTokens: builtInTokens - sentTokens,
  };
}
