/**
 * Honest accounting, counted with a real tokenizer: what each capture's host would have put in
 * the model's context without pi-sidecar (its baseline: pi's own cut, or the whole output when
 * the host sends it whole), what the receipt cost instead, and what retrieval later returned.
 * Net saved = baseline - receipts - retrieved. Stored (the whole output) is shown beside it.
 * Texts kept for pruning and memory are no captures: they count on their own lines.
 */
import { statSync } from "node:fs";
import { TOKENIZER } from "../tokens/count.ts";
import type { EngineDeps } from "./engine-deps.ts";
import { type SourceFilter, sourceConditions } from "./source-filter.ts";

export type Tally = {
  captures: number;
  storedBytes: number;
  storedTokens: number;
  /** What the hosts would have sent of these outputs (0 for captures whose baseline is unknown). */
  baselineTokens: number;
  /** Captures stored before baselines were kept: their baseline is not known and counts as 0. */
  unknownBaselines: number;
  receiptBytes: number;
  receiptTokens: number;
  retrievedBytes: number;
  retrievedTokens: number;
  retrievals: number;
  /** baselineTokens - receiptTokens - retrievedTokens. */
  netSavedTokens: number;
};

export type StatsFilter = SourceFilter;

/** One way a baseline was taken (e.g. "pi 0.87.1's own cut of bash ..."), and what it covers. */
export type BaselineRule = { kind: string; rule: string; captures: number; storedTokens: number; baselineTokens: number };

export type Stats = {
  tokenizer: string;
  database: { path: string; fileBytes: number; walBytes: number; uniqueBytes: number; blobs: number; chunks: number };
  totals: Tally;
  /** How the baselines of these captures were taken. */
  baselines: BaselineRule[];
  byTool: (Tally & { tool: string })[];
  bySession: (Tally & { session: string | null })[];
  recent: (Tally & {
    sourceId: string;
    tool: string;
    session: string | null;
    createdAt: number;
    label: string | null;
    baselineKind: string;
    baseline: string | null;
  })[];
};

/** A source's baseline in tokens: the host's cut (counted), the whole text, or nothing. */
export const BASELINE_TOKENS = `CASE s.baseline_kind WHEN 'uncut' THEN b.tokens WHEN 'cut' THEN coalesce(s.baseline_tokens, 0) ELSE 0 END`;

/** The columns every tally sums, over `sources s JOIN blobs b`. */
export const TALLY = `count(*) AS captures, total(b.bytes) AS storedBytes, total(b.tokens) AS storedTokens,
  total(${BASELINE_TOKENS}) AS baselineTokens, total(s.baseline_kind = 'unknown') AS unknownBaselines,
  total(s.receipt_bytes) AS receiptBytes, total(s.receipt_tokens) AS receiptTokens,
  total(s.retrieved_bytes) AS retrievedBytes, total(s.retrieved_tokens) AS retrievedTokens, total(s.retrievals) AS retrievals`;

export type RawTally = Omit<Tally, "netSavedTokens">;

export function withNet<T extends RawTally>(row: T): T & Tally {
  return { ...row, netSavedTokens: row.baselineTokens - row.receiptTokens - row.retrievedTokens };
}

/**
 * `FROM ... WHERE` over captures: the filter's sources, without the texts kept for pruning and
 * memory (unless one source is asked for by id).
 */
export function capturesFrom(filter: SourceFilter): { from: string; params: string[] } {
  const { conds, params } = sourceConditions(filter);
  if (!filter.source) conds.push("s.baseline_kind <> 'none'");
  const where = conds.length > 0 ? ` WHERE ${conds.join(" AND ")}` : "";
  return { from: `FROM sources s JOIN blobs b ON b.id = s.blob_id${where}`, params };
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The database file and its write-ahead log, in bytes (what it takes on disk). */
export function diskUse(path: string): { fileBytes: number; walBytes: number } {
  return { fileBytes: fileSize(path), walBytes: fileSize(`${path}-wal`) };
}

export function getStats(deps: EngineDeps, filter: StatsFilter = {}, recentLimit = 10): Stats {
  const { db } = deps;
  const { from, params } = capturesFrom(filter);
  const totals = withNet(db.query<RawTally, string[]>(`SELECT ${TALLY} ${from}`).get(...params)!);
  const baselines = db
    .query<BaselineRule, string[]>(
      `SELECT s.baseline_kind AS kind, coalesce(s.baseline, s.baseline_kind) AS rule, count(*) AS captures,
       total(b.tokens) AS storedTokens, total(${BASELINE_TOKENS}) AS baselineTokens ${from}
       GROUP BY s.baseline_kind, coalesce(s.baseline, s.baseline_kind) ORDER BY captures DESC LIMIT 20`,
    )
    .all(...params);
  const byTool = db
    .query<RawTally & { tool: string }, string[]>(`SELECT s.tool AS tool, ${TALLY} ${from} GROUP BY s.tool ORDER BY baselineTokens DESC`)
    .all(...params)
    .map(withNet);
  const bySession = db
    .query<RawTally & { session: string | null }, string[]>(
      `SELECT s.session AS session, ${TALLY} ${from} GROUP BY s.session ORDER BY max(s.id) DESC LIMIT 20`,
    )
    .all(...params)
    .map(withNet);
  const recent = db
    .query<RawTally & Omit<Stats["recent"][number], keyof Tally>, (string | number)[]>(
      `SELECT s.handle AS sourceId, s.tool AS tool, s.session AS session, s.created_at AS createdAt, s.label AS label,
       s.baseline_kind AS baselineKind, s.baseline AS baseline,
       1 AS captures, b.bytes AS storedBytes, b.tokens AS storedTokens, ${BASELINE_TOKENS} AS baselineTokens,
       s.baseline_kind = 'unknown' AS unknownBaselines, s.receipt_bytes AS receiptBytes, s.receipt_tokens AS receiptTokens,
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
    database: { path, ...diskUse(path), uniqueBytes: blobs.uniqueBytes, blobs: blobs.blobs, chunks },
    totals,
    baselines,
    byTool,
    bySession,
    recent,
  };
}
