/**
 * The same measurements as speed.ts, for the real KotaDB behind the kotadb backend: start, cold
 * index, the first query, a change (index_repository again, and its own watcher making the change
 * visible to search), deps depth 1/2/3 on a hub file (2 and 3 once each, under a time limit: KotaDB
 * enumerates every path and can take minutes), usages, search, its peak RSS and database size.
 * Each part can be bounded or left out (`reindexRuns: 0`, `deep: false`) to fit a time budget.
 * Run: bun bench/kota/kotadb-speed.ts [--corpus hono|vite] [--runs N] [--cold-runs N] [--deep-timeout-ms N]
 */
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Result } from "../../src/errors.ts";
import type { CodeIndexBackend } from "../../src/kota/contract.ts";
import { median } from "../stats-math.ts";
import { unpackCorpus } from "./corpora.ts";
import { openKotaDb } from "./kotadb-run.ts";
import { type CorpusName, changeFile, PLAN, type Timing } from "./plan.ts";
import { timedCall as timed, timing } from "./speed.ts";

export type Limited = Timing | { timedOutAfterMs: number } | { skipped: string };

export type KotaDbSpeedOptions = {
  /** Repeats of depth-1 deps, usages and search (default 10). */
  runs?: number;
  /** Re-index runs after one changed file (default 2; each is a full pass for KotaDB). */
  reindexRuns?: number;
  /** Measure depth 2 and 3 (default true), each once, stopped after its limit. */
  deep?: boolean;
  deepTimeoutMs?: number;
  depth3TimeoutMs?: number;
  /** Wait for KotaDB's watcher to show a change (default true). */
  watcher?: boolean;
  /** Per request (an index run gets 10x; past it KotaDB is restarted and the request answered as unavailable). Default 600 s. */
  timeoutMs?: number;
  /** Cold indexes timed, each by a fresh KotaDB on a fresh data folder; the figure is their median (default 1). */
  coldRuns?: number;
  /** Runs after the cold index and the first query, before any file is changed (the correctness questions; not timed here). */
  afterIndex?: (backend: CodeIndexBackend) => Promise<void>;
};

export type KotaDbSpeed = {
  backend: "kotadb";
  corpus: CorpusName;
  files: number;
  symbols: number;
  references: number;
  /** Spawn, MCP handshake and the first answer. */
  startMs: number;
  coldIndexMs: number;
  firstQueryMs: number;
  /** index_repository again after one file changed (KotaDB re-reads the whole repository). */
  reindexOneFileMs: Limited;
  /** A change made visible by KotaDB's own file watcher: the time until search finds a new token. */
  changeVisibleMs: Limited;
  deps: { depth1: Timing; depth2: Limited; depth3: Limited };
  usages: Timing;
  search: Timing;
  peakRssMb: number;
  dbBytes: number;
};

async function once<T>(fn: () => Promise<Result<T>>, limitMs: number): Promise<Limited> {
  const t = performance.now();
  const r = await fn();
  const ms = performance.now() - t;
  if (r.ok) return timing([ms]);
  if (/did not answer/.test(r.message)) return { timedOutAfterMs: limitMs };
  throw new Error(r.message);
}

const budget = (why: string): Limited => ({ skipped: why });

/** Cold indexes by throwaway KotaDB processes on fresh data folders (more samples for the cold figure). */
async function throwawayColdIndexes(root: string, count: number, timeoutMs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const data = mkdtempSync(join(tmpdir(), "kota-kdb-cold-"));
    const run = openKotaDb(root, data, timeoutMs);
    if ("skip" in run) throw new Error(run.skip);
    try {
      await timed(() => run.backend.status());
      out.push(await timed(() => run.backend.index()));
    } finally {
      await run.close();
      rmSync(data, { recursive: true, force: true });
    }
  }
  return out;
}

export async function measureKotaDb(name: CorpusName, root: string, opts: KotaDbSpeedOptions = {}): Promise<KotaDbSpeed> {
  const runs = opts.runs ?? 10;
  const extraCold = await throwawayColdIndexes(root, (opts.coldRuns ?? 1) - 1, opts.timeoutMs ?? 600_000);
  const deep = opts.deepTimeoutMs ?? 120_000;
  const plan = PLAN[name];
  const data = mkdtempSync(join(tmpdir(), "kota-kdb-bench-"));
  const run = openKotaDb(root, data, opts.timeoutMs ?? 600_000);
  if ("skip" in run) throw new Error(run.skip);
  const kota = run.backend;
  try {
    let t = performance.now();
    await timed(() => kota.status());
    const startMs = performance.now() - t;
    t = performance.now();
    await timed(() => kota.index());
    const coldIndexMs = median([...extraCold, performance.now() - t]);
    t = performance.now();
    await timed(() => kota.deps({ file: plan.hub }));
    const firstQueryMs = performance.now() - t;
    await opts.afterIndex?.(kota);
    run.peakRssMb();

    const reindex: number[] = [];
    for (let i = 0; i < (opts.reindexRuns ?? 2); i++) {
      await changeFile(root, plan.changed[i]!, i);
      reindex.push(await timed(() => kota.index()));
      run.peakRssMb();
    }
    // KotaDB's watcher: a new token in a file, searched for until it shows up (30 s at most).
    const marker = `kotaBenchMarker${Date.now() % 100000}`;
    if (opts.watcher !== false) appendFileSync(join(root, plan.changed[2]!), `\nexport const ${marker} = 1;\n`);
    t = performance.now();
    let changeVisibleMs: Limited = opts.watcher === false ? budget("not measured (time budget)") : { timedOutAfterMs: 30_000 };
    while (opts.watcher !== false && performance.now() - t < 30_000) {
      const r = await kota.search({ query: marker, output: "paths", scope: ["code"] });
      if (r.ok && r.paths.some((p) => p.path === plan.changed[2])) {
        changeVisibleMs = timing([performance.now() - t]);
        break;
      }
      await Bun.sleep(100);
    }

    const depth1: number[] = [];
    const usages: number[] = [];
    const search: number[] = [];
    for (let i = 0; i < runs; i++) {
      depth1.push(await timed(() => kota.deps({ file: plan.hub, depth: 1, direction: "both" })));
      const [symbol, file] = plan.symbols[i % plan.symbols.length]!;
      usages.push(await timed(() => kota.usages({ symbol, file })));
      search.push(await timed(() => kota.search({ query: plan.queries[i % plan.queries.length]!, output: "compact", limit: 20 })));
    }
    run.peakRssMb();
    const status = await kota.status();
    if (!status.ok) throw new Error(status.message);
    const dbBytes = run.dbBytes();
    // The deep walks last: past the limit KotaDB is restarted, which the numbers above must not include.
    const repository = `local/${root.split("/").at(-1)}`;
    const skipDeep = opts.deep === false;
    const depth2 = skipDeep
      ? budget("not measured (time budget)")
      : await once(
          () =>
            run.server.call("search_dependencies", { file_path: plan.hub, depth: 2, direction: "both", repository }, { timeoutMs: deep }),
          deep,
        );
    run.peakRssMb();
    const deep3 = opts.depth3TimeoutMs ?? deep;
    const depth3 = skipDeep
      ? budget("not measured (time budget)")
      : await once(
          () =>
            run.server.call("search_dependencies", { file_path: plan.hub, depth: 3, direction: "both", repository }, { timeoutMs: deep3 }),
          deep3,
        );
    return {
      backend: "kotadb",
      corpus: name,
      files: status.files,
      symbols: status.symbols,
      references: status.references,
      startMs: Math.round(startMs),
      coldIndexMs: Math.round(coldIndexMs),
      firstQueryMs: Math.round(firstQueryMs),
      reindexOneFileMs: reindex.length > 0 ? timing(reindex) : budget("not measured (time budget)"),
      changeVisibleMs,
      deps: { depth1: timing(depth1), depth2, depth3 },
      usages: timing(usages),
      search: timing(search),
      peakRssMb: run.peakRssMb(),
      dbBytes,
    };
  } finally {
    await run.close();
    rmSync(data, { recursive: true, force: true });
  }
}

/** One corpus on a fresh copy (the benchmark edits files). */
export async function runKotaDbSpeed(name: CorpusName, opts: KotaDbSpeedOptions = {}): Promise<KotaDbSpeed> {
  const corpus = unpackCorpus(name);
  try {
    return await measureKotaDb(name, corpus.root, opts);
  } finally {
    corpus.remove();
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

if (import.meta.main) {
  const only = arg("corpus") as CorpusName | undefined;
  const opts = {
    runs: Number(arg("runs") ?? 10),
    coldRuns: Number(arg("cold-runs") ?? 3),
    deepTimeoutMs: Number(arg("deep-timeout-ms") ?? 120_000),
  };
  const out = [];
  for (const c of only ? [only] : (["hono", "vite"] as const)) out.push(await runKotaDbSpeed(c, opts));
  console.log(JSON.stringify(out, null, 2));
}
