/**
 * Counting tokens for a capture takes about as long as indexing it, so it runs on a worker
 * thread, overlapping the SQLite writes on the main thread (two cores, half the wall time).
 * Where a worker cannot start, counting runs inline; the numbers are the same.
 */
import { pathToFileURL } from "node:url";
import { debugLog } from "../debug.ts";
import { countTokens } from "./count.ts";

export type TokenCounter = {
  /** Total tokens of the texts (counted separately and summed). */
  count(texts: string[]): Promise<number>;
  close(): void;
};

export function inlineTokenCounter(): TokenCounter {
  return {
    count: async (texts) => texts.reduce((sum, t) => sum + countTokens(t), 0),
    close: () => {},
  };
}

type Reply = { id: number; total?: number; error?: string };

/**
 * Set by build.ts: an absolute path in the compiled binary's embedded file system, or a path
 * relative to this bundle ("./token-worker.js") for the pi extension's engine bundle.
 */
declare const PI_SIDECAR_TOKEN_WORKER: string | undefined;

function workerUrl(): string {
  const built = typeof PI_SIDECAR_TOKEN_WORKER === "string" ? PI_SIDECAR_TOKEN_WORKER : "./worker.ts";
  if (!built.startsWith("./")) return built;
  // In the CommonJS engine bundle, import.meta.url would be frozen at build time; __filename is not.
  const here = typeof __filename === "string" ? pathToFileURL(__filename).href : import.meta.url;
  return new URL(built, here).href;
}

/** With PI_SIDECAR_DEBUG=1, says on stderr why counting fell back to the main thread. */
const debug = debugLog();

export function workerTokenCounter(): TokenCounter {
  let worker: Worker | null = null;
  let broken = false;
  let nextId = 0;
  const pending = new Map<number, { resolve: (n: number) => void; reject: (e: Error) => void }>();
  const inline = inlineTokenCounter();

  const start = (): Worker | null => {
    if (worker || broken) return worker;
    try {
      worker = new Worker(workerUrl());
      worker.unref(); // an idle worker never keeps the process alive
      worker.onmessage = (event: MessageEvent<Reply>) => {
        const p = pending.get(event.data.id);
        if (!p) return;
        pending.delete(event.data.id);
        if (pending.size === 0) worker?.unref();
        if (event.data.error !== undefined) p.reject(new Error(`token worker: ${event.data.error}`));
        else p.resolve(event.data.total ?? 0);
      };
      worker.onerror = (event) => {
        debug(`token worker failed (${event.message}); counting on the main thread`);
        broken = true;
        worker = null;
        for (const p of pending.values()) p.reject(new Error(`token worker failed: ${event.message}`));
        pending.clear();
      };
    } catch (error) {
      debug(`token worker did not start (${error instanceof Error ? error.message : error}); counting on the main thread`);
      broken = true;
      worker = null;
    }
    return worker;
  };

  return {
    async count(texts) {
      const w = start();
      if (!w) return inline.count(texts);
      const id = nextId++;
      try {
        return await new Promise<number>((resolve, reject) => {
          pending.set(id, { resolve, reject });
          w.ref(); // a count in flight does
          w.postMessage({ id, texts });
        });
      } catch {
        return inline.count(texts);
      }
    },
    close() {
      worker?.terminate();
      worker = null;
    },
  };
}
