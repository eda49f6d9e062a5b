/**
 * What the web page reads and writes. The viewer is the engine's read-only face; the writer,
 * opened only for a confirmed purge or forget, is a normal engine on a connection that never waits
 * inside SQLite, closed right after.
 */
import type { Config } from "./config.ts";
import { type Db, immediateAsync, isBusy, openDatabase } from "./db/open.ts";
import { createEngine, type Engine, type ReadOnlyEngine } from "./engine.ts";
import { AppError, fail } from "./errors.ts";
import type { MemoryRequest } from "./memory/index.ts";
import { emptyWal, type PurgeFilter, type PurgeResult, rewriteFile, TOOL_CALLS } from "./store/index.ts";

/** Episodic memory's one entry point. */
export type MemoryMethod = Engine["memory"];

/** What the page reads: the engine's read-only face. */
export type WebEngine = ReadOnlyEngine;

export type WebWriter = {
  purge(filter: PurgeFilter): Promise<PurgeResult>;
  memory?: MemoryMethod;
  close(): Promise<void>;
};

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
 * A writing engine for one confirmed purge or forget. The page's server must keep answering while
 * another process (pi, a CLI command) holds the write lock, so nothing here ever waits inside
 * SQLite: the connection's busy timeout is zero, the write lock is taken with async retries (up to
 * `waitMs`, then a BUSY failure that says to try again), and the write runs inside that one
 * transaction, where it can no longer meet a lock. After the commit the WAL is emptied, so what was
 * deleted has no copy left there.
 */
export function createWebWriter(config: Readonly<Config>, options: { waitMs?: number } = {}): WebWriter {
  const waitMs = options.waitMs ?? WRITE_WAIT_MS;
  let opened: { db: Db; engine: Engine } | null = null;
  const open = () => {
    if (!opened) {
      const db = openDatabase(config.db, { busyTimeoutMs: 0 });
      opened = { db, engine: createEngine({ config, db, background: "inline", leaveQueued: true }) };
    }
    return opened;
  };
  const locked = async <T>(fn: (engine: Engine) => Promise<T>, after?: (db: Db, result: T) => void): Promise<T> => {
    const { db, engine } = open();
    let result: T;
    try {
      result = await immediateAsync(db, () => fn(engine), waitMs);
    } catch (error) {
      if (!isBusy(error)) throw error;
      throw new AppError(
        "BUSY",
        `Another process (pi, or a pi-sidecar command) is writing to ${config.db} and kept it for ${Math.round(waitMs / 1000)} s; ` +
          "nothing was changed. Try again in a moment.",
        { cause: error },
      );
    }
    after?.(db, result);
    // A reader of an older snapshot keeps the WAL from emptying: wait for it a little, without blocking.
    await emptyWal(db);
    return result;
  };
  return {
    // The purge ran in this transaction; the file is rewritten once it is committed (see store/purge.ts).
    purge: (f) =>
      locked(
        (e) => e.purge(f),
        (db, r) => r.sources > 0 && rewriteFile(db),
      ),
    memory: (r) => locked((e) => e.memory(r)),
    async close() {
      const was = opened;
      opened = null;
      if (!was) return;
      await was.engine.close();
      was.db.close();
    },
  };
}
