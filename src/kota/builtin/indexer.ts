/**
 * Applies a set of file changes to the index: parse and store changed files in batches (one
 * transaction each, so memory stays bounded and a cancel keeps every finished batch), drop
 * removed files, then resolve imports (all of them when the file set or a config changed).
 */
import { readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { type Db, immediate } from "../../db/open.ts";
import { errorMessage } from "../../errors.ts";
import { sha256 } from "../../hash.ts";
import { checkpointNow } from "../checkpoint.ts";
import type { IndexFileError } from "../contract.ts";
import { putIndexesBack, restoreIndexes, setIndexesAside } from "./bulk-indexes.ts";
import { CONFIG_FILE, type ScannedFile } from "./files/scan.ts";
import type { StoredFacts } from "./parse/facts.ts";
import type { ParseJob, ParseOutcome, ParsePool } from "./parse/parse-pool.ts";
import { earlyTargets } from "./resolve/early-targets.ts";
import {
  type ConfigTextCache,
  type ResolveCache,
  resolveContext,
  resolveImports,
  type WarmResolver,
  warmResolver,
} from "./resolve/resolve-imports.ts";
import type { CodeStore, FileRow, FileWrite, RepoRow, WatchRow } from "./store.ts";
import { applyTestRule, type TestRule, testRule } from "./test-rule.ts";
import type { Totals } from "./totals.ts";

const BATCH = 100;
/**
 * Batches sent to the parsers ahead of the one being written. This process redacts each answer as
 * it comes and writes a batch once all of its answers are in, so on two busy cores it can fall
 * behind the parser by the batches sent ahead: with two, the parser ran out of work on vite's
 * packages (1,545 files, small ones) 3-15 ms at a time; with three, 0-2 ms (traced per request).
 */
export const AHEAD_BATCHES = 3;
/**
 * A first index puts the secondary indexes back, and folds the WAL into the database, in the
 * transaction of the batch written while this many batches are left to write (parsed meanwhile).
 */
export const INDEXES_BACK_AT = 2;
/**
 * The last batch is written after the parsers' last answer, when nothing else runs: it is kept to
 * this many files (the rest of a short last batch goes in the one before, written while they parse).
 */
const LAST_BATCH = 25;

/** Each batch's [from, to) in the list of files to parse: BATCH files, the last at most LAST_BATCH. */
export function batchBounds(total: number): [number, number][] {
  const out: [number, number][] = [];
  for (let from = 0; from < total; from += BATCH) out.push([from, Math.min(from + BATCH, total)]);
  const last = out.at(-1);
  if (last && last[1] - last[0] > LAST_BATCH) {
    const cut = last[1] - LAST_BATCH;
    out.splice(-1, 1, [last[0], cut], [cut, last[1]]);
  }
  return out;
}

export type Changes = {
  /** New files and files whose size or mtime changed (their hash decides whether they are re-parsed). */
  parse: ScannedFile[];
  remove: FileRow[];
  watch: WatchRow[];
  /** Replace all watch rows (a full scan) rather than update some. */
  replaceWatch: boolean;
  removedWatch: string[];
  configsChanged: boolean;
};

export type ApplyOptions = { signal?: AbortSignal; onProgress?(done: number, total: number): void; full?: boolean };

export type ApplyOutcome = {
  changed: number;
  removed: number;
  errors: IndexFileError[];
  cancelled: boolean;
  /** Files whose imports were resolved again, or "all" (the file set or a config changed). */
  resolved?: number[] | "all";
  /**
   * A completed run into a repository that had no files: the totals of what it wrote (then the
   * repository's totals), counted as written instead of over every row afterwards.
   */
  written?: Totals;
};

type Ctx = {
  db: Db;
  store: CodeStore;
  root: string;
  repo: RepoRow;
  now: () => number;
  /** Where files are parsed: processes of their own (a crash costs one file, not this process). */
  parser: ParsePool;
  configText?: ConfigTextCache;
  /** The resolve context of the last run, reused while only file contents change (see ResolveCache). */
  resolve?: { cache: ResolveCache };
  /** The repository's test rule, kept between runs while its config files stay the same. */
  tests?: { rule: TestRule | null };
  /** Files sent to the parsers before this run (first-index.ts): their outcomes, by path, taken instead of parsing them again. */
  preparsed?: Map<string, Promise<ParseOutcome>>;
};

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function applyChanges(ctx: Ctx, changes: Changes, opts: ApplyOptions = {}): Promise<ApplyOutcome> {
  const { db, store, root, repo } = ctx;
  // Many files: one map of all rows; a few (the usual re-index): a lookup each.
  const allRows = changes.parse.length > 100 ? new Map(store.files(repo.id).map((f) => [f.path, f])) : null;
  const known = { get: (path: string) => (allRows ? allRows.get(path) : (store.file(repo.id, path) ?? undefined)) };
  // A repository with no files stored yet (a first index): every file this run stores is marked by its rule.
  const emptyBefore = allRows ? allRows.size === 0 : !store.hasFiles(repo.id);
  const needsResolveBefore = repo.needs_resolve === 1;
  // A first index into a database that holds no code index yet writes its rows with the secondary
  // indexes set aside (bulk-indexes.ts): a new database, or one the engine made for its other stores
  // (no repository's files in it: no other index's queries to slow down meanwhile).
  let bulk = false;
  immediate(db, () => {
    store.markWriting(repo.id);
    bulk = emptyBefore && allRows !== null && (ctx.preparsed !== undefined || !store.anyFiles());
    if (bulk) setIndexesAside(db);
  });
  try {
    const errors: IndexFileError[] = [];
    let changed = 0;
    let cancelled = false;
    let fileSetChanged = changes.remove.length > 0;
    const changedIds: number[] = [];

    for (let i = 0; i < changes.remove.length; i += 500) {
      immediate(db, () => store.deleteFiles(changes.remove.slice(i, i + 500).map((f) => f.id)));
    }

    // The config files after this run: those watched now, changed by this run's list.
    const configs = new Map<string, number>();
    if (!changes.replaceWatch) for (const w of store.watch(repo.id)) if (w.is_dir === 0) configs.set(w.path, w.mtime_ms);
    for (const p of changes.removedWatch) configs.delete(p);
    for (const w of changes.watch) if (w.is_dir === 0) configs.set(w.path, w.mtime_ms);
    const tests = testRule(root, configs, ctx.tests?.rule ?? null);
    const testRuleChanged = tests !== ctx.tests?.rule;
    if (ctx.tests) ctx.tests.rule = tests;
    const total = changes.parse.length;
    opts.onProgress?.(0, total);
    type Work =
      | { kind: "touch"; id: number; file: ScannedFile }
      | { kind: "write"; file: ScannedFile; hash: string; facts: StoredFacts; body: string; retry: boolean };
    /** Reads and hashes one batch, and sends its changed files to the parsers. */
    const prepare = async ([from, to]: [number, number]): Promise<Work[]> => {
      const work: (Work | { kind: "parse"; file: ScannedFile; job: number | Promise<ParseOutcome> })[] = [];
      const jobs: ParseJob[] = [];
      for (const file of changes.parse.slice(from, to)) {
        const old = known.get(file.path);
        // A known file whose content is unchanged (only touched) is not parsed again: that takes its hash here.
        if (old && !opts.full) {
          let bytes: Buffer;
          try {
            bytes = readFileSync(join(root, file.path));
          } catch (error) {
            errors.push({ file: file.path, message: `could not read: ${errorMessage(error)}` });
            continue;
          }
          if (old.hash === sha256(bytes)) {
            work.push({ kind: "touch", id: old.id, file });
            continue;
          }
        }
        if (!old) fileSetChanged = true;
        const early = ctx.preparsed?.get(file.path);
        if (early) {
          ctx.preparsed!.delete(file.path);
          work.push({ kind: "parse", file, job: early });
          continue;
        }
        work.push({ kind: "parse", file, job: jobs.length });
        jobs.push({ path: file.path, file: join(root, file.path), size: file.size });
      }
      const parsed = await ctx.parser.parse(jobs);
      const out: Work[] = [];
      for (const w of work) {
        if (w.kind !== "parse") out.push(w);
        else {
          const p = typeof w.job === "number" ? parsed[w.job]! : await w.job;
          // The parser read and hashed the file; one it could not read is dropped like a vanished file.
          if (p.hash === null) errors.push({ file: w.file.path, message: p.facts.error?.message ?? "could not read" });
          else out.push({ kind: "write", file: w.file, hash: p.hash, facts: p.facts, body: p.body, retry: p.retry === true });
        }
      }
      return out;
    };
    // A full run over many files: the resolver is built from the listing, and warmed up on the stored
    // files' imports while the parsers work (reading and parsing the configs), instead of after them.
    const configText = ctx.configText ?? new Map();
    let warm: WarmResolver | undefined;
    if (changes.replaceWatch && allRows) {
      const paths = new Set(allRows.keys());
      for (const f of changes.remove) paths.delete(f.path);
      for (const f of changes.parse) paths.add(f.path);
      warm = warmResolver(
        root,
        paths,
        changes.watch.filter((w) => w.is_dir === 0),
        configText,
      );
    }
    // A first index writes the warm resolver's answers while the parsers work (early-targets.ts).
    const early = warm && emptyBefore ? earlyTargets(db, warm) : null;
    // The parsers work on the next batches while this process writes the current one.
    const ahead: Promise<Work[]>[] = [];
    const bounds = batchBounds(total);
    let queued = 0;
    const fill = () => {
      while (ahead.length < AHEAD_BATCHES && queued < bounds.length) {
        const p = prepare(bounds[queued]!);
        p.catch(() => undefined); // awaited in turn (or dropped when cancelled)
        ahead.push(p);
        queued++;
      }
    };
    fill();
    let aside = bulk;
    const written: Totals = { files: 0, symbols: 0, references: 0, errors: 0 };
    for (const [j, [, to]] of bounds.entries()) {
      const work = await ahead.shift()!;
      if (opts.signal?.aborted) {
        cancelled = true;
        break;
      }
      fill();
      /** Each written file's import ids (for the early answers). */
      const importIds: number[][] = [];
      immediate(db, () => {
        const writes: FileWrite[] = [];
        for (const w of work) {
          if (w.kind === "touch") store.touchFile(w.id, w.file.mtimeMs, w.file.size);
          else {
            const f = w.file;
            const e = w.facts.error;
            if (e) errors.push({ file: f.path, line: e.line, message: e.message });
            // A file left unparsed for now keeps no mtime: the next check sends it to the parser again.
            const mtimeMs = w.retry ? -1 : f.mtimeMs;
            const hash = w.retry ? "" : w.hash;
            writes.push({ file: { ...f, mtimeMs, hash, isTest: tests.match(f.path) }, facts: w.facts, body: w.body });
            written.symbols += w.facts.symbols.length;
            for (const r of w.facts.refs) if (r[3] === 0) written.references += r[4];
            if (e) written.errors++;
          }
        }
        // Before the batch's rows: its search words stay the last writes of the transaction (store.ts).
        early?.write();
        const ids = store.writeFiles(repo.id, writes, early ? importIds : undefined);
        changedIds.push(...ids);
        early?.stored(
          writes.map((w) => w.file.path),
          ids,
        );
        changed += writes.length;
        written.files += writes.length;
        // Built while the parsers still work on the last batches (sent ahead), not after them:
        // the rows of those few batches then go in with the indexes there.
        if (aside && bounds.length - (j + 1) <= INDEXES_BACK_AT) {
          putIndexesBack(db);
          aside = false;
        }
      });
      if (warm) {
        let i = 0;
        for (const w of work) {
          if (w.kind !== "write") continue;
          const ids = importIds[i++];
          w.facts.imports.forEach((imp, k) => {
            warm.warmUp(w.file.path, imp.specifier, imp.kind);
            if (early && ids) early.answered(ids[k]!, w.file.path, imp.specifier, imp.kind);
          });
        }
      }
      // The WAL so far (on a first index, with the secondary indexes just built) goes into the
      // database while the parsers work on the last batches, instead of all of it at the end: the
      // closing checkpoint then copies those batches' pages only.
      if (bounds.length - (j + 1) === INDEXES_BACK_AT) checkpointNow(db);
      opts.onProgress?.(to, total);
      await yieldToLoop();
    }

    if (cancelled) {
      // Folder mtimes are not recorded, so the next check still sees the files not reached yet;
      // imports of the stored files stay unresolved until needs_resolve makes the next run finish them.
      return { changed, removed: changes.remove.length, errors, cancelled };
    }
    immediate(db, () => {
      store.setWatch(repo.id, changes.watch, changes.replaceWatch, changes.removedWatch);
      // A test pattern may have changed: files parsed before keep the mark of the old rule otherwise
      // (none on a first index: each file was marked by this run's rule as it was written).
      if (testRuleChanged && (changes.configsChanged || needsResolveBefore) && !emptyBefore) applyTestRule(db, repo.id, tests);
    });
    const all = fileSetChanged || changes.configsChanged || needsResolveBefore;
    // The cached context holds when this run started where our last one ended (no one else wrote).
    const cached = !all && ctx.resolve?.cache?.generation === repo.generation ? ctx.resolve.cache.context : undefined;
    let context: ReturnType<typeof resolveImports> | null = null;
    if (all) {
      const fresh = resolveContext(db, root, repo.id, configText, warm);
      // Taken, the warm resolver's answers are this run's: those written early (early-targets.ts) stand.
      const answers = warm?.taken ? warm.answers : undefined;
      context = resolveImports(db, root, repo.id, undefined, configText, fresh, answers, answers && early ? early.unwritten() : undefined);
    } else if (changedIds.length > 0) context = resolveImports(db, root, repo.id, changedIds, configText, cached);
    else context = cached ?? null;
    // A base config read through a package `extends` under a name the scan does not list (`base.json`):
    // watched from now on like the config files, so an edit to it resolves the imports again.
    const extraWatch: WatchRow[] = [];
    const extras = new Set((context?.resolver.baseConfigs() ?? []).filter((p) => !CONFIG_FILE.test(basename(p))));
    // After resolving every import, the base configs no config names any more are watched no more.
    const unwatch = all && context ? [...configs.keys()].filter((p) => !extras.has(p) && !CONFIG_FILE.test(basename(p))) : [];
    for (const p of extras) {
      if (configs.has(p)) continue;
      try {
        extraWatch.push({ path: p, is_dir: 0, mtime_ms: statSync(join(root, p)).mtimeMs });
      } catch {
        // vanished since it was read: the next full scan starts over
      }
    }
    immediate(db, () => {
      if (extraWatch.length > 0 || unwatch.length > 0) store.setWatch(repo.id, extraWatch, false, unwatch);
      // After resolving: its updates of code_imports then maintain no index either.
      if (bulk) putIndexesBack(db);
      store.markDone(repo.id, ctx.now(), true);
    });
    // markWriting and markDone: our run moved the generation by exactly two.
    if (ctx.resolve) ctx.resolve.cache = context ? { generation: repo.generation + 2, context } : null;
    return {
      changed,
      removed: changes.remove.length,
      errors,
      cancelled,
      resolved: all ? "all" : changedIds,
      ...(emptyBefore && changes.remove.length === 0 ? { written } : {}),
    };
  } finally {
    // Put back already, unless the run stopped on the way (cancelled, or a fault).
    if (bulk) restoreIndexes(db);
  }
}
