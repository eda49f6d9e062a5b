/**
 * The background worker thread: finishes what captures leave queued (indexes, token counts) on
 * its own database connection, and counts tokens for the engine, so neither blocks the thread
 * that serves the host (pi's event loop, or a server). Another instance, started for one request,
 * runs a purge's deletes or the rewrite after a purge or forget. Loaded by src/background.ts.
 */

import { lockedWrite } from "./db/locked-write.ts";
import { type Db, openDatabase } from "./db/open.ts";
import { rewriteOwed } from "./db/rewrite.ts";
import { AppError } from "./errors.ts";
import { purgeAll } from "./maintenance.ts";
import { type PurgeFilter, settle } from "./store/index.ts";
import { countTokens, useTokenizerFile } from "./tokens/count.ts";

declare const self: Worker;

/** `tokenizer`: the tables' file when they are not bundled in (the pi extension). */
export type WorkerRequest =
  | { id: number; op: "count"; texts: string[]; tokenizer: string | null }
  | { id: number; op: "settle"; path: string; indexOnly: boolean; merge: number; tokenizer: string | null }
  /** The file rewritten when a purge or forget owes it (db/rewrite.ts), on a worker started for it alone. */
  | { id: number; op: "rewrite"; path: string; tokenizer: null }
  /** A purge's deletes, on a worker started for it alone; `waitMs`: take the lock without waiting in SQLite (the web page). */
  | { id: number; op: "purge"; path: string; filter: PurgeFilter; now: number; waitMs: number | null; tokenizer: null };
/** `code`: an AppError's code, so the caller can say what to do. */
export type WorkerReply = { id: number; value?: unknown; error?: string; code?: string };

const count = (texts: string[]) => texts.reduce((sum, t) => sum + countTokens(t), 0);
let db: Db | null = null;
let dbPath = "";

/** One request at a time, in order (one connection). */
let chain: Promise<void> = Promise.resolve();
self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  chain = chain.then(() => handle(event.data));
};

async function handle(m: WorkerRequest): Promise<void> {
  try {
    if (m.tokenizer) useTokenizerFile(m.tokenizer);
    if (m.op === "count") {
      self.postMessage({ id: m.id, value: count(m.texts) } satisfies WorkerReply);
      return;
    }
    if (m.op === "rewrite" || m.op === "purge") {
      // Its own connection, closed before the answer: whoever waits for it finds the file and its WAL as they stay.
      const own = openDatabase(m.path, { busyTimeoutMs: m.op === "purge" && m.waitMs !== null ? 0 : undefined });
      let value: unknown;
      try {
        if (m.op === "rewrite") value = await rewriteOwed(own);
        else {
          const { filter, now, waitMs } = m;
          value = waitMs === null ? purgeAll(own, filter, now) : await lockedWrite(own, waitMs, async () => purgeAll(own, filter, now));
        }
      } finally {
        own.close();
      }
      self.postMessage({ id: m.id, value } satisfies WorkerReply);
      return;
    }
    if (!db || dbPath !== m.path) {
      db?.close();
      db = openDatabase(m.path);
      dbPath = m.path;
    }
    self.postMessage({ id: m.id, value: await settle(db, count, { indexOnly: m.indexOnly, merge: m.merge }) } satisfies WorkerReply);
  } catch (error) {
    const code = error instanceof AppError ? error.code : undefined;
    self.postMessage({ id: m.id, error: error instanceof Error ? error.message : String(error), code } satisfies WorkerReply);
  }
}
