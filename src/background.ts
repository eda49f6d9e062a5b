/**
 * Work that must not hold up an answer: indexing what captures queued and counting tokens. In a
 * long-lived host (pi, `serve`, `mcp`) it runs on a worker thread with its own connection; in a
 * one-shot CLI command, or where a worker cannot start, it runs inline on the caller's thread.
 * The numbers are the same either way.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { WorkerReply, WorkerRequest } from "./background-protocol.ts";
import { lockedWrite } from "./db/locked-write.ts";
import type { Db } from "./db/open.ts";
import { type RewriteOutcome, rewriteOwed } from "./db/rewrite.ts";
import { debugLog } from "./debug.ts";
import { AppError } from "./errors.ts";
import { purgeAll } from "./maintenance.ts";
import { workerPrepHelper } from "./prep-helper.ts";
import { type PurgeFilter, type PurgeResult, type SettleResult, settle } from "./store/index.ts";
import { countTokens } from "./tokens/count.ts";
import type { TokenCounter } from "./tokens/counter.ts";

export type Background = TokenCounter & {
  /**
   * Finishes the queued work (`indexOnly`: just the indexes a search needs). `detached`: nobody
   * waits for it, so it never keeps the process alive (what is left is finished by the next one).
   * `merge`: pages the indexes' merge may write (none by default).
   */
  settle(indexOnly?: boolean, detached?: boolean, merge?: number): Promise<SettleResult>;
  /**
   * The rewrite a purge or forget owes the file (db/rewrite.ts): on a worker of its own in a
   * long-lived host, so the host's thread keeps answering for the seconds it takes; inline in a
   * one-shot command. Somebody waiting for it keeps the process alive until it ends.
   */
  rewrite(): Promise<RewriteOutcome>;
  /**
   * A purge's deletes (seconds for a large source): on a worker of their own in a long-lived
   * host, inline in a one-shot command. `waitMs`: take the write lock without waiting inside SQLite,
   * then fail BUSY (a server that must keep answering).
   */
  purge(filter: PurgeFilter, now: number, waitMs: number | null): Promise<PurgeResult>;
};

/** Set by build.ts for the compiled binary: the worker's path in its embedded file system. */
declare const PI_SIDECAR_WORKER: string | undefined;

/**
 * Where the worker's code and the tokenizer tables are: files beside the pi extension's bundles,
 * or (no assets) inside the compiled binary, or the sources when run from a checkout.
 */
export type Assets = {
  /** The folder of the extension's bundles (install.json, the binary beside them): where helper processes are found. */
  dir: string;
  worker: string;
  tokenizer: string;
};

export function assetsIn(dir: string): Assets {
  return { dir, worker: join(dir, "background-worker.js"), tokenizer: join(dir, "tokenizer.cjs") };
}

function workerUrl(assets: Assets | null): string {
  if (assets) return pathToFileURL(assets.worker).href;
  if (typeof PI_SIDECAR_WORKER === "string") return PI_SIDECAR_WORKER;
  return new URL("./background-worker.ts", import.meta.url).href;
}

const countInline = (texts: string[]) => texts.reduce((sum, t) => sum + countTokens(t), 0);

/** A second thread that prepares large texts' chunks for indexing (prep-helper.ts), from the worker's code. */
export const indexHelper = (assets: Assets | null, log = debugLog()) => workerPrepHelper(workerUrl(assets), log);

/** `helper`: prepares large texts' chunks while this thread writes them (the settle command's). */
export function inlineBackground(db: Db, helper: ReturnType<typeof indexHelper> | null = null): Background {
  return {
    count: async (texts) => countInline(texts),
    settle: (indexOnly = false, _detached = false, merge = 0) => settle(db, countInline, { indexOnly, merge, helper }),
    rewrite: () => rewriteOwed(db),
    purge: async (filter, now, waitMs) =>
      waitMs === null ? purgeAll(db, filter, now) : lockedWrite(db, waitMs, async () => purgeAll(db, filter, now)),
    close: () => helper?.close(),
  };
}

/** The requests a worker is started for alone. */
type OneShot =
  Extract<WorkerRequest, { op: "rewrite" | "purge" }> extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/** The worker thread for `path`, falling back to inline work on `db` when it cannot run. */
export function workerBackground(db: Db, path: string, assets: Assets | null = null, log = debugLog()): Background {
  const inline = inlineBackground(db);
  /** The worker's code: the background worker's, and the helper thread's it starts (prep-helper.ts). */
  const url = workerUrl(assets);
  let worker: Worker | null = null;
  let broken = path === ":memory:"; // another connection would see another database
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const fail = (why: string) => {
    log(`background worker unavailable (${why}); working on the main thread`);
    broken = true;
    worker = null;
    for (const p of pending.values()) p.reject(new Error(`background worker: ${why}`));
    pending.clear();
  };

  const start = (): Worker | null => {
    if (worker || broken) return worker;
    try {
      worker = new Worker(url);
      worker.unref(); // an idle worker never keeps the process alive
      worker.onmessage = (event: MessageEvent<WorkerReply>) => {
        const p = pending.get(event.data.id);
        if (!p) return;
        pending.delete(event.data.id);
        if (event.data.error !== undefined) p.reject(new Error(event.data.error));
        else p.resolve(event.data.value);
      };
      worker.onerror = (event) => fail(event.message);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
    return worker;
  };

  /** Requests somebody waits for keep the process alive until answered; detached ones never do. */
  let waited = 0;
  const ask = <T>(
    request: WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never,
    detached = false,
  ): Promise<T> | null => {
    const w = start();
    if (!w) return null;
    const id = nextId++;
    if (!detached && waited++ === 0) w.ref();
    const done = () => {
      if (!detached && --waited === 0) w.unref();
    };
    return new Promise<T>((resolve, reject) => {
      pending.set(id, {
        resolve: (v) => {
          done();
          resolve(v as T);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      w.postMessage({ ...request, id } as WorkerRequest);
    });
  };

  return {
    async count(texts) {
      const asked = ask<number>({ op: "count", texts, tokenizer: assets?.tokenizer ?? null });
      return asked ? asked.catch(() => inline.count(texts)) : inline.count(texts);
    },
    async settle(indexOnly = false, detached = false, merge = 0) {
      const asked = ask<SettleResult>(
        { op: "settle", path, indexOnly, merge, tokenizer: assets?.tokenizer ?? null, helper: url },
        detached,
      );
      // A worker that failed mid-way leaves its queue rows: the inline pass finishes them.
      return asked ? asked.catch(() => inline.settle(indexOnly, detached, merge)) : inline.settle(indexOnly, detached, merge);
    },
    rewrite: () =>
      broken ? inline.rewrite() : once<RewriteOutcome>({ op: "rewrite", path, tokenizer: null }, assets, log).catch(() => inline.rewrite()),
    purge: (filter, now, waitMs) =>
      broken
        ? inline.purge(filter, now, waitMs)
        : once<PurgeResult>({ op: "purge", path, filter, now, waitMs, tokenizer: null }, assets, log).catch((error: unknown) => {
            // A worker that could not start: the deletes run here. One that ran and failed said why.
            if (error instanceof AppError || (error as { ran?: boolean }).ran) throw error;
            return inline.purge(filter, now, waitMs);
          }),
    close() {
      worker?.terminate();
      worker = null;
    },
  };
}

/**
 * Starts a worker for one request (a purge's deletes, a rewrite) and ends it after. Its own thread
 * and connection: the work blocks that thread only, and no token count waits behind it. A worker
 * that cannot start or load rejects (the caller works inline); one that ran and failed rejects
 * with what it said (an AppError keeps its code); a process that exits meanwhile leaves a rewrite's
 * debt recorded in the file, and the next writing engine pays it.
 */
function once<T>(request: OneShot, assets: Assets | null, log: (line: string) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let w: Worker;
    try {
      w = new Worker(workerUrl(assets));
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    w.onmessage = (event: MessageEvent<WorkerReply>) => {
      w.terminate();
      const { error, code } = event.data;
      if (error === undefined) return resolve(event.data.value as T);
      log(`${request.op} worker: ${error}`);
      reject(code ? new AppError(code, error) : Object.assign(new Error(error), { ran: true }));
    };
    w.onerror = (event) => {
      w.terminate();
      log(`${request.op} worker failed (${event.message}); working on the main thread`);
      reject(new Error(event.message));
    };
    w.postMessage({ ...request, id: 0 } as WorkerRequest);
  });
}
