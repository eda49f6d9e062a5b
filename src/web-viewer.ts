/**
 * What the web page reads and writes. The viewer is the engine over a connection opened read-only
 * (searched as it is: nothing indexed, counted or logged as a retrieval), plus plain reads of the
 * tables the engine has no method for (usage over time, the retrieval log, the read cache,
 * pruning, the code index). The writer, opened only for a confirmed purge or forget, is a normal
 * engine, closed right after.
 */
import { existsSync } from "node:fs";
import type { Config } from "./config.ts";
import { type Db, immediateAsync, isBusy, openDatabase } from "./db/open.ts";
import { createEngine, type Engine } from "./engine.ts";
import { AppError, fail, type Result } from "./errors.ts";
import { type CodeIndexStats, codeIndexStats } from "./kota/index-stats.ts";
import type { MemoryAnswer, MemoryRequest } from "./memory/types.ts";
import { type PruneStats, pruneStats } from "./prune/stats.ts";
import { type ReadcacheStats, readcacheStats } from "./readcache/stats.ts";
import type { GetAnswer, GetInput, SourceInfo } from "./store/get.ts";
import { TOOL_CALLS } from "./store/next-calls.ts";
import { emptyWal, type PurgeFilter, type PurgeResult, rewriteFile } from "./store/purge.ts";
import { type RetrievalPage, type RetrievalQuery, retrievalLog } from "./store/retrieval-view.ts";
import type { SearchAnswer, SearchInput } from "./store/search/search.ts";
import type { SourceFilter } from "./store/source-filter.ts";
import type { Stats, StatsFilter } from "./store/stats.ts";
import { type Usage, type UsageQuery, usage } from "./store/usage.ts";

/** Episodic memory's one entry point. */
export type MemoryMethod = (request: MemoryRequest) => Promise<Result<MemoryAnswer>>;

export type WebEngine = {
  stats(filter?: StatsFilter): Promise<Stats>;
  usage(query?: UsageQuery): Promise<Usage>;
  list(filter?: SourceFilter, limit?: number): Promise<SourceInfo[]>;
  search(input: SearchInput): Promise<Result<SearchAnswer>>;
  get(input: GetInput): Promise<Result<GetAnswer>>;
  retrievalLog(query?: RetrievalQuery): Promise<RetrievalPage>;
  readcacheStats(): Promise<ReadcacheStats>;
  pruneStats(): Promise<PruneStats>;
  codeIndexStats(): Promise<CodeIndexStats>;
  /** Absent when memory is not available to this page. */
  memory?: MemoryMethod;
  close(): Promise<void>;
};

export type WebWriter = {
  purge(filter: PurgeFilter): Promise<PurgeResult>;
  memory?: MemoryMethod;
  close(): Promise<void>;
};

/** Memory requests that only read; the viewer refuses the rest before they reach a read-only connection. */
const READING_MEMORY = new Set<MemoryRequest["type"]>(["stats", "search", "status"]);

/** Opens `config.db` read-only, never creating it; an older schema is said plainly (upgrading it would write). */
function openReadOnly(path: string): Db {
  if (!existsSync(path))
    throw new AppError("DB_MISSING", `No database at ${path} yet. Start this page with --db PATH if pi uses another file, then reload.`);
  try {
    return openDatabase(path, { readonly: true });
  } catch (error) {
    if (error instanceof AppError && error.code === "DB_READONLY")
      throw new AppError(
        "DB_OLD_SCHEMA",
        `The database ${path} was written by an older pi-sidecar and needs an upgrade, which this read-only page does not make. ` +
          `Run pi-sidecar --db "${path}" stats once (it upgrades the file), then reload.`,
        { cause: error },
      );
    throw error;
  }
}

/**
 * The viewer over `config.db`. Opened on the first read, so a page started before the file
 * exists picks it up; a failed open is tried again on the next request.
 */
export function createWebViewer(o: { config: Readonly<Config>; now?: () => number }): WebEngine {
  const now = o.now ?? Date.now;
  let opened: { db: Db; engine: Engine } | null = null;
  const open = () => {
    if (!opened) {
      const db = openReadOnly(o.config.db);
      opened = { db, engine: createEngine({ config: o.config, db, now, calls: TOOL_CALLS, background: "inline" }) };
    }
    return opened;
  };
  const read = <T>(fn: (db: Db) => T) => Promise.resolve().then(() => fn(open().db));
  return {
    stats: (f) => open().engine.stats(f),
    list: (f, n) => open().engine.list(f, n),
    search: (i) => open().engine.search(i),
    get: (i) => open().engine.get(i),
    usage: (q) => read((db) => usage(db, q)),
    retrievalLog: (q) => read((db) => retrievalLog(db, q)),
    readcacheStats: () => read((db) => readcacheStats(db, now())),
    pruneStats: () => read((db) => pruneStats(db)),
    codeIndexStats: () => read((db) => codeIndexStats(db)),
    memory: async (request) => {
      if (!READING_MEMORY.has(request.type)) return fail("READ_ONLY", `The page reads memory only; ${request.type} needs a writer.`);
      return open().engine.memory(request);
    },
    async close() {
      const was = opened;
      opened = null;
      if (!was) return;
      await was.engine.close();
      was.db.close();
    },
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
