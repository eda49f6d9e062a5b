/**
 * Work that must not hold up an answer: indexing what captures queued and counting tokens. In a
 * long-lived host (pi, `serve`, `mcp`) it runs on a worker thread with its own connection; in a
 * one-shot CLI command, or where a worker cannot start, it runs inline on the caller's thread.
 * The numbers are the same either way.
 */
import { pathToFileURL } from "node:url";
import type { WorkerReply, WorkerRequest } from "./background-worker.ts";
import type { Db } from "./db/open.ts";
import { debugLog } from "./debug.ts";
import { type SettleResult, settle } from "./store/index-queue.ts";
import { countTokens } from "./tokens/count.ts";
import type { TokenCounter } from "./tokens/counter.ts";

export type Background = TokenCounter & {
  /** Finishes the queued work (`indexOnly`: just the indexes a search needs). */
  settle(indexOnly?: boolean): Promise<SettleResult>;
};

/**
 * Set by build.ts: an absolute path in the compiled binary's embedded file system, or a path
 * relative to this bundle ("./background-worker.js") for the pi extension's engine bundle.
 */
declare const PI_SIDECAR_WORKER: string | undefined;

function workerUrl(): string {
  const built = typeof PI_SIDECAR_WORKER === "string" ? PI_SIDECAR_WORKER : "./background-worker.ts";
  if (!built.startsWith("./")) return built;
  // In the CommonJS engine bundle, import.meta.url would be frozen at build time; __filename is not.
  const here = typeof __filename === "string" ? pathToFileURL(__filename).href : import.meta.url;
  return new URL(built, here).href;
}

const countInline = (texts: string[]) => texts.reduce((sum, t) => sum + countTokens(t), 0);

export function inlineBackground(db: Db): Background {
  return {
    count: async (texts) => countInline(texts),
    settle: (indexOnly = false) => settle(db, countInline, { indexOnly }),
    close: () => {},
  };
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/** The worker thread for `path`, falling back to inline work on `db` when it cannot run. */
export function workerBackground(db: Db, path: string, log = debugLog()): Background {
  const inline = inlineBackground(db);
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
      worker = new Worker(workerUrl());
      worker.unref(); // an idle worker never keeps the process alive
      worker.onmessage = (event: MessageEvent<WorkerReply>) => {
        const p = pending.get(event.data.id);
        if (!p) return;
        pending.delete(event.data.id);
        if (pending.size === 0) worker?.unref();
        if (event.data.error !== undefined) p.reject(new Error(event.data.error));
        else p.resolve(event.data.value);
      };
      worker.onerror = (event) => fail(event.message);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
    return worker;
  };

  const ask = <T>(
    request: WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never,
  ): Promise<T> | null => {
    const w = start();
    if (!w) return null;
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      w.ref(); // work in flight keeps the process alive until it is done
      w.postMessage({ ...request, id } as WorkerRequest);
    });
  };

  return {
    async count(texts) {
      const asked = ask<number>({ op: "count", texts });
      return asked ? asked.catch(() => inline.count(texts)) : inline.count(texts);
    },
    async settle(indexOnly = false) {
      const asked = ask<SettleResult>({ op: "settle", path, indexOnly });
      // A worker that failed mid-way leaves its queue rows: the inline pass finishes them.
      return asked ? asked.catch(() => inline.settle(indexOnly)) : inline.settle(indexOnly);
    },
    close() {
      worker?.terminate();
      worker = null;
    },
  };
}
