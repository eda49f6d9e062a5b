/**
 * What the web page reads and writes, both through the engine (the page never opens the database
 * itself; test/architecture.test.ts checks it). The viewer is the engine's read-only face; the
 * writer, opened only for a confirmed purge or forget, is a writing engine whose connection never
 * waits inside SQLite, closed right after.
 */
import type { Config } from "./config.ts";
import { createEngine, type Engine, type ReadOnlyEngine } from "./engine.ts";
import { fail } from "./errors.ts";
import type { MemoryRequest } from "./memory/index.ts";
import { TOOL_CALLS } from "./store/index.ts";

/** Episodic memory's one entry point. */
export type MemoryMethod = Engine["memory"];

/** What the page reads: the engine's read-only face. */
export type WebEngine = ReadOnlyEngine;

/** What the page writes: the engine's deleting writes, and the rewrite that follows them. */
export type WebWriter = Pick<Engine, "purge" | "rewritten" | "close"> & { memory?: MemoryMethod };

/** Memory requests that only read; the viewer refuses the rest before they reach a read-only connection. */
const READING_MEMORY = new Set<MemoryRequest["type"]>(["stats", "search", "status", "recent"]);

/**
 * The viewer: the engine over `config.db` opened read-only, searched as it is (nothing indexed,
 * counted or logged as a retrieval). The file is opened on the first read, so a page started before
 * it exists picks it up; a failed open is tried again on the next request.
 */
export function createWebViewer(o: { config: Readonly<Config>; now?: () => number }): WebEngine {
  const engine = createEngine({ config: o.config, readOnly: true, now: o.now, calls: TOOL_CALLS, background: "inline" });
  return {
    stats: (f) => engine.stats(f),
    usage: (q) => engine.usage(q),
    list: (f, n) => engine.list(f, n),
    search: (i) => engine.search(i),
    get: (i) => engine.get(i),
    retrievalLog: (q) => engine.retrievalLog(q),
    readcacheStats: () => engine.readcacheStats(),
    pruneStats: () => engine.pruneStats(),
    codeIndexStats: () => engine.codeIndexStats(),
    memory: async (request) => {
      if (!READING_MEMORY.has(request.type)) return fail("READ_ONLY", `The page reads memory only; ${request.type} needs a writer.`);
      return engine.memory(request);
    },
    close: () => engine.close(),
  };
}

/** How long a page's write waits for another process's write lock before it answers "busy, try again". */
const WRITE_WAIT_MS = 10_000;

/**
 * A writing engine for one confirmed purge or forget: the engine's own write path. The page's
 * server must keep answering while another process (pi, a CLI command) holds the write lock, so
 * nothing here waits inside SQLite (busy timeout zero; the lock is taken with async retries, up to
 * `waitMs`, then a BUSY failure that says to try again), and the rewrite the delete owes the file
 * runs on a worker; `close` waits for it.
 */
export function createWebWriter(config: Readonly<Config>, options: { waitMs?: number } = {}): WebWriter {
  const engine = createEngine({
    config,
    busyTimeoutMs: 0,
    writeLockWaitMs: options.waitMs ?? WRITE_WAIT_MS,
    background: "worker",
    leaveQueued: true,
  });
  return {
    purge: (f) => engine.purge(f),
    memory: (r) => engine.memory(r),
    rewritten: () => engine.rewritten(),
    close: () => engine.close(),
  };
}
