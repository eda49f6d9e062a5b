/**
 * The one typed interface every surface uses. A surface never touches SQLite; a capability
 * never knows which surface called it. Methods are async so an RPC client can stand in.
 */
import type { Config } from "./config.ts";
import { openDatabase, type Db } from "./db/open.ts";
import type { Failure } from "./errors.ts";
import { decide, type Decision, type DecideInput } from "./readcache/decide.ts";
import { createObjectStore } from "./readcache/objects.ts";
import { redact } from "./store/redact.ts";
import { immediateAsync } from "./db/open.ts";
import { countTokens } from "./store/tokens.ts";
import { capture, type CaptureInput, type CaptureResult } from "./store/capture.ts";
import type { StoreDeps } from "./store/deps.ts";
import { exportSource, get, listSources, type GetInput, type GetResult, type SourceInfo } from "./store/get.ts";
import { CLI_CALLS, type NextCalls } from "./store/hints.ts";
import { purge, type PurgeFilter, type PurgeResult } from "./store/purge.ts";
import { maybeRunRetention, runRetention } from "./store/retention.ts";
import { search, type SearchInput, type SearchResult } from "./store/search.ts";
import { createRetrievalLog, getStats, type Stats, type StatsFilter } from "./store/stats.ts";
import { workerTokenCounter, type TokenCounter } from "./store/token-counter.ts";

export type SourceFilter = { session?: string; tool?: string; project?: string };

export type Engine = {
  readonly config: Readonly<Config>;
  capture(input: CaptureInput): Promise<CaptureResult>;
  search(input: SearchInput): Promise<SearchResult | Failure>;
  get(input: GetInput): Promise<GetResult | Failure>;
  exportSource(sourceId: string, outPath: string, overwrite?: boolean): Promise<{ ok: true; bytes: number; path: string } | Failure>;
  list(filter?: SourceFilter, limit?: number): Promise<SourceInfo[]>;
  stats(filter?: StatsFilter): Promise<Stats>;
  purge(filter: PurgeFilter): Promise<PurgeResult>;
  retention(): Promise<PurgeResult>;
  /** The read cache's decision for one read (objects live in this database). */
  readcache(input: DecideInput): Promise<Decision>;
  close(): Promise<void>;
};

export type EngineOptions = {
  config: Readonly<Config>;
  /** An open database (tests); otherwise config.db is opened on first use. */
  db?: Db;
  now?: () => number;
  /** How receipts and hits phrase the next call: CLI commands or tool calls. */
  calls?: NextCalls;
  tokens?: TokenCounter;
  /** Inside a host's process (pi on Bun): wait for other writers with async retries, not in SQLite. */
  busyTimeoutMs?: number;
};

/** Runs async operations one at a time, in call order (one connection, no interleaving). */
function serial() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => T | Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };
}

export function createEngine(options: EngineOptions): Engine {
  const { config } = options;
  let db = options.db ?? null;
  let deps: StoreDeps | null = null;
  const tokens = options.tokens ?? workerTokenCounter();
  const store = (): StoreDeps => {
    if (!deps) {
      db ??= openDatabase(config.db, { busyTimeoutMs: options.busyTimeoutMs });
      deps = { db, config, now: options.now ?? Date.now, calls: options.calls ?? CLI_CALLS, tokens, retrievals: createRetrievalLog(db) };
    }
    return deps;
  };
  const one = serial();
  // Retrieval accounting is written a second after a search or get, or at once when stats are read.
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  const flush = async () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    await deps?.retrievals.flushAsync();
  };
  const later = <T>(result: T): T => {
    if (!flushTimer && deps && deps.retrievals.pending() > 0) {
      flushTimer = setTimeout(() => void one(flush), 1000);
      flushTimer.unref?.();
    }
    return result;
  };
  return {
    config,
    capture: (input) => one(() => capture(store(), input)),
    search: (input) => one(() => later(search(store(), input))),
    get: (input) => one(() => later(get(store(), input))),
    exportSource: (id, out, overwrite) => one(() => exportSource(store(), id, out, overwrite)),
    list: (filter, limit) => one(() => listSources(store(), filter, limit)),
    stats: (filter) => one(async () => (await flush(), getStats(store(), filter))),
    purge: (filter) => one(() => purge(store().db, filter, store().now())),
    retention: () => one(() => runRetention(store())),
    readcache: (input) =>
      one(async () => {
        const { db, now } = store();
        // Nothing secret is persisted: a file with anything redaction would touch is not cached.
        if (redact(input.text).count > 0) {
          return { mode: "full" as const, text: input.builtIn, record: { v: 1 as const, path: input.path, hash: "", lines: 0, mode: "full", trusted: [], saved: { bytes: 0, tokens: 0 } } };
        }
        const objects = createObjectStore(db, now);
        const decision = decide(input, objects); // reads only
        // The version the model now has some of is kept as a base for later reads.
        if (decision.record.trusted.length > 0 || decision.base) {
          await immediateAsync(db, async () => {
            if (decision.record.trusted.length > 0) objects.put(decision.record.hash, input.text);
            if (decision.base) objects.touch(decision.base);
          });
        }
        maybeRunRetention(store());
        // Saved = what the built-in read would have sent minus what was sent: truncation is not saving.
        const saved = decision.mode === "full"
          ? { bytes: 0, tokens: 0 }
          : { bytes: Buffer.byteLength(input.builtIn) - Buffer.byteLength(decision.text), tokens: countTokens(input.builtIn) - countTokens(decision.text) };
        return { ...decision, record: { ...decision.record, saved } };
      }),
    close: () =>
      one(async () => {
        await flush();
        tokens.close();
        db?.close();
        db = null;
        deps = null;
      }),
  };
}
