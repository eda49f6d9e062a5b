/**
 * The one typed interface every surface uses. A surface never touches SQLite; a capability
 * never knows which surface called it. Methods are async so an RPC client can stand in.
 */
import { type Background, indexHelper, inlineBackground, workerBackground } from "./background.ts";
import type { Config } from "./config.ts";
import { lockedWrite } from "./db/locked-write.ts";
import { isReadOnly, isWriteFailure, openDatabase, openExistingReadOnly } from "./db/open.ts";
import { debugLog } from "./debug.ts";
import type { EngineOptions } from "./engine-options.ts";
import { createRewriter, type PurgeAnswer, type RewriteOutcome } from "./engine-writes.ts";
import type { Result } from "./errors.ts";
import type { CodeIndexStats, KotaAnswer, KotaCallOptions, KotaRequest, KotaService } from "./kota/index.ts";
import { loadKotaIndexStats, loadKotaService } from "./kota/index.ts";
import { maybeRunMaintenance, purgeAll, runMaintenance } from "./maintenance.ts";
import type { MemoryAnswer, MemoryRequest, MemoryService } from "./memory/index.ts";
import { loadMemoryService } from "./memory/index.ts";
import type { PruneInput, PruneOutput, Pruner } from "./prune/index.ts";
import { loadPrunePrune, NO_PRUNING, type PruneSavings, type PruneStats, pruneStats as pruneFigures, pruneSavings } from "./prune/index.ts";
import type { Decision, ReadInput } from "./readcache/index.ts";
import {
  checkMarkers,
  createObjectStore,
  loadReadcacheRead,
  markerText,
  NO_READS,
  type ReadcacheSavings,
  type ReadcacheStats,
  readcacheStats as readcacheFigures,
  readcacheSavings,
} from "./readcache/index.ts";
import type {
  CaptureInput,
  CaptureResult,
  EngineDeps,
  RetrievalPage,
  RetrievalQuery,
  SourceFilter,
  Usage,
  UsageQuery,
} from "./store/index.ts";
import {
  CLI_CALLS,
  createRetrievalLog,
  existingSources,
  exportSource,
  type GetAnswer,
  type GetInput,
  get,
  getStats,
  hasUnindexed,
  listSources,
  loadStoreCapture,
  loadStoreRetrievalView,
  loadStoreUsage,
  type PurgeFilter,
  type PurgeResult,
  type SearchAnswer,
  type SearchInput,
  type SettleResult,
  type SourceInfo,
  type Stats,
  type StatsFilter,
  search,
} from "./store/index.ts";
import { useTokenizerFile } from "./tokens/count.ts";

export type { EngineOptions } from "./engine-options.ts";
export type { PurgeAnswer, RewriteOutcome, RewriteState } from "./engine-writes.ts";
export type { PruneSavings } from "./prune/index.ts";
export type { ReadcacheSavings } from "./readcache/index.ts";
export type { CaptureBaseline, SourceFilter } from "./store/index.ts";

/**
 * The overview: captures against their baselines (store/stats.ts), and beside them, on their own
 * lines, what the read cache and pruning saved against what pi would have sent without them.
 */
export type EngineStats = Stats & { readcache: ReadcacheSavings; pruning: PruneSavings };

export type Engine = {
  readonly config: Readonly<Config>;
  capture(input: CaptureInput): Promise<CaptureResult>;
  search(input: SearchInput): Promise<Result<SearchAnswer>>;
  get(input: GetInput): Promise<Result<GetAnswer>>;
  exportSource(sourceId: string, outPath: string, overwrite?: boolean): Promise<Result<{ bytes: number; path: string }>>;
  list(filter?: SourceFilter, limit?: number): Promise<SourceInfo[]>;
  stats(filter?: StatsFilter): Promise<EngineStats>;
  /**
   * Deletes sources; the file is then rewritten so no copy of them is left (off the host's thread
   * in a long-lived host: `rewritten()` says when that ended).
   */
  purge(filter: PurgeFilter): Promise<PurgeAnswer>;
  /** How the latest rewrite a purge or forget started ended, once it did; null when none was started. */
  rewritten(): Promise<RewriteOutcome | null>;
  retention(): Promise<PurgeResult>;
  /** The read cache's decision for one read (objects live in this database). */
  readcache(input: ReadInput): Promise<Decision>;
  /**
   * Context pruning, messages in and messages out: old tool results become pointers to their
   * exact text in this store, in batches that keep the sent prefix stable (prune/prune.ts).
   */
  prune(input: PruneInput): Promise<PruneOutput>;
  /** Code intelligence (kota/service.ts): its own connection and processes, started on the first call. */
  kota(request: KotaRequest, options?: KotaCallOptions): Promise<Result<KotaAnswer>>;
  /** Episodic memory (memory/service.ts), on this engine's connection. */
  memory(request: MemoryRequest): Promise<Result<MemoryAnswer>>;
  /** Finishes queued indexing and token counting now (stats do this themselves). */
  settle(): Promise<SettleResult>;
  /** Captures and retrievals over time, in buckets (the stats page's chart). */
  usage(query?: UsageQuery): Promise<Usage>;
  /** The retrieval log, newest first, a page at a time. */
  retrievalLog(query?: RetrievalQuery): Promise<RetrievalPage>;
  readcacheStats(): Promise<ReadcacheStats>;
  pruneStats(): Promise<PruneStats>;
  codeIndexStats(): Promise<CodeIndexStats>;
  close(): Promise<void>;
};

/** What a reader that must never write sees: the web page's face of the engine. */
export type ReadOnlyEngine = Pick<
  Engine,
  "stats" | "usage" | "list" | "search" | "get" | "retrievalLog" | "readcacheStats" | "pruneStats" | "codeIndexStats" | "memory" | "close"
>;

/** Runs async operations one at a time, in call order (one connection, no interleaving). */
function serial() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => T | Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };
}

type Opened = EngineDeps & { background: Background; readOnly: boolean };

function overview(deps: EngineDeps, filter: StatsFilter = {}): EngineStats {
  // The read cache and pruning are per session and project, not per source or tool.
  const own = !filter.source && !filter.tool;
  return {
    ...getStats(deps, filter),
    readcache: own ? readcacheSavings(deps.db, { session: filter.session, project: filter.project }) : NO_READS,
    pruning: own && !filter.project ? pruneSavings(deps.db, { session: filter.session }) : NO_PRUNING,
  };
}

/** How long an answer waits for the write lock to record itself before it leaves that for later. */
const RECORD_WAIT_MS = 2000;
/** Pages of the indexes' merge per quiet second (about half a second of work). */
const QUIET_MERGE_PAGES = 1024;

/** Swallows a write that could not happen (disk full, read-only, busy): a read goes on without it. */
function unlessWriteFailure(error: unknown): void {
  if (isWriteFailure(error)) return;
  throw error;
}

export function createEngine(options: EngineOptions): Engine {
  const { config } = options;
  let opened: Opened | null = null;
  const store = (): Opened => {
    if (!opened) {
      const db =
        options.db ??
        (options.readOnly ? openExistingReadOnly(config.db) : openDatabase(config.db, { busyTimeoutMs: options.busyTimeoutMs }));
      const now = options.now ?? Date.now;
      if (options.assets) useTokenizerFile(options.assets.tokenizer);
      const readOnly = isReadOnly(db);
      // A read-only database is searched as it is: nothing is indexed, counted or logged.
      const background =
        options.background === "inline" || readOnly
          ? inlineBackground(db, options.indexHelper && !readOnly ? indexHelper(options.assets ?? null) : null)
          : workerBackground(db, config.db, options.assets ?? null);
      opened = {
        readOnly,
        db,
        config,
        now,
        calls: options.calls ?? CLI_CALLS,
        tokens: background,
        background,
        retrievals: createRetrievalLog(db, now, false, readOnly),
      };
      // A rewrite an earlier process owed the file and did not finish (it exited, or died) runs now.
      if (!readOnly) rewriter.resume(db);
    }
    return opened;
  };
  // The rewrite after a purge or forget: on its own worker in a long-lived host, inline in a one-shot command.
  const rewriter = createRewriter(() => store().background, options.background !== "inline", debugLog());
  /** A forget; for a server that must keep answering, with the write lock taken without waiting in SQLite. */
  const deleting = <T>(fn: () => Promise<T>): Promise<T> =>
    options.writeLockWaitMs === undefined ? fn() : lockedWrite(store().db, options.writeLockWaitMs, fn);
  const one = serial();
  let kota: Promise<KotaService> | null = null;
  const kotaService = () =>
    (kota ??= loadKotaService().then(({ createKotaService }) =>
      createKotaService({ dbPath: config.db, config, now: options.now, helperDir: options.assets?.dir }),
    ));
  let memory: MemoryService | null = null;
  const memoryOf = async (s: Opened): Promise<MemoryService> => {
    if (memory) return memory;
    const [{ createMemoryService }, { capture }] = await Promise.all([loadMemoryService(), loadStoreCapture()]);
    memory = createMemoryService({
      db: s.db,
      config,
      now: s.now,
      count: (texts) => s.tokens.count(texts),
      storeWhole: async (text, scope) => {
        const r = await capture(s, {
          text,
          tool: "memory",
          project: scope.project,
          session: scope.session,
          force: true,
          baseline: { kind: "none", rule: "kept for memory" },
        });
        return r.stored ? { sourceId: r.sourceId } : null;
      },
      dropWhole: async (sourceId) => {
        purgeAll(s.db, { source: sourceId }, s.now());
      },
      rewrite: async () => (await rewriter.owe(s.db)).note,
    });
    return memory;
  };
  let pruner: Pruner | null = null;
  const prunerOf = async (s: Opened): Promise<Pruner> => {
    if (pruner) return pruner;
    const [{ createPruner }, { capture }] = await Promise.all([loadPrunePrune(), loadStoreCapture()]);
    const objects = createObjectStore(s.db, s.now);
    const { prune } = config;
    pruner = createPruner({
      db: s.db,
      now: s.now,
      settings: {
        keepRecentTurns: prune.keepRecentTurns,
        maxToolChars: prune.maxToolChars,
        clearAtLeast: prune.clearAtLeast,
        adaptivePercent: prune.adaptivePercent,
      },
      rehydrate: s.calls,
      count: (texts) => Promise.all(texts.map((t) => s.tokens.count([t]))),
      store: async (input) => {
        const r = await capture(s, { ...input, force: true, baseline: { kind: "none", rule: "kept for pruning" } });
        return r.stored ? { ok: true, sourceId: r.sourceId } : { ok: false, message: r.reason };
      },
      existing: (ids) => existingSources(s, ids),
      markers: { check: checkMarkers, text: (details) => markerText(objects, details) },
    });
    return pruner;
  };
  // Retrieval accounting is written before the answer is returned, so a process killed right after
  // it answered has lost nothing. When another process keeps the write lock (or the disk is full)
  // the records stay buffered and are tried again a second later, and when stats are read.
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  const flush = async (maxWaitMs?: number) => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    await opened?.retrievals.flushAsync(maxWaitMs);
  };
  const flushSoon = () => {
    if (flushTimer || !opened || opened.retrievals.pending() === 0) return;
    flushTimer = setTimeout(() => void one(() => flush(RECORD_WAIT_MS).catch(flushSoon)), 1000);
    flushTimer.unref?.();
  };
  const recorded = async <T>(result: T): Promise<T> => {
    await flush(RECORD_WAIT_MS).catch(flushSoon);
    // A quiet second later the worker counts the answers' tokens; its commit also checkpoints the
    // WAL, which the log's own commits leave to other writes (retrieval-log.ts).
    if (options.background !== "inline" && opened && !opened.readOnly) countSoon(opened);
    return result;
  };
  /** Indexes what captures queued, before anything reads the indexes. */
  const indexed = async () => {
    const s = store();
    // On a full disk (or past a long writer elsewhere) what is indexed is searched as it is.
    if (!s.readOnly && hasUnindexed(s.db)) await s.background.settle(true).catch(unlessWriteFailure);
  };
  /** After a write: retention when due, and the queued work started in the background. */
  // Token counting waits for a quiet second after the last write: the worker does one job at a
  // time, and a search must wait only for the index, never behind a count.
  // The indexes' merge goes on a slice at a time in quiet seconds after that, until it is done.
  let countTimer: ReturnType<typeof setTimeout> | null = null;
  const countSoon = (s: Opened) => {
    if (countTimer) clearTimeout(countTimer);
    countTimer = setTimeout(() => {
      countTimer = null;
      if (opened !== s) return;
      void s.background
        .settle(false, true, QUIET_MERGE_PAGES)
        .then((done) => {
          if (done.merging && opened === s && !countTimer) countSoon(s);
        })
        .catch(() => {});
    }, 1000);
    countTimer.unref?.();
  };
  const afterWrite = <T>(result: T): T => {
    const s = store();
    maybeRunMaintenance(s);
    if (options.background !== "inline") {
      void s.background.settle(true, true).catch(() => {});
      countSoon(s);
    }
    return result;
  };
  return {
    config,
    // Capture (redaction rules) and the read cache (diffs) load on first use: a search never pays for them.
    capture: (input) =>
      one(async () => {
        const { capture } = await loadStoreCapture();
        return afterWrite(await capture(store(), input));
      }),
    search: (input) =>
      one(async () => {
        await indexed();
        return recorded(search(store(), input));
      }),
    get: (input) => one(() => recorded(get(store(), input))),
    exportSource: (id, out, overwrite) => one(() => exportSource(store(), id, out, overwrite)),
    list: (filter, limit) => one(() => listSources(store(), filter, limit)),
    // A read: what is queued is finished first when it can be; a full disk, a read-only file or a
    // long writer elsewhere leaves it queued, and the figures are read as they are.
    stats: (filter) =>
      one(async () => {
        await flush(RECORD_WAIT_MS).catch(unlessWriteFailure);
        if (!store().readOnly) await store().background.settle().catch(unlessWriteFailure);
        return overview(store(), filter);
      }),
    purge: (filter) =>
      one(async () => {
        // On a worker of its own in a long-lived host (the deletes of a large source take seconds).
        const s = store();
        const r = await s.background.purge(filter, s.now(), s.readOnly ? null : (options.writeLockWaitMs ?? null));
        // After the commit: the rewrite (and the emptied WAL) leaves no copy of what was deleted.
        return { ...r, ...(await rewriter.owe(s.db)) };
      }),
    rewritten: async () => rewriter.current(),
    retention: () => one(() => runMaintenance(store())),
    readcache: (input) =>
      one(async () => {
        const { readWithCache } = await loadReadcacheRead();
        return afterWrite(await readWithCache(store(), input));
      }),
    prune: (input) =>
      one(async () => {
        const s = store();
        const out = await (await prunerOf(s)).prune(input);
        if (out.batch.length > 0) afterWrite(null);
        return out;
      }),
    // Not serialised with the store: an index run takes seconds and has its own connection.
    kota: async (request, callOptions) => (await kotaService()).handle(request, callOptions),
    memory: (request) =>
      one(async () => {
        const handle = async () => (await memoryOf(store())).handle(request);
        return request.type === "forget" ? deleting(handle) : handle();
      }),
    settle: () =>
      one(async () => {
        await flush();
        // Asked for (the CLI's settle, a benchmark): the indexes' merge too, to its end when one is due (index-merge.ts).
        return store().readOnly
          ? { blobs: 0, counted: 0, receipts: 0, retrievals: 0 }
          : store().background.settle(false, false, Number.POSITIVE_INFINITY);
      }),
    // Plain reads of what the stats page shows; their modules load on first use.
    usage: (query) => one(async () => (await loadStoreUsage()).usage(store().db, query)),
    retrievalLog: (query) => one(async () => (await loadStoreRetrievalView()).retrievalLog(store().db, query)),
    readcacheStats: () => one(async () => readcacheFigures(store().db, store().now())),
    pruneStats: () => one(async () => pruneFigures(store().db)),
    codeIndexStats: () => one(async () => (await loadKotaIndexStats()).codeIndexStats(store().db)),
    close: () =>
      one(async () => {
        if (countTimer) clearTimeout(countTimer);
        countTimer = null;
        const k = kota;
        kota = null;
        if (k) await (await k).close();
        memory = null;
        // A rewrite that is running ends first: its work is not thrown away.
        await rewriter.current();
        if (!opened) return;
        await flush().catch(unlessWriteFailure);
        // A one-shot command leaves its captures searchable; token counts (and the tokenizer's load)
        // are left queued for the next long-lived process, or for stats, which count before they answer.
        if (options.background === "inline" && !options.leaveQueued && !opened.readOnly)
          await opened.background.settle(true).catch(unlessWriteFailure);
        opened.background.close();
        if (!options.db) opened.db.close();
        opened = null;
        pruner = null;
      }),
  };
}
