/**
 * What context pruning did, from its own tables: batches (each changed the prefix sent to the
 * model once) and the pointers that replaced tool results. A pointer saves its result's tokens
 * minus its own on every later request of that session; how many requests followed is in pi's
 * session, not here, so the saving is given per request.
 */
import type { Db } from "../db/open.ts";

export type PruneTally = { results: number; tokensBefore: number; tokensAfter: number; savedPerRequest: number };

export type PruneStats = {
  batches: number;
  adaptiveBatches: number;
  totals: PruneTally;
  byTool: (PruneTally & { tool: string })[];
  bySession: (PruneTally & { session: string | null; batches: number; lastAt: number })[];
  recent: {
    id: number;
    at: number;
    session: string | null;
    results: number;
    tokensBefore: number;
    tokensAfter: number;
    adaptive: boolean;
  }[];
};

const TALLY = "count(*) AS results, total(tokens_before) AS tokensBefore, total(tokens_after) AS tokensAfter";
const saved = <T extends Omit<PruneTally, "savedPerRequest">>(r: T): T & PruneTally => ({
  ...r,
  savedPerRequest: r.tokensBefore - r.tokensAfter,
});

export function pruneStats(db: Db, limit = 20): PruneStats {
  const batches = db
    .query<{ n: number; adaptive: number }, []>("SELECT count(*) AS n, total(adaptive) AS adaptive FROM prune_batches")
    .get()!;
  const totals = saved(db.query<Omit<PruneTally, "savedPerRequest">, []>(`SELECT ${TALLY} FROM prune_pointers`).get()!);
  const byTool = db
    .query<Omit<PruneTally, "savedPerRequest"> & { tool: string }, []>(
      `SELECT tool, ${TALLY} FROM prune_pointers GROUP BY tool ORDER BY total(tokens_before - tokens_after) DESC`,
    )
    .all()
    .map(saved);
  const bySession = db
    .query<
      { session: string | null; batches: number; lastAt: number; results: number; tokensBefore: number; tokensAfter: number },
      [number]
    >(
      `SELECT session, count(*) AS batches, max(at) AS lastAt, total(results) AS results, total(tokens_before) AS tokensBefore,
       total(tokens_after) AS tokensAfter FROM prune_batches GROUP BY session ORDER BY lastAt DESC LIMIT ?`,
    )
    .all(limit)
    .map(saved);
  const recent = db
    .query<
      { id: number; at: number; session: string | null; results: number; tokensBefore: number; tokensAfter: number; adaptive: number },
      [number]
    >(
      `SELECT id, at, session, results, tokens_before AS tokensBefore, tokens_after AS tokensAfter, adaptive
       FROM prune_batches ORDER BY id DESC LIMIT ?`,
    )
    .all(limit)
    .map((r) => ({ ...r, adaptive: r.adaptive === 1 }));
  return { batches: batches.n, adaptiveBatches: batches.adaptive, totals, byTool, bySession, recent };
}
