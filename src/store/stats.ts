/**
 * Honest accounting: what was stored, what the receipts cost, and what retrieval later
 * returned, all counted with a real tokenizer. Net saving = stored - receipts - retrieved.
 */
import { statSync } from "node:fs";
import { immediate, immediateAsync, type Db } from "../db/open.ts";
import type { StoreDeps } from "./deps.ts";
import { sourceConditions, type SourceFilter } from "./source-filter.ts";
import { countTokens, TOKENIZER } from "./tokens.ts";

export type RetrievalPart = { sourceId: string; text: string };

/**
 * What searches and gets returned, to be added to their sources' retrieved bytes and tokens.
 * The engine buffers it and writes it in batches, off the search path (counting tokens and a
 * write transaction per search would be most of a search's time); `flush` writes it now.
 */
export type RetrievalLog = {
  add(parts: RetrievalPart[], shared?: string): void;
  /** Writes what is buffered now (waits for the write lock in SQLite: for tests and one-shot tools). */
  flush(): void;
  /** The same, waiting for the write lock with async retries (inside a host's event loop). */
  flushAsync(): Promise<void>;
  pending(): number;
};

export function createRetrievalLog(db: Db, immediately = false): RetrievalLog {
  let buffer: { sourceId: string; text: string }[] = [];
  /** Takes the buffer and returns the writes to make, tokens already counted. */
  const take = () => {
    const totals = new Map<string, { bytes: number; tokens: number; calls: number }>();
    for (const { sourceId, text } of buffer) {
      const t = totals.get(sourceId) ?? { bytes: 0, tokens: 0, calls: 0 };
      t.bytes += Buffer.byteLength(text) + 1;
      t.tokens += countTokens(text);
      t.calls += 1;
      totals.set(sourceId, t);
    }
    buffer = [];
    const update = db.query(
      "UPDATE sources SET retrieved_bytes = retrieved_bytes + ?, retrieved_tokens = retrieved_tokens + ?, retrievals = retrievals + ? WHERE handle = ?",
    );
    return () => {
      for (const [id, t] of totals) update.run(t.bytes, t.tokens, t.calls, id);
    };
  };
  const log: RetrievalLog = {
    add(parts, shared = "") {
      // Text shared by the whole answer (its summary line) is charged to the first source.
      parts.forEach((p, i) => buffer.push({ sourceId: p.sourceId, text: i === 0 && shared ? `${shared}\n${p.text}` : p.text }));
      if (immediately) log.flush();
    },
    flush() {
      if (buffer.length > 0) immediate(db, take());
    },
    async flushAsync() {
      if (buffer.length === 0) return;
      const write = take();
      await immediateAsync(db, async () => write());
    },
    pending: () => buffer.length,
  };
  return log;
}

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

export function getStats(deps: StoreDeps, filter: StatsFilter = {}, recentLimit = 10): Stats {
  const { db } = deps;
  const { conds, params } = sourceConditions(filter);
  const where = conds.length > 0 ? `WHERE ${conds.join(" AND ")}` : "";
  const from = `FROM sources s JOIN blobs b ON b.id = s.blob_id ${where}`;
  const totals = withNet(db.query<Omit<Tally, "netSavedTokens">, string[]>(`SELECT ${TALLY} ${from}`).get(...params)!);
  const byTool = db.query<Omit<Tally, "netSavedTokens"> & { tool: string }, string[]>(
    `SELECT s.tool AS tool, ${TALLY} ${from} GROUP BY s.tool ORDER BY storedTokens DESC`,
  ).all(...params).map(withNet);
  const bySession = db.query<Omit<Tally, "netSavedTokens"> & { session: string | null }, string[]>(
    `SELECT s.session AS session, ${TALLY} ${from} GROUP BY s.session ORDER BY max(s.id) DESC LIMIT 20`,
  ).all(...params).map(withNet);
  const recent = db.query<any, (string | number)[]>(
    `SELECT s.handle AS sourceId, s.tool AS tool, s.session AS session, s.created_at AS createdAt, s.label AS label,
       1 AS captures, b.bytes AS storedBytes, b.tokens AS storedTokens, s.receipt_bytes AS receiptBytes, s.receipt_tokens AS receiptTokens,
       s.retrieved_bytes AS retrievedBytes, s.retrieved_tokens AS retrievedTokens, s.retrievals AS retrievals
     ${from} ORDER BY s.id DESC LIMIT ?`,
  ).all(...params, recentLimit).map(withNet);
  const blobs = db.query<{ blobs: number; uniqueBytes: number }, []>("SELECT count(*) AS blobs, total(bytes) AS uniqueBytes FROM blobs").get()!;
  const chunks = db.query<{ n: number }, []>("SELECT count(*) AS n FROM chunks").get()!.n;
  const path = deps.config.db;
  return {
    tokenizer: TOKENIZER,
    database: { path, fileBytes: fileSize(path), walBytes: fileSize(`${path}-wal`), uniqueBytes: blobs.uniqueBytes, blobs: blobs.blobs, chunks },
    totals,
    byTool,
    bySession,
    recent,
  };
}
