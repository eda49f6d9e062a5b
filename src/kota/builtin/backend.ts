/**
 * The built-in code index backend: our own index of a repository's TS/JS in the sidecar database,
 * parsed with oxc, resolved like TypeScript resolves modules, kept current by mtime + hash.
 * Every query first notices files changed on disk and re-indexes them, then answers.
 */
import { existsSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { Db } from "../../db/open.ts";
import { fail, type Result } from "../../errors.ts";
import {
  type CodeIndexBackend,
  type IndexOptions,
  type IndexResult,
  KOTA_ERRORS,
  notIndexedStatus,
  type StatusResult,
} from "../contract.ts";
import { restoreIndexes } from "./bulk-indexes.ts";
import { type Detected, detectChanges } from "./files/freshness.ts";
import { detectFromEvents } from "./files/freshness-events.ts";
import { createDirWatcher, type DirWatcher, defaultWatchLimit, watchesFit } from "./files/inotify.ts";
import { CONFIG_FILE, fileView, scanRepository } from "./files/scan.ts";
import { type FirstIndexStart, realRoot } from "./first-index.ts";
import { buildGraph, type Graph, patchGraph } from "./graph.ts";
import { type ApplyOutcome, applyChanges, type Changes } from "./indexer.ts";
import { createParsePool, type ParsePool } from "./parse/parse-pool.ts";
import { queryDeps } from "./query/deps.ts";
import type { QueryEnv } from "./query/env.ts";
import { queryImpact } from "./query/impact.ts";
import { querySearch } from "./query/search.ts";
import { queryTaskContext } from "./query/task-context.ts";
import { queryUsages } from "./query/usages.ts";
import { type ConfigTextCache, type ResolveCache, resolveImports } from "./resolve/resolve-imports.ts";
import { createCodeStore, type FileRow, type RepoRow, type WatchRow } from "./store.ts";
import type { TestRule } from "./test-rule.ts";
import { createTotals } from "./totals.ts";

export type BuiltinIndexDeps = {
  db: Db;
  /** The repository root (absolute, or relative to the working directory). */
  root: string;
  now?: () => number;
  /** Queries within this many ms of the last disk check skip the next one (default 500; 0 = always check). */
  freshnessMs?: number;
  /** Watch the indexed folders (Linux inotify) so a check reads events instead of a stat per file (default true). */
  watch?: boolean;
  log?: (line: string) => void;
  /** The parser processes (shared by the service's repositories); without one the index starts its own. */
  parser?: ParsePool;
  /** The user's extra sensitive globs (readcache.sensitive): matching files are never indexed. */
  sensitive?: readonly string[];
  /** The most inotify watches this process takes over all repositories (default: see inotify.ts). */
  maxWatches?: number;
  /** The listing and first parses of a first index made before the database existed (first-index.ts): the first full index takes them. */
  firstIndex?: FirstIndexStart;
};

export function createBuiltinIndex(deps: BuiltinIndexDeps): CodeIndexBackend {
  const { db } = deps;
  const root = realRoot(deps.root);
  const now = deps.now ?? Date.now;
  const freshnessMs = deps.freshnessMs ?? 500;
  const store = createCodeStore(db);
  // A first index that stopped with its indexes set aside (bulk-indexes.ts) left them missing.
  restoreIndexes(db);
  const view = () => fileView(root, deps.sensitive ?? []);
  const ownParser = deps.parser ? null : createParsePool({ log: deps.log });
  const parser = deps.parser ?? ownParser!;
  const totalsOf = createTotals(db, store);
  let graph: Graph | null = null;
  const configText: ConfigTextCache = new Map();
  const resolve: { cache: ResolveCache } = { cache: null };
  const tests: { rule: TestRule | null } = { rule: null };
  // The indexed files' stat data, for the freshness check; reloaded when the index changes.
  let files: { generation: number; rows: FileRow[] } | null = null;
  const indexedFiles = (repo: RepoRow): FileRow[] => {
    if (!files || files.generation !== repo.generation) files = { generation: repo.generation, rows: store.files(repo.id) };
    return files.rows;
  };
  let watcher: DirWatcher | null = null;
  let useWatcher = deps.watch !== false;
  // The first check after the watcher starts (or after a full walk) is the stat-based one: it covers
  // what changed before the watches were in place.
  let fullCheck = true;
  let firstIndex = deps.firstIndex?.root === root ? deps.firstIndex : undefined;

  const watchLimit = deps.maxWatches ?? defaultWatchLimit();
  const startWatcher = (repo: RepoRow) => {
    if (!useWatcher || watcher) return;
    useWatcher = false;
    const dirs = store.watch(repo.id).filter((row) => row.is_dir === 1);
    if (!watchesFit(dirs.length, watchLimit)) {
      deps.log?.(
        `kota: ${root} has ${dirs.length} folders, more than the inotify watches left to this process; checking with a stat per file`,
      );
      return;
    }
    const w = createDirWatcher(root, watchLimit);
    if (!w) return;
    for (const row of dirs) {
      if (!w.add(row.path)) {
        deps.log?.(`kota: cannot watch ${root} (inotify watch limit); checking with a stat per file`);
        w.close();
        return;
      }
    }
    useWatcher = true;
    watcher = w;
    fullCheck = true;
  };

  /**
   * Watches the folders a check found (new ones, or ones deleted and made again). Files made in them
   * before the watch was in place are found by one more full check. A refused watch (the kernel's
   * limit) ends watching: the stat-based check takes over for good.
   */
  const watchFolders = (d: Detected): void => {
    if (!watcher || d.kind !== "changes") return;
    for (const w of d.changes.watch) {
      if (w.is_dir !== 1) continue;
      if (!watcher.add(w.path)) {
        deps.log?.(`kota: cannot watch ${root}/${w.path} (inotify watch limit); checking with a stat per file`);
        watcher.close();
        watcher = null;
        useWatcher = false;
        return;
      }
      fullCheck = true;
    }
  };

  /** What changed on disk since the last check: the watcher's events when it can vouch, else a stat per file. */
  const check = (repo: RepoRow): Detected => {
    startWatcher(repo);
    if (watcher && !fullCheck) {
      // Only the paths the kernel named are looked up: no map of every indexed file.
      const known = {
        get: (path: string) => store.file(repo.id, path) ?? undefined,
        has: (path: string) => store.file(repo.id, path) !== null,
      };
      const watched = { has: (path: string) => store.watchRow(repo.id, path) !== null };
      const d = detectFromEvents(root, known, watched, watcher.drain(), view());
      if (d.kind !== "full") {
        watchFolders(d);
        return d;
      }
    } else watcher?.drain();
    fullCheck = false;
    const d = detectChanges(store, root, repo, indexedFiles(repo), view());
    watchFolders(d);
    return d;
  };

  const apply = async (repo: RepoRow, changes: Changes, opts?: IndexOptions): Promise<ApplyOutcome> => {
    const paths = [...changes.parse.map((f) => f.path), ...changes.remove.map((f) => f.path)];
    const snap = totalsOf.before(repo, paths);
    const before = graph;
    try {
      const outcome = await applyChanges({ db, store, root, repo, now, parser, configText, resolve, tests }, changes, opts);
      const after = store.repo(root)!;
      totalsOf.after(after, snap, paths);
      // Only some files' imports changed and no one else wrote: patch the graph instead of reading every edge.
      const patchable =
        before?.generation === repo.generation && after.generation === repo.generation + 2 && Array.isArray(outcome.resolved);
      graph = patchable ? patchGraph(db, before!, outcome.resolved as number[], after.generation) : null;
      return outcome;
    } catch (error) {
      // The watcher's events are used up: only a full check finds these changes again.
      fullCheck = true;
      throw error;
    }
  };

  const dropWatcher = () => {
    watcher?.close();
    watcher = null;
    useWatcher = deps.watch !== false;
  };
  let lastCheck = Number.NEGATIVE_INFINITY;
  let chain: Promise<unknown> = Promise.resolve();

  /** One operation at a time per instance: a query never sees an index run half-applied. */
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  };

  const rootProblem = (): Result<Record<never, never>> => {
    try {
      if (statSync(root).isDirectory()) return { ok: true };
    } catch {
      // falls through
    }
    return fail(KOTA_ERRORS.BAD_INPUT, `The repository folder ${root} does not exist or is not a folder; pass the root of a checkout.`);
  };

  const fullIndex = async (opts: IndexOptions = {}): Promise<Result<IndexResult>> => {
    const started = performance.now();
    const problem = rootProblem();
    if (!problem.ok) return problem;
    const repo = store.ensureRepo(root);
    // A first index parses every file: a parser starts while the files are listed, the rest once they are.
    const first = repo.indexed_at === null && store.files(repo.id).length === 0;
    if (first) parser.prestart(1);
    // Made before the database existed: taken by the first run only, when nothing was indexed meanwhile.
    const early = first ? firstIndex : undefined;
    firstIndex = undefined;
    const scan = early?.scan ?? scanRepository(root, view(), () => opts.signal?.aborted === true);
    if (!scan) {
      return fail(
        KOTA_ERRORS.CANCELLED,
        "Indexing was cancelled while listing files; the index is as it was. Run kota index again to finish.",
      );
    }
    const known = new Map(store.files(repo.id).map((f) => [f.path, f]));
    const seen = new Set(scan.sources.map((s) => s.path));
    const oldConfigs = new Map(
      store
        .watch(repo.id)
        .filter((w) => w.is_dir === 0)
        .map((w) => [w.path, w.mtime_ms]),
    );
    // Base configs the resolver read through a package `extends` (`base.json`): no scan lists them, so they stay watched.
    const listed = new Set(scan.configs.map((c) => c.path));
    const carried = [...oldConfigs.keys()].flatMap((path) => {
      if (listed.has(path) || CONFIG_FILE.test(basename(path))) return [];
      try {
        return [{ path, mtimeMs: statSync(join(root, path)).mtimeMs }];
      } catch {
        return [];
      }
    });
    const configs = [...scan.configs, ...carried];
    const configsChanged = oldConfigs.size !== configs.length || configs.some((c) => oldConfigs.get(c.path) !== c.mtimeMs);
    const watch: WatchRow[] = [
      ...scan.dirs.map((d) => ({ path: d.path, is_dir: 1, mtime_ms: d.mtimeMs })),
      ...configs.map((c) => ({ path: c.path, is_dir: 0, mtime_ms: c.mtimeMs })),
    ];
    const changes: Changes = {
      parse: scan.sources.filter((s) => {
        const k = known.get(s.path);
        return opts.full || !k || k.size !== s.size || k.mtime_ms !== s.mtimeMs;
      }),
      remove: [...known.values()].filter((k) => !seen.has(k.path)),
      watch,
      replaceWatch: true,
      removedWatch: [],
      configsChanged,
    };
    const preparsed = early?.parsed;
    return finish(
      repo,
      changes,
      await applyChanges({ db, store, root, repo, now, parser, configText, resolve, tests, preparsed }, changes, opts),
      started,
    );
  };

  const finish = (repo: RepoRow, changes: Changes, outcome: ApplyOutcome, started: number): Result<IndexResult> => {
    if (changes.replaceWatch) graph = null;
    files = null;
    // A full walk can change the folder set: the watches start again, with a full check.
    if (changes.replaceWatch) dropWatcher();
    lastCheck = now();
    if (outcome.cancelled) {
      return fail(
        KOTA_ERRORS.CANCELLED,
        `Indexing was cancelled after ${outcome.changed} of ${changes.parse.length} changed files; those are kept. ` +
          "Run kota index again (or just query) to finish the rest.",
      );
    }
    const after = store.repo(root) ?? repo;
    // A run into an empty repository counted what it wrote: those are the totals, if no one else wrote meanwhile.
    if (outcome.written && after.generation === repo.generation + 2) totalsOf.set(after, outcome.written);
    const totals = totalsOf.get(after);
    const result: IndexResult = {
      repository: root,
      files: totals.files,
      symbols: totals.symbols,
      references: totals.references,
      ms: Math.round(performance.now() - started),
      changed: outcome.changed,
      removed: outcome.removed,
    };
    if (outcome.errors.length > 0) result.errors = outcome.errors;
    return { ok: true, ...result };
  };

  /**
   * After a completed run, the stat-based check finds what changed without walking the tree; a new
   * or changed .gitignore, a cancelled run, or `full` take the full walk.
   */
  const index = async (opts: IndexOptions = {}): Promise<Result<IndexResult>> => {
    const repo = store.repo(root);
    if (opts.full || !repo || repo.indexed_at === null || repo.needs_resolve === 1 || !rootProblem().ok) return fullIndex(opts);
    const started = performance.now();
    const detected = check(repo);
    if (detected.kind === "rescan") return fullIndex(opts);
    const changes: Changes =
      detected.kind === "changes"
        ? detected.changes
        : { parse: [], remove: [], watch: [], replaceWatch: false, removedWatch: [], configsChanged: false };
    if (detected.kind === "none") {
      opts.onProgress?.(0, 0);
      lastCheck = now();
      return finish(repo, changes, { changed: 0, removed: 0, errors: [], cancelled: false }, started);
    }
    return finish(repo, changes, await apply(repo, changes, opts), started);
  };

  const notIndexed = () =>
    fail(
      KOTA_ERRORS.REPO_NOT_INDEXED,
      `The repository ${root} has not been indexed yet. Run kota index first (hono-sized repos take about a second).`,
    );

  /** Brings the index up to date with the disk (cheaply), then hands out the query environment. */
  const fresh = async (): Promise<Result<{ env: QueryEnv }>> => {
    const problem = rootProblem();
    if (!problem.ok) return problem;
    let repo: RepoRow | null = store.repo(root);
    if (!repo || (repo.indexed_at === null && store.files(repo.id).length === 0)) return notIndexed();
    if (repo.indexed_at === null) {
      // The first index run was cancelled part way: finish it rather than answer from half an index.
      const r = await fullIndex();
      if (!r.ok) return r;
      repo = store.repo(root)!;
    } else if (watcher || now() - lastCheck >= freshnessMs) {
      // With the watcher a check costs next to nothing: every query makes one.
      lastCheck = now();
      const detected = check(repo);
      if (detected.kind === "rescan") {
        const r = await fullIndex();
        if (!r.ok) return r;
      } else if (detected.kind === "changes") {
        await apply(repo, detected.changes);
        files = null;
      } else if (repo.needs_resolve === 1) {
        resolveImports(db, root, repo.id, undefined, configText);
        store.markDone(repo.id, now(), true);
      }
      repo = store.repo(root)!;
    }
    if (!graph || graph.generation !== repo.generation) graph = buildGraph(db, repo.id, repo.generation);
    return { ok: true, env: { db, root, repoId: repo.id, graph } };
  };

  const query =
    <O, T>(run: (env: QueryEnv, opts: O) => Result<T>) =>
    (opts: O): Promise<Result<T>> =>
      serial(async () => {
        const f = await fresh();
        return f.ok ? run(f.env, opts) : f;
      });

  return {
    name: "builtin",
    root,
    index: (opts) => serial(() => index(opts)),
    search: query(querySearch),
    deps: query(queryDeps),
    usages: query(queryUsages),
    impact: query(queryImpact),
    taskContext: query(queryTaskContext),
    status: () =>
      serial(async (): Promise<Result<StatusResult>> => {
        const base = notIndexedStatus("builtin", root);
        const repo = existsSync(root) ? store.repo(root) : null;
        if (!repo) return { ok: true, ...base };
        const totals = totalsOf.get(repo);
        const detected = detectChanges(store, root, repo, indexedFiles(repo), view());
        return {
          ok: true,
          ...base,
          indexed: repo.indexed_at !== null,
          files: totals.files,
          symbols: totals.symbols,
          references: totals.references,
          errors: totals.errors,
          indexedAt: repo.indexed_at === null ? null : new Date(repo.indexed_at).toISOString(),
          stale: detected.kind === "changes" ? detected.count : detected.kind === "rescan" ? 1 : 0,
        };
      }),
    close: async () => {
      await chain;
      graph = null;
      dropWatcher();
      await ownParser?.close();
    },
  };
}
