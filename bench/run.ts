/**
 * `npm run bench`: runs every benchmark side by side in one process and writes BENCHMARKS.md.
 *
 *   bun bench/run.ts                      the reference run (writes BENCHMARKS.md)
 *   bun bench/run.ts --quick              small store, few runs (writes .bench/BENCHMARKS.quick.md)
 *   bun bench/run.ts --search-budget 0    run the whole query mix, however long it takes
 *
 * All databases live in one temporary directory, removed at the end even on failure.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchAgent } from "./agent.ts";
import { benchCapture, benchColdCapture, type CaptureCase, type CaptureRow, createCaptureContext } from "./capture.ts";
import { describeMachine, loadAverage } from "./machine.ts";
import { benchMcp } from "./mcp.ts";
import { queryMix, WARM_UP } from "./queries.ts";
import { benchReadcache } from "./readcache.ts";
import { renderReport } from "./report.ts";
import { benchRpc } from "./rpc.ts";
import { benchSearch } from "./search.ts";
import { summarizeSearch } from "./search-summary.ts";
import { buildStore } from "./store-build.ts";
import { createScratch, removeDatabase } from "./temp.ts";
import { log } from "./timing.ts";

const MIB = 1024 * 1024;
const SEED = 20240314;
const ROOT = join(import.meta.dir, "..");

type Options = { quick: boolean; searchBudgetMs: number };

function parseArgs(argv: readonly string[]): Options {
  const quick = argv.includes("--quick");
  const at = argv.indexOf("--search-budget");
  const raw = at === -1 ? undefined : argv[at + 1];
  const seconds = raw === undefined ? (quick ? 30 : 150) : Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new Error(`--search-budget wants seconds (0 = no budget), got ${JSON.stringify(raw)}`);
  return { quick, searchBudgetMs: seconds * 1000 };
}

function captureCases(quick: boolean): CaptureCase[] {
  const cases: CaptureCase[] = [];
  for (const [sizeLabel, bytes, runs] of [
    ["1 MiB", MIB, quick ? 3 : 7],
    ["10 MiB", 10 * MIB, quick ? 1 : 3],
  ] as const) {
    for (const kind of ["build", "request"] as const) cases.push({ kind, sizeLabel, bytes, runs, seed: SEED + cases.length * 100 });
  }
  return cases;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const machine = describeMachine();
  log(`machine: ${machine.cpu}, ${machine.cores} cores, Bun ${machine.bun}, SQLite ${machine.sqlite}`);
  const scratch = createScratch();
  try {
    const ctx = await createCaptureContext(scratch);
    const capture: CaptureRow[] = [];
    try {
      for (const c of captureCases(options.quick)) capture.push(await benchCapture(ctx, c));
    } finally {
      ctx.close();
    }
    const cold = await benchColdCapture(scratch, {
      kind: "build",
      sizeLabel: "1 MiB",
      bytes: MIB,
      runs: options.quick ? 3 : 5,
      seed: SEED + 900,
    });

    const store = await buildStore(scratch, (options.quick ? 40 : 200) * 1e6, SEED);
    log(
      `search store: ${(store.inputBytes / 1e6).toFixed(0)} MB in ${(store.captureMs / 1000).toFixed(0)} s, database ${(store.dbBytes / 1e6).toFixed(0)} MB`,
    );
    const queries = queryMix(store.needles, store.sources, SEED);
    const run = await benchSearch(store.path, queries, options.searchBudgetMs);
    removeDatabase(store.path);
    const agentRuns = options.quick ? 1 : 3;
    const agent = await benchAgent(agentRuns, SEED);
    const rpc = await benchRpc(scratch, options.quick ? 200 : 2000, options.quick ? 5 : 20);
    const readcache = await benchReadcache(scratch);
    const mcp = await benchMcp(scratch.dir, options.quick ? 100 : 300);

    const { path: _path, ...storeFacts } = store;
    const markdown = renderReport({
      date: `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      quick: options.quick,
      totalMs: performance.now() - started,
      machine,
      capture,
      cold,
      store: storeFacts,
      search: summarizeSearch(run.results),
      searchRun: { ran: run.results.length, planned: run.planned, budgetMs: run.budgetMs, elapsedMs: run.elapsedMs },
      examples: queries,
      warmUp: WARM_UP.length,
      loadAtEnd: loadAverage(),
      agent,
      agentRuns,
      rpc,
      readcache,
      mcp,
    });
    const out = options.quick ? join(ROOT, ".bench", "BENCHMARKS.quick.md") : join(ROOT, "BENCHMARKS.md");
    mkdirSync(join(out, ".."), { recursive: true });
    writeFileSync(out, markdown);
    log(`wrote ${out} (${((performance.now() - started) / 60000).toFixed(1)} min)`);
  } finally {
    scratch.remove();
  }
}

await main();
