/**
 * Speed of the built-in index on hono and vite: cold index, the first query after it, re-index
 * after one changed file (explicitly and as a query notices it), deps depth 1/2/3 on a hub file,
 * usages, search (p50/p95 over repeated runs), peak RSS and database size. Each corpus runs in its
 * own child process, so its peak RSS is its own.
 * The cold index is the median of `--cold-runs` (default 3) cold indexes, as for KotaDB beside it.
 * Run: bun bench/kota/speed.ts [--corpus hono|vite] [--runs N] [--cold-runs N]
 */

import schemaSql from "../../src/db/migrations/004-code-index.sql" with { type: "text" };
import { openDatabase } from "../../src/db/open.ts";
import type { Result } from "../../src/errors.ts";
import { createBuiltinIndex } from "../../src/kota/builtin/backend.ts";
import { idleCheckpoints } from "../../src/kota/checkpoint.ts";
import { peakRssMb } from "../peak-rss.ts";
import { median, percentile } from "../stats-math.ts";
import { checkpointedSize, createScratch } from "../temp.ts";
import { unpackCorpus } from "./corpora.ts";
import { type CorpusName, changeFile, PLAN, type Timing } from "./plan.ts";

export function timing(xs: number[]): Timing {
  const r = (x: number) => Math.round(x * 100) / 100;
  return { p50: r(median(xs)), p95: r(percentile(xs, 95)), runs: xs.length };
}

/** Times one call; `after` runs once it is timed (the service's checkpoint scheduling). */
export async function timedCall<T>(fn: () => Promise<Result<T>>, after?: () => void): Promise<number> {
  const t = performance.now();
  const r = await fn();
  const ms = performance.now() - t;
  after?.();
  if (!r.ok) throw new Error(r.message);
  return ms;
}

export type BuiltinSpeed = {
  backend: "builtin";
  corpus: CorpusName;
  files: number;
  symbols: number;
  references: number;
  coldIndexMs: number;
  /** The first query after the index: starts the folder watcher and checks every file once (a stat each). */
  firstQueryMs: number;
  /** An explicit index run after one file changed (the change found, one parse, resolve, totals). */
  reindexOneFileMs: Timing;
  /** The same change noticed by a query before it answers (plus the graph rebuilt). */
  queryAfterOneFileChangedMs: Timing;
  noChangeIndexMs: Timing;
  /** Every query checks the disk first (freshnessMs 0): the worst case. */
  deps: { depth1: Timing; depth2: Timing; depth3: Timing };
  usages: Timing;
  search: Timing;
  /** The same with the folder watcher off: a stat per indexed file before every query. */
  withoutWatcher: { depsDepth3: Timing; usages: Timing; queryAfterOneFileChangedMs: Timing };
  peakRssMb: number;
  dbBytes: number;
};

/** One cold index on a fresh database (the `--cold-only` child: a fresh process each time, as KotaDB gets). */
async function coldIndexOnly(name: CorpusName, root: string): Promise<number> {
  const scratch = createScratch();
  const db = openDatabase(scratch.path(`kota-${name}-cold`), { migrations: [schemaSql] });
  const kota = createBuiltinIndex({ db, root, freshnessMs: 0, watch: false });
  try {
    return await timedCall(() => kota.index());
  } finally {
    await kota.close();
    db.close();
    scratch.remove();
  }
}

/** Measures one corpus in this process (the child side). */
export async function measureBuiltin(name: CorpusName, root: string, runs = 30): Promise<BuiltinSpeed> {
  const plan = PLAN[name];
  const scratch = createScratch();
  const dbPath = scratch.path(`kota-${name}`);
  const db = openDatabase(dbPath, { migrations: [schemaSql] });
  // The connection as the service sets it up: checkpoints when writing pauses.
  const checkpoints = idleCheckpoints(db, dbPath);
  const timed = <T>(fn: () => Promise<Result<T>>) => timedCall(fn, checkpoints.touch);
  try {
    const kota = createBuiltinIndex({ db, root, freshnessMs: 0 });
    let t = performance.now();
    const cold = await kota.index();
    const coldIndexMs = performance.now() - t;
    if (!cold.ok) throw new Error(cold.message);
    t = performance.now();
    await timed(() => kota.deps({ file: plan.hub }));
    const firstQueryMs = performance.now() - t;

    const reindex: number[] = [];
    const viaQuery: number[] = [];
    const noChange: number[] = [];
    let edit = 0;
    for (let i = 0; i < plan.changed.length * 4; i++) {
      await changeFile(root, plan.changed[i % plan.changed.length]!, edit++);
      if (i % 2 === 0) reindex.push(await timed(() => kota.index()));
      else viaQuery.push(await timed(() => kota.deps({ file: plan.hub })));
      noChange.push(await timed(() => kota.index()));
    }

    const deps = { depth1: [] as number[], depth2: [] as number[], depth3: [] as number[] };
    const usages: number[] = [];
    const search: number[] = [];
    for (let i = 0; i < runs; i++) {
      deps.depth1.push(await timed(() => kota.deps({ file: plan.hub, depth: 1, direction: "both" })));
      deps.depth2.push(await timed(() => kota.deps({ file: plan.hub, depth: 2, direction: "both" })));
      deps.depth3.push(await timed(() => kota.deps({ file: plan.hub, depth: 3, direction: "both" })));
      const [symbol, file] = plan.symbols[i % plan.symbols.length]!;
      usages.push(await timed(() => kota.usages({ symbol, file })));
      search.push(await timed(() => kota.search({ query: plan.queries[i % plan.queries.length]!, output: "compact", limit: 20 })));
    }
    await kota.close();

    const unwatched = createBuiltinIndex({ db, root, freshnessMs: 0, watch: false });
    const depsStat: number[] = [];
    const usagesStat: number[] = [];
    const changedStat: number[] = [];
    for (let i = 0; i < runs; i++) {
      depsStat.push(await timed(() => unwatched.deps({ file: plan.hub, depth: 3, direction: "both" })));
      const [symbol, file] = plan.symbols[i % plan.symbols.length]!;
      usagesStat.push(await timed(() => unwatched.usages({ symbol, file })));
    }
    for (let i = 0; i < plan.changed.length * 2; i++) {
      await changeFile(root, plan.changed[i % plan.changed.length]!, edit++);
      changedStat.push(await timed(() => unwatched.deps({ file: plan.hub })));
    }
    const status = await unwatched.status();
    if (!status.ok) throw new Error(status.message);
    await unwatched.close();
    return {
      backend: "builtin",
      corpus: name,
      files: status.files,
      symbols: status.symbols,
      references: status.references,
      coldIndexMs: Math.round(coldIndexMs),
      firstQueryMs: Math.round(firstQueryMs),
      reindexOneFileMs: timing(reindex),
      queryAfterOneFileChangedMs: timing(viaQuery),
      noChangeIndexMs: timing(noChange),
      deps: { depth1: timing(deps.depth1), depth2: timing(deps.depth2), depth3: timing(deps.depth3) },
      usages: timing(usages),
      search: timing(search),
      withoutWatcher: { depsDepth3: timing(depsStat), usages: timing(usagesStat), queryAfterOneFileChangedMs: timing(changedStat) },
      peakRssMb: peakRssMb(),
      dbBytes: checkpointedSize(db, dbPath),
    };
  } finally {
    checkpoints.close();
    db.close();
    scratch.remove();
  }
}

/**
 * Runs one corpus in a child process (fresh heap, its own peak RSS) on a fresh copy of the corpus.
 * The cold index is the median of `coldRuns`: the measuring child's own and `coldRuns - 1` more,
 * each in a fresh process on a fresh database, as the KotaDB side is measured.
 */
export function runBuiltinSpeed(name: CorpusName, runs = 30, coldRuns = 3): BuiltinSpeed {
  const corpus = unpackCorpus(name);
  const child = (args: string[]): string => {
    const r = Bun.spawnSync([process.execPath, import.meta.path, ...args], { stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`builtin ${name}: ${r.stderr.toString()}`);
    return r.stdout.toString();
  };
  try {
    const extra: number[] = [];
    for (let i = 1; i < coldRuns; i++) extra.push(Number(child(["--cold-only", name, corpus.root])));
    const speed = JSON.parse(child(["--child", name, corpus.root, "--runs", String(runs)])) as BuiltinSpeed;
    return { ...speed, coldIndexMs: Math.round(median([...extra, speed.coldIndexMs])) };
  } finally {
    corpus.remove();
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

if (import.meta.main) {
  const runs = Number(arg("runs") ?? 30);
  const coldRuns = Number(arg("cold-runs") ?? 3);
  const child = arg("child");
  const coldOnly = arg("cold-only");
  if (coldOnly) {
    const i = process.argv.indexOf("--cold-only");
    console.log(Math.round(await coldIndexOnly(coldOnly as CorpusName, process.argv[i + 2]!)));
  } else if (child) {
    const i = process.argv.indexOf("--child");
    console.log(JSON.stringify(await measureBuiltin(child as CorpusName, process.argv[i + 2]!, runs)));
  } else {
    const only = arg("corpus") as CorpusName | undefined;
    const out = (only ? [only] : (["hono", "vite"] as const)).map((c) => runBuiltinSpeed(c, runs, coldRuns));
    console.log(JSON.stringify(out, null, 2));
  }
}
