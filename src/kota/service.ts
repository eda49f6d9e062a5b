/**
 * Code intelligence as the engine exposes it: one entry point, `handle(request)`, that finds the
 * repository root, picks the backend (kota.backend, or the request's own), and answers with the
 * contract's shapes. It opens its own connection to the sidecar database (an index run is long and
 * must not hold up the engine's other work) and runs explicit index runs one at a time. A query on a
 * repository while an explicit index run of it is going is answered at once with the progress.
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type { Config } from "../config.ts";
import { type Db, openDatabase } from "../db/open.ts";
import { AppError, errorMessage, fail, type Result } from "../errors.ts";
import { createBuiltinIndex } from "./builtin/backend.ts";
import { type FirstIndexStart, startFirstIndex } from "./builtin/first-index.ts";
import { createParsePool, type ParsePool } from "./builtin/parse/parse-pool.ts";
import { type Checkpointer, idleCheckpoints } from "./checkpoint.ts";
import { type CodeIndexBackend, KOTA_ERRORS, type KotaBackendName } from "./contract.ts";
import { type HelperRole, helperCommand } from "./helper-process.ts";
import { createKotaDbBackend } from "./kotadb/backend.ts";
import { kotadbLaunch } from "./kotadb/launch.ts";
import { KotaDbServer, type SpawnKotaDb } from "./kotadb/server.ts";
import { findRepoRoot } from "./repo-root.ts";
import { KOTA_OPS, type KotaAnswer, type KotaCallOptions, type KotaOp, type KotaOps, type KotaRequest } from "./request.ts";

export type KotaServiceDeps = {
  /** The sidecar database (the code_* tables); KotaDB's own databases go in `kotadb/` beside it. */
  dbPath: string;
  /** kota.*, and the read cache's extra sensitive globs (files that match are never indexed either). */
  config: Readonly<Pick<Config, "kota">> & { readonly readcache?: { readonly sensitive?: readonly string[] } };
  now?: () => number;
  /** How a KotaDB process is started (tests wrap the real one). */
  spawn?: SpawnKotaDb;
  log?: (line: string) => void;
  /** Builtin: queries within this many ms of the last disk check skip the next one (default 500; none while a folder watcher runs). */
  freshnessMs?: number;
  /** Builtin: watch indexed folders for changes (default true; a one-shot command has no use for it). */
  watch?: boolean;
  /**
   * The pi extension's folder, where the program for helper processes is found (install.json, the
   * binary beside it, npm's platform package): a bundle cannot tell where it was loaded from.
   */
  helperDir?: string;
};

export type KotaService = {
  handle(request: KotaRequest, options?: KotaCallOptions): Promise<Result<KotaAnswer>>;
  /** Stops every KotaDB process and closes the database connection. */
  close(): Promise<void>;
};

const BACKENDS: readonly KotaBackendName[] = ["builtin", "kotadb"];

/** A successful result without its `ok` flag: the contract's shape. */
function withoutOk<T>(r: { ok: true } & T): T {
  const { ok: _, ...rest } = r;
  return rest as unknown as T;
}

export function createKotaService(deps: KotaServiceDeps): KotaService {
  const { config } = deps;
  const now = deps.now ?? Date.now;
  const helperOf = (role: HelperRole) => (deps.helperDir ? helperCommand(role, deps.helperDir) : undefined);
  let db: Db | null = null;
  let checkpoints: Checkpointer | null = null;
  const backends = new Map<string, CodeIndexBackend>();
  let parser: ParsePool | null = null;
  const indexing = new Map<string, { done: number; total: number }>();
  let indexChain: Promise<unknown> = Promise.resolve();
  let closed = false;
  // Closing cancels index runs (what they finished is kept) rather than waiting minutes for them.
  const closing = new AbortController();

  const database = (): Db => {
    if (!db) {
      db = openDatabase(deps.dbPath);
      checkpoints = idleCheckpoints(db, deps.dbPath);
    }
    return db;
  };

  const parsers = () => createParsePool({ log: deps.log, helper: helperOf("kota-parser") });

  const knownRoots = (): string[] => {
    const roots = [...backends.values()].map((b) => b.root);
    // No database yet: no roots in it either (and it is created later, once there is work for it).
    if (db === null && !existsSync(deps.dbPath)) return roots;
    try {
      roots.push(
        ...database()
          .query<{ root: string }, []>("SELECT root FROM code_repos WHERE indexed_at IS NOT NULL")
          .all()
          .map((r) => r.root),
      );
    } catch {
      // no database yet: the markers upwards decide
    }
    return roots;
  };

  const backendFor = (name: KotaBackendName, root: string, firstIndex?: FirstIndexStart): CodeIndexBackend => {
    const key = `${name}\0${root}`;
    let b = backends.get(key);
    if (!b) {
      if (name === "builtin") {
        parser ??= parsers();
        b = createBuiltinIndex({
          db: database(),
          root,
          now,
          freshnessMs: deps.freshnessMs,
          watch: deps.watch,
          log: deps.log,
          parser,
          sensitive: config.readcache?.sensitive,
          firstIndex,
        });
      } else {
        const launch = kotadbLaunch({
          command: config.kota.command,
          args: config.kota.args,
          root,
          dataDir: dirname(deps.dbPath),
          watchdog: helperOf("kotadb-watchdog"),
        });
        const server = new KotaDbServer(launch, { spawn: deps.spawn, timeoutMs: config.kota.timeoutMs, log: deps.log, now });
        b = createKotaDbBackend({ root, server, timeoutMs: config.kota.timeoutMs });
      }
      backends.set(key, b);
    }
    return b;
  };

  const busy = (key: string, root: string) => {
    const p = indexing.get(key)!;
    const progress = p.total > 0 ? ` (${p.done} of ${p.total} files parsed)` : "";
    return fail(KOTA_ERRORS.INDEXING, `${root} is being indexed${progress}; ask again when it finishes.`);
  };

  const run = async (request: KotaRequest, options: KotaCallOptions): Promise<Result<KotaAnswer>> => {
    if (!request || typeof request !== "object" || !KOTA_OPS.includes(request.op)) {
      return fail(KOTA_ERRORS.BAD_INPUT, `Unknown kota operation ${JSON.stringify(request?.op)}; use one of ${KOTA_OPS.join(", ")}.`);
    }
    const name = request.backend ?? config.kota.backend;
    if (!BACKENDS.includes(name))
      return fail(KOTA_ERRORS.BAD_INPUT, `Unknown kota backend ${JSON.stringify(name)}; use builtin or kotadb.`);
    if (typeof request.repo !== "string") return fail(KOTA_ERRORS.BAD_INPUT, "repo must be the repository root or a path inside it.");
    // Indexing into a database that does not exist yet parses every file: the parser starts now, and
    // gets its first files (first-index.ts) before the database is created (tens of ms of disk syncs).
    const firstIndex = request.op === "index" && name === "builtin" && db === null && !existsSync(deps.dbPath);
    if (firstIndex) {
      parser ??= parsers();
      parser.prestart(1);
    }
    const found = findRepoRoot(request.repo, knownRoots());
    if (!found.ok) return found;
    const { root } = found;
    const key = `${name}\0${root}`;
    /** The backend's result as the answer to this request's op. */
    const answer = <O extends KotaOp>(op: O, r: Result<KotaOps[O]["result"]>): Result<KotaAnswer> => {
      if (!r.ok) return r;
      // TypeScript does not follow O from the op to its result here; the signature above ties them.
      return { ok: true, op, backend: name, repository: root, result: withoutOk(r) } as Result<KotaAnswer>;
    };

    if (request.op === "restart") {
      const old = backends.get(key);
      backends.delete(key);
      if (indexing.has(key)) return busy(key, root);
      await old?.close();
      return answer("restart", await backendFor(name, root).status());
    }
    if (indexing.has(key)) return busy(key, root);
    const stopped = () => options.signal?.aborted === true || closing.signal.aborted;
    const early =
      firstIndex && !backends.has(key) && parser ? startFirstIndex(root, config.readcache?.sensitive ?? [], parser, stopped) : null;
    const b = backendFor(name, root, early ?? undefined);
    if (request.op === "index") {
      const progress = { done: 0, total: 0 };
      indexing.set(key, progress);
      const runIndex = () =>
        b.index({
          full: request.full === true,
          signal: options.signal ? AbortSignal.any([options.signal, closing.signal]) : closing.signal,
          onProgress: (done, total) => {
            progress.done = done;
            progress.total = total;
            // A long run must not grow the WAL without bound: past its limit it is folded in at once.
            checkpoints?.touch();
            options.onProgress?.(done, total);
          },
        });
      const r = indexChain.then(runIndex, runIndex);
      indexChain = r.catch(() => undefined);
      try {
        return answer("index", await r);
      } finally {
        indexing.delete(key);
      }
    }
    const { repo: _repo, backend: _backend, ...args } = request;
    switch (args.op) {
      case "search":
        return answer(args.op, await b.search(args));
      case "deps":
        return answer(args.op, await b.deps(args));
      case "usages":
        return answer(args.op, await b.usages(args));
      case "impact":
        return answer(args.op, await b.impact(args));
      case "taskContext":
        return answer(args.op, await b.taskContext(args));
      case "status":
        return answer(args.op, await b.status());
    }
  };

  return {
    async handle(request, raw = {}) {
      if (closed) return fail(KOTA_ERRORS.BACKEND_UNAVAILABLE, "The code index service is closed.");
      // Over stdio RPC the options arrive as JSON: a signal as {}, no callback. Only the real ones count.
      const options: KotaCallOptions = {
        signal: raw?.signal instanceof AbortSignal ? raw.signal : undefined,
        onProgress: typeof raw?.onProgress === "function" ? raw.onProgress : undefined,
      };
      try {
        const r = await run(request, options);
        // Any call may have written (a query re-indexes what changed on disk first).
        checkpoints?.touch();
        return r;
      } catch (error) {
        checkpoints?.touch();
        // Faults (an unreadable database, a parser with no binding) are answered, never thrown at a surface.
        const code = error instanceof AppError ? error.code : KOTA_ERRORS.BACKEND_UNAVAILABLE;
        return fail(code, `Code intelligence failed: ${errorMessage(error)}`);
      }
    },
    async close() {
      closed = true;
      closing.abort();
      await indexChain.catch(() => undefined);
      await Promise.all([...backends.values()].map((b) => b.close().catch(() => undefined)));
      backends.clear();
      // The parsers end on their own (their input closes); the database closes meanwhile.
      const parsersEnded = parser?.close();
      parser = null;
      checkpoints?.close();
      checkpoints = null;
      db?.close();
      db = null;
      await parsersEnded;
    },
  };
}
