/**
 * What a typical search spends its time on: the benchmark's query mix is run once on the large
 * store that `bench/search-ab.ts --store DIR` keeps, each query's CPU time measured, and then the
 * queries around the median (the middle half by CPU time) are run again for `--rounds` rounds, so
 * a CPU profile of the process is mostly the p50 query's work. Each round opens the store afresh
 * (a new connection and engine: nothing remembered from the round before, as in one run of the
 * mix). Run it under the profiler:
 *
 *   bun --cpu-prof --cpu-prof-dir=DIR bench/search-profile.ts --store DIR [--rounds 20] [--all]
 *
 * `--all`: every query of the mix in the rounds, not only the middle half.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { defaultConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/open.ts";
import { createEngine } from "../src/engine.ts";
import { type BenchQuery, queryMix, WARM_UP } from "./queries.ts";
import { percentile } from "./stats-math.ts";
import type { Needle, StoreSource } from "./store-build.ts";
import { log } from "./timing.ts";

const SEED = 20240314;

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

if (import.meta.main) {
  const dir = flag("--store");
  if (!dir) throw new Error("bench/search-profile.ts wants --store DIR (a store built by bench/search-ab.ts --store DIR)");
  const meta = JSON.parse(readFileSync(join(resolve(dir), "meta.json"), "utf8")) as {
    path: string;
    needles: Needle[];
    sources: StoreSource[];
  };
  const rounds = Number(flag("--rounds") ?? 20);
  const mix = queryMix(meta.needles, meta.sources, SEED);
  const open = async () => {
    const db = openDatabase(meta.path);
    const engine = createEngine({ config: { ...defaultConfig(), db: meta.path }, db, background: "worker" });
    for (const w of WARM_UP) await engine.search({ query: w });
    return {
      run: async (q: BenchQuery) => {
        const c = process.cpuUsage();
        const r = await engine.search({ query: q.query, ...(q.source ? { source: q.source } : {}) });
        if (!r.ok) throw new Error(`search ${JSON.stringify(q.query)} failed: ${r.message}`);
        const used = process.cpuUsage(c);
        return (used.user + used.system) / 1000;
      },
      close: async () => {
        await engine.close();
        db.close();
      },
    };
  };
  const first = await open();
  const cpu: number[] = [];
  for (const q of mix) cpu.push(await first.run(q));
  await first.close();
  const [lo, hi] = [percentile(cpu, 25), percentile(cpu, 75)];
  const middle = process.argv.includes("--all") ? mix : mix.filter((_, i) => cpu[i]! >= lo && cpu[i]! <= hi);
  log(
    `first pass: CPU p25 ${lo.toFixed(2)} ms, p50 ${percentile(cpu, 50).toFixed(2)} ms, p75 ${hi.toFixed(2)} ms; ${middle.length} queries x ${rounds}`,
  );
  const again: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const s = await open();
    for (const q of middle) again.push(await s.run(q));
    await s.close();
  }
  log(`rounds: CPU p50 ${percentile(again, 50).toFixed(2)} ms, p99 ${percentile(again, 99).toFixed(2)} ms`);
}
