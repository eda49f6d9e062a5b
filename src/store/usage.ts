/**
 * The savings of stats.ts cut other ways: by project, and over time. Every capture counts in the
 * bucket it was captured in, and what searches and gets later returned from it is charged to it,
 * so the buckets add up exactly to the totals `stats` reports. Also what the writer has not yet
 * finished (texts not yet indexed or counted), so a reader knows which numbers can still grow.
 */
import type { Db } from "../db/open.ts";
import type { SourceFilter } from "./source-filter.ts";
import { capturesFrom, type RawTally, TALLY, type Tally, withNet } from "./stats.ts";

export type UsageQuery = SourceFilter & {
  /** Bucket width; by default an hour when the captures span three days or less, else a day. */
  bucketMs?: number;
};

export type TimelineBucket = Tally & { t: number };

export type Usage = {
  byProject: (Tally & { project: string })[];
  timeline: { bucketMs: number; buckets: TimelineBucket[] };
  /** Captures that no search or get has returned: the receipt was all the model saw of them. */
  receiptOnly: number;
  /** Work the writer (pi, or any command that writes) has queued and not finished. */
  pending: { unindexedTexts: number; uncountedReceipts: number; uncountedRetrievals: number };
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MAX_BUCKETS = 2000;

function count(db: Db, sql: string): number {
  return db.query<{ n: number }, []>(sql).get()?.n ?? 0;
}

export function usage(db: Db, q: UsageQuery = {}): Usage {
  const { from, params } = capturesFrom(q);
  const byProject = db
    .query<RawTally & { project: string }, string[]>(
      `SELECT s.project AS project, ${TALLY} ${from} GROUP BY s.project ORDER BY baselineTokens DESC`,
    )
    .all(...params)
    .map(withNet);
  const span = db
    .query<{ lo: number | null; hi: number | null; untouched: number }, string[]>(
      `SELECT min(s.created_at) AS lo, max(s.created_at) AS hi, total(s.retrievals = 0) AS untouched ${from}`,
    )
    .get(...params)!;
  const width = span.hi === null || span.lo === null ? HOUR : span.hi - span.lo;
  let bucketMs = q.bucketMs !== undefined && q.bucketMs > 0 ? Math.floor(q.bucketMs) : width <= 3 * DAY ? HOUR : DAY;
  // Never more buckets than a chart can show: widen by whole days.
  if (width / bucketMs > MAX_BUCKETS) bucketMs = Math.ceil(width / MAX_BUCKETS / DAY) * DAY;
  const buckets = db
    .query<RawTally & { t: number }, (string | number)[]>(`SELECT (s.created_at / ?) * ? AS t, ${TALLY} ${from} GROUP BY t ORDER BY t`)
    .all(bucketMs, bucketMs, ...params)
    .map(withNet);
  return {
    byProject,
    timeline: { bucketMs, buckets },
    receiptOnly: span.untouched,
    pending: {
      unindexedTexts: count(db, "SELECT count(*) AS n FROM index_queue"),
      uncountedReceipts: count(db, "SELECT count(*) AS n FROM count_queue"),
      uncountedRetrievals: count(db, "SELECT count(DISTINCT retrieval_id) AS n FROM retrieval_parts WHERE text IS NOT NULL"),
    },
  };
}
