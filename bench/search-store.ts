/**
 * The search targets alone, bounded: builds the large store (the same generator, seed and mix as
 * `bun run bench`), runs the query mix for at most the budget, and prints the database ratio and
 * search p50/p99 per query kind against the targets (search p50 <= 2 ms, p99 <= 20 ms, database
 * <= 3x its input). Nothing is written into the project; the store is removed at the end.
 *
 *   bun bench/search-store.ts [--mb 200] [--search-budget 60]
 */
import { describeMachine, loadAverage } from "./machine.ts";
import { queryMix } from "./queries.ts";
import { TARGETS } from "./report-input.ts";
import { benchSearch } from "./search.ts";
import { summarizeSearch } from "./search-summary.ts";
import { buildStore } from "./store-build.ts";
import { createScratch } from "./temp.ts";
import { log } from "./timing.ts";

const SEED = 20240314;

function numberFlag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} wants a number >= 0, got ${JSON.stringify(process.argv[at + 1])}`);
  return value;
}

if (import.meta.main) {
  const mb = numberFlag("--mb", 200);
  const budgetMs = numberFlag("--search-budget", 60) * 1000;
  const machine = describeMachine();
  log(`machine: ${machine.cpu}, ${machine.cores} cores, Bun ${machine.bun}, SQLite ${machine.sqlite}, load ${loadAverage()}`);
  const scratch = createScratch();
  try {
    const store = await buildStore(scratch, mb * 1e6, SEED);
    const ratio = store.dbBytes / store.inputBytes;
    log(`store: ${(store.inputBytes / 1e6).toFixed(0)} MB in, database ${(store.dbBytes / 1e6).toFixed(0)} MB (${ratio.toFixed(2)}x)`);
    const run = await benchSearch(store.path, queryMix(store.needles, store.sources, SEED), budgetMs);
    const kinds = summarizeSearch(run.results);
    const all = kinds[0]!;
    const verdict = (ok: boolean) => (ok ? "meets" : "MISSES");
    console.log(
      JSON.stringify(
        {
          machine: `${machine.cpu}, ${machine.cores} cores`,
          loadAtEnd: loadAverage(),
          inputMB: +(store.inputBytes / 1e6).toFixed(1),
          databaseMB: +(store.dbBytes / 1e6).toFixed(1),
          ratio: +ratio.toFixed(2),
          queries: { ran: run.results.length, planned: run.planned },
          targets: {
            dbRatio: `${ratio.toFixed(2)} <= ${TARGETS.dbRatio}: ${verdict(ratio <= TARGETS.dbRatio)}`,
            p50: `${all.p50.toFixed(2)} ms <= ${TARGETS.searchP50}: ${verdict(all.p50 <= TARGETS.searchP50)}`,
            p99: `${all.p99.toFixed(2)} ms <= ${TARGETS.searchP99}: ${verdict(all.p99 <= TARGETS.searchP99)}`,
          },
          byKind: kinds.map((k) => ({
            kind: k.kind,
            n: k.n,
            p50: +k.p50.toFixed(2),
            p99: +k.p99.toFixed(2),
            max: +k.max.toFixed(2),
            found: `${k.found.yes}/${k.found.of}`,
            unrankedP50: +k.unrankedP50.toFixed(2),
          })),
        },
        null,
        2,
      ),
    );
  } finally {
    scratch.remove();
  }
}
