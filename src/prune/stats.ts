/**
 * What context pruning did, from its own tables: batches (each changed the prefix sent to the
 * model once) and the pointers that replaced tool results. One count everywhere: a result
 * replaced is one pointer row (one result, by call id and text), and a batch's count is the
 * pointers it wrote. A pointer saves what pi would otherwise have sent (its result's tokens)
 * minus its own tokens, on every later request of that session; a pointer larger than its result
 * saves nothing (never a negative saving). How many requests followed is in pi's session, not
 * here, so the saving is given per request.
 */
import type { Db } from "../db/open.ts";

export type PruneTally = { results: number; tokensBefore: number; tokensAfter: number; savedPerRequest: number };

export type PruneBatch = {
  id: number;
  at: number;
  session: string | null;
  results: number;
  tokensBefore: number;
  tokensAfter: number;
  adaptive: boolean;
};

export type PruneStats = {
  batches: number;
  adaptiveBatches: number;
  totals: PruneTally;
  byTool: (PruneTally & { tool: string })[];
  bySession: (PruneTally & { session: string | null; batches: number; lastAt: number })[];
  recent: PruneBatch[];
};

/** Pruning's line in the overview: its saving per later request, and what rehydrating its texts cost. */
export type PruneSavings = PruneTally & {
  batches: number;
  /** Pointers larger than the result they replaced (counted as saving nothing). */
  larger: number;
  /** Tokens searches and gets returned from the texts pruning stored. */
  retrievedTokens: number;
  lastBatch: PruneBatch | null;
};

/** Per pointer: results' tokens, pointers' tokens, and the saving floored at 0. */
const TALLY = `count(*) AS results, total(tokens_before) AS tokensBefore, total(tokens_after) AS tokensAfter,
  total(max(tokens_before - tokens_after, 0)) AS savedPerRequest`;

type BatchRow = Omit<PruneBatch, "adaptive"> & { adaptive: number };
const BATCH = "id, at, session, results, tokens_before AS tokensBefore, tokens_after AS tokensAfter, adaptive";
const batchOf = (r: BatchRow): PruneBatch => ({ ...r, adaptive: r.adaptive === 1 });

function where(session: string | undefined): { sql: string; params: string[] } {
  return session ? { sql: " WHERE session = ?", params: [session] } : { sql: "", params: [] };
}

export function pruneStats(db: Db, limit = 20): PruneStats {
  const batches = db
    .query<{ n: number; adaptive: number }, []>("SELECT count(*) AS n, total(adaptive) AS adaptive FROM prune_batches")
    .get()!;
  const totals = db.query<PruneTally, []>(`SELECT ${TALLY} FROM prune_pointers`).get()!;
  const byTool = db
    .query<PruneTally & { tool: string }, []>(`SELECT tool, ${TALLY} FROM prune_pointers GROUP BY tool ORDER BY savedPerRequest DESC`)
    .all();
  const bySession = db
    .query<PruneTally & { session: string | null; batches: number; lastAt: number }, [number]>(
      `SELECT p.session AS session, ${TALLY}, (SELECT count(*) FROM prune_batches b WHERE b.session IS p.session) AS batches,
       max(p.at) AS lastAt FROM prune_pointers p GROUP BY p.session ORDER BY lastAt DESC LIMIT ?`,
    )
    .all(limit);
  const recent = db.query<BatchRow, [number]>(`SELECT ${BATCH} FROM prune_batches ORDER BY id DESC LIMIT ?`).all(limit).map(batchOf);
  return { batches: batches.n, adaptiveBatches: batches.adaptive, totals, byTool, bySession, recent };
}

export const NO_PRUNING: PruneSavings = {
  results: 0,
  tokensBefore: 0,
  tokensAfter: 0,
  savedPerRequest: 0,
  batches: 0,
  larger: 0,
  retrievedTokens: 0,
  lastBatch: null,
};

export function pruneSavings(db: Db, filter: { session?: string } = {}): PruneSavings {
  const w = where(filter.session);
  const totals = db
    .query<PruneTally & { larger: number }, string[]>(
      `SELECT ${TALLY}, total(tokens_after > tokens_before) AS larger FROM prune_pointers${w.sql}`,
    )
    .get(...w.params)!;
  const batches = db.query<{ n: number }, string[]>(`SELECT count(*) AS n FROM prune_batches${w.sql}`).get(...w.params)!.n;
  const last = db.query<BatchRow, string[]>(`SELECT ${BATCH} FROM prune_batches${w.sql} ORDER BY id DESC LIMIT 1`).get(...w.params);
  // Texts pruning stored itself (a receipt's source it reused stays the capture's).
  const retrieved = db
    .query<{ n: number }, string[]>(
      `SELECT total(s.retrieved_tokens) AS n FROM sources s WHERE s.baseline_kind = 'none'
       AND s.handle IN (SELECT source FROM prune_pointers${w.sql})`,
    )
    .get(...w.params)!.n;
  return { ...totals, batches, retrievedTokens: retrieved, lastBatch: last ? batchOf(last) : null };
}
