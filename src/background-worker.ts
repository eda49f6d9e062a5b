/**
 * The background worker thread: finishes what captures leave queued (indexes, token counts) on
 * its own database connection, and counts tokens for the engine, so neither blocks the thread
 * that serves the host (pi's event loop, or a server). Another instance, started for one request,
 * runs a purge's deletes or the rewrite after a purge or forget. Loaded by src/background.ts.
 */

import type { PrepAnswer, WorkerReply, WorkerRequest } from "./background-protocol.ts";
import { lockedWrite } from "./db/locked-write.ts";
import { type Db, openDatabase } from "./db/open.ts";
import { rewriteOwed } from "./db/rewrite.ts";
import { debugLog } from "./debug.ts";
import { AppError } from "./errors.ts";
import { purgeAll } from "./maintenance.ts";
import { workerPrepHelper } from "./prep-helper.ts";
import { claimBatch, prepareChunks, settle } from "./store/index.ts";
import { countTokens, useTokenizerFile } from "./tokens/count.ts";

declare const self: Worker;

const count = (texts: string[]) => texts.reduce((sum, t) => sum + countTokens(t), 0);
let db: Db | null = null;
let dbPath = "";
let helper: ReturnType<typeof workerPrepHelper> | null = null;

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
    if (m.op === "prep") {
      m.batches.forEach((batch, k) => {
        if (claimBatch(m.claims, k)) self.postMessage({ id: m.id, value: { batch: k, prep: prepareChunks(batch) } satisfies PrepAnswer });
      });
      self.postMessage({ id: m.id, value: { done: true } satisfies PrepAnswer } satisfies WorkerReply);
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
    if (m.helper) helper ??= workerPrepHelper(m.helper, debugLog());
    const value = await settle(db, count, { indexOnly: m.indexOnly, merge: m.merge, helper });
    self.postMessage({ id: m.id, value } satisfies WorkerReply);
  } catch (error) {
    const code = error instanceof AppError ? error.code : undefined;
    self.postMessage({ id: m.id, error: error instanceof Error ? error.message : String(error), code } satisfies WorkerReply);
  }
}
