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
import { benchCapture, captureCases } from "./capture.ts";
import { benchCli } from "./cli-oneshot.ts";
import { benchKota } from "./kota/bench.ts";
import { describeMachine, loadAverage } from "./machine.ts";
import { benchMcp } from "./mcp.ts";
import { benchMemory } from "./memory/bench-memory.ts";
import { benchPiMcpModes } from "./pi-mcp-modes.ts";
import { benchPiStart } from "./pi-start.ts";
import { AFTER_PRUNE, benchSession } from "./prune/run.ts";
import { queryMix, WARM_UP } from "./queries.ts";
import { benchReadcache } from "./readcache.ts";
import { benchRedaction } from "./redaction.ts";
import { renderReport } from "./report.ts";
import { benchRetrieval, hasQuestionSet } from "./retrieval/run.ts";
import { benchRpc } from "./rpc.ts";
import { benchSearch } from "./search.ts";
import { summarizeSearch } from "./search-summary.ts";
import { buildStore } from "./store-build.ts";
import { createScratch, removeDatabase } from "./temp.ts";
import { log } from "./timing.ts";
import { benchWeb } from "./web/run.ts";

const SEED = 20240314;
const ROOT = join(import.meta.dir, "..");

type Options = { quick: boolean; searchBudgetMs: number };

function parseArgs(argv: readonly string[]): Options {
  const quick = argv.includes("--quick");
  const at = argv.indexOf("--search-budget");
  const raw = at === -1 ? undefined : argv[at + 1];
  const seconds = raw === undefined ? (quick ? 15 : 90) : Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new Error(`--search-budget wants seconds (0 = no budget), got ${JSON.stringify(raw)}`);
  return { quick, searchBudgetMs: seconds * 1000 };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const machine = describeMachine();
  log(`machine: ${machine.cpu}, ${machine.cores} cores, Bun ${machine.bun}, SQLite ${machine.sqlite}`);
  const scratch = createScratch();
  try {
    const capture = await benchCapture(scratch, captureCases(options.quick, SEED));

    const store = await buildStore(scratch, (options.quick ? 25 : 200) * 1e6, SEED);
    log(
      `search store: ${(store.inputBytes / 1e6).toFixed(0)} MB in ${(store.buildMs / 1000).toFixed(0)} s, database ${(store.dbBytes / 1e6).toFixed(0)} MB`,
    );
    const queries = queryMix(store.needles, store.sources, SEED);
    const run = await benchSearch(store.path, queries, options.searchBudgetMs);
    const cli = await benchCli(scratch, store, queries, { runs: options.quick ? 3 : 9, seed: SEED + 900 });
    const web = await benchWeb({ quick: options.quick, storePath: store.path });
    removeDatabase(store.path);
    const agentRuns = options.quick ? 1 : 3;
    const agent = await benchAgent(agentRuns, SEED);
    const rpc = await benchRpc(scratch, options.quick ? 200 : 2000, options.quick ? 5 : 20);
    const readcache = await benchReadcache(scratch);
    const mcp = await benchMcp(scratch.dir, options.quick ? 100 : 300);
    const piStart = await benchPiStart(options.quick ? 2 : 7);
    const piMcp = await benchPiMcpModes();
    // The blind set first, when it has been copied in (bench/retrieval/blind/); skipped cleanly until then.
    const retrieval = {
      ...(hasQuestionSet("blind") ? { blind: await benchRetrieval(scratch, { peer: true, set: "blind" }) } : {}),
      tuning: await benchRetrieval(scratch, { peer: true, set: "tuning" }),
      holdout: await benchRetrieval(scratch, { peer: true, set: "holdout" }),
      ...(hasQuestionSet("dev") ? { dev: await benchRetrieval(scratch, { peer: true, set: "dev" }) } : {}),
      ...(hasQuestionSet("wave3") ? { wave3: await benchRetrieval(scratch, { peer: true, set: "wave3" }) } : {}),
      ...(hasQuestionSet("wave3b") ? { wave3b: await benchRetrieval(scratch, { peer: true, set: "wave3b" }) } : {}),
      ...(hasQuestionSet("wave3c") ? { wave3c: await benchRetrieval(scratch, { peer: true, set: "wave3c" }) } : {}),
    };
    log(
      `retrieval: top 3 ${retrieval.blind ? `${retrieval.blind.ours.recallAt3.toFixed(3)} blind, ` : "no blind set, "}` +
        `${retrieval.tuning.ours.recallAt3.toFixed(3)} tuning, ${retrieval.holdout.ours.recallAt3.toFixed(3)} held out`,
    );
    const redaction = await benchRedaction();
    // Quick: pi 1.3.0 plain and default; full: both versions, each part off, and the read cache's other answers after pruning.
    const prune = await benchSession(
      options.quick
        ? { versions: ["1.3.0"], variants: ["plain", "default"] }
        : {
            extra: AFTER_PRUNE.map((a) => ({
              pi: "1.3.0" as const,
              variant: "default" as const,
              config: { readcache: { afterPrune: a } },
            })),
          },
    );
    const kota = await benchKota({ quick: options.quick });
    const memory = await benchMemory({ quick: options.quick });

    const { path: _path, ...storeFacts } = store;
    const markdown = renderReport({
      date: `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      quick: options.quick,
      totalMs: performance.now() - started,
      machine,
      capture,
      store: storeFacts,
      search: summarizeSearch(run.results),
      searchRun: { ran: run.results.length, planned: run.planned, budgetMs: run.budgetMs, elapsedMs: run.elapsedMs },
      examples: queries,
      warmUp: WARM_UP.length,
      cli,
      loadAtEnd: loadAverage(),
      agent,
      agentRuns,
      rpc,
      readcache,
      mcp,
      piStart,
      piMcp,
      retrieval,
      redaction,
      prune,
      kota,
      memory,
      web,
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
