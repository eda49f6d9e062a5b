/**
 * Honest accounting: what was stored, what the receipts cost, and what retrieval later
 * returned, all counted with a real tokenizer. Net saving = stored - receipts - retrieved.
 */
import { statSync } from "node:fs";
import type { EngineDeps } from "../engine-deps.ts";
import { TOKENIZER } from "../tokens/count.ts";
import { type SourceFilter, sourceConditions } from "./source-filter.ts";

export type Tally = {
  captures: number;
  storedBytes: number;
  storedTokens: number;
  receiptBytes: number;
  receiptTokens: number;
  retrievedBytes: number;
  retrievedTokens: number;
  retrievals: number;
  netSavedTokens: number;
};

export type StatsFilter = SourceFilter;

export type Stats = {
  tokenizer: string;
  database: { path: string; fileBytes: number; walBytes: number; uniqueBytes: number; blobs: number; chunks: number };
  totals: Tally;
  byTool: (Tally & { tool: string })[];
  bySession: (Tally & { session: string | null })[];
  recent: (Tally & { sourceId: string; tool: string; session: string | null; createdAt: number; label: string | null })[];
};

const TALLY = `count(*) AS captures, total(b.bytes) AS storedBytes, total(b.tokens) AS storedTokens,
  total(s.receipt_bytes) AS receiptBytes, total(s.receipt_tokens) AS receiptTokens,
  total(s.retrieved_bytes) AS retrievedBytes, total(s.retrieved_tokens) AS retrievedTokens, total(s.retrievals) AS retrievals`;

function withNet<T extends Omit<Tally, "netSavedTokens">>(row: T): T & Tally {
  return { ...row, netSavedTokens: row.storedTokens - row.receiptTokens - row.retrievedTokens };
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

export function getStats(deps: EngineDeps, filter: StatsFilter = {}, recentLimit = 10): Stats {
  const { db } = deps;
  const { conds, params } = sourceConditions(filter);
  const where = conds.length > 0 ? `WHERE ${conds.join(" AND ")}` : "";
  const from = `FROM sources s JOIN blobs b ON b.id = s.blob_id ${where}`;
  const totals = withNet(db.query<Omit<Tally, "netSavedTokens">, string[]>(`SELECT ${TALLY} ${from}`).get(...params)!);
  const byTool = db
    .query<Omit<Tally, "netSavedTokens"> & { tool: string }, string[]>(
      `SELECT s.tool AS tool, ${TALLY} ${from} GROUP BY s.tool ORDER BY storedTokens DESC`,
    )
    .all(...params)
    .map(withNet);
  const bySession = db
    .query<Omit<Tally, "netSavedTokens"> & { session: string | null }, string[]>(
      `SELECT s.session AS session, ${TALLY} ${from} GROUP BY s.session ORDER BY max(s.id) DESC LIMIT 20`,
    )
    .all(...params)
    .map(withNet);
  const recent = db
    .query<
      Omit<Tally, "netSavedTokens"> & { sourceId: string; tool: string; session: string | null; createdAt: number; label: string | null },
      (string | number)[]
    >(
      `SELECT s.handle AS sourceId, s.tool AS tool, s.session AS session, s.created_at AS createdAt, s.label AS label,
       1 AS captures, b.bytes AS storedBytes, b.tokens AS storedTokens, s.receipt_bytes AS receiptBytes, s.receipt_tokens AS receiptTokens,
       s.retrieved_bytes AS retrievedBytes, s.retrieved_tokens AS retrievedTokens, s.retrievals AS retrievals
     ${from} ORDER BY s.id DESC LIMIT ?`,
    )
    .all(...params, recentLimit)
    .map(withNet);
  const blobs = db
    .query<{ blobs: number; uniqueBytes: number }, []>("SELECT count(*) AS blobs, total(bytes) AS uniqueBytes FROM blobs")
    .get()!;
  const chunks = db.query<{ n: number }, []>("SELECT count(*) AS n FROM chunks").get()!.n;
  const path = deps.config.db;
  return {
    tokenizer: TOKENIZER,
    database: {
      path,
      fileBytes: fileSize(path),
      walBytes: fileSize(`${path}-wal`),
      uniqueBytes: blobs.uniqueBytes,
      blobs: blobs.blobs,
      chunks,
    },
    totals,
    byTool,
    bySession,
    recent,
  };
}
