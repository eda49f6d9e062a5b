/**
 * The second thread the background worker prepares a large blob's chunks with while it writes the
 * indexes (store/index-prep.ts): another instance of the worker's code, started on first use and
 * kept. It keeps the process alive only while a request of its is answered (someone awaits those
 * batches: the `settle` command's main thread has nothing else to keep it alive, and would end with
 * the queue untouched), never while idle. A helper that cannot start or fails is not started again;
 * the worker then prepares everything itself.
 */
import type { PrepAnswer, WorkerReply, WorkerRequest } from "./background-protocol.ts";
import type { ChunkPrep, PrepHelper } from "./store/index.ts";

type Listener = { onBatch: (index: number, prep: ChunkPrep) => void; onError: () => void };

export function workerPrepHelper(url: string, log: (line: string) => void): PrepHelper & { close(): void } {
  let worker: Worker | null = null;
  let broken = false;
  let nextId = 0;
  const listeners = new Map<number, Listener>();
  const fail = (why: string) => {
    log(`index helper unavailable (${why}); the worker prepares alone`);
    broken = true;
    worker?.terminate();
    worker = null;
    for (const l of listeners.values()) l.onError();
    listeners.clear();
  };
  const started = (): Worker | null => {
    if (worker || broken) return worker;
    try {
      const w = new Worker(url);
      w.unref();
      w.onmessage = (event: MessageEvent<WorkerReply>) => {
        const listener = listeners.get(event.data.id);
        if (!listener) return;
        if (event.data.error !== undefined) return fail(event.data.error);
        const answer = event.data.value as PrepAnswer;
        if ("done" in answer) {
          listeners.delete(event.data.id);
          if (listeners.size === 0) w.unref();
        } else listener.onBatch(answer.batch, answer.prep);
      };
      w.onerror = (event) => fail(event.message);
      worker = w;
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
    return worker;
  };
  return {
    start(batches, claims, onBatch, onError) {
      const w = started();
      if (!w) return onError();
      const id = nextId++;
      if (listeners.size === 0) w.ref();
      listeners.set(id, { onBatch, onError });
      w.postMessage({ id, op: "prep", batches: batches as string[][], claims, tokenizer: null } satisfies WorkerRequest);
    },
    close() {
      worker?.terminate();
      worker = null;
    },
  };
}
