/**
 * Search latency of this checkout beside another one (`--base`, a checkout or a copy of its
 * `src/` with node_modules reachable), on one large store kept between runs: the benchmark's
 * query mix, each query searched by both in turn (the order alternating), so load on a shared
 * machine falls on both alike. Prints wall-clock and CPU p50/p99 per side, and every query whose
 * answer text differs between the two (a speed change must not change what search returns).
 *
 *   bun bench/search-ab.ts --store DIR [--base CHECKOUT] [--mb 200] [--rounds 2] [--kind KIND]
 *
 * Without --base only this checkout runs. The store is built into DIR on the first run (the
 * same generator, seed and mix as `bench/search-store.ts`) and reused after; remove DIR when done.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { defaultConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/open.ts";
import { createEngine as createOurs } from "../src/engine.ts";
import { loadAverage } from "./machine.ts";
import { type BenchQuery, queryMix, WARM_UP } from "./queries.ts";
import { percentile } from "./stats-math.ts";
import { buildStore, type Needle, type StoreSource } from "./store-build.ts";
import { log } from "./timing.ts";

const SEED = 20240314;

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

type Meta = { path: string; needles: Needle[]; sources: StoreSource[]; inputBytes: number; dbBytes: number };

async function storeIn(dir: string, mb: number): Promise<Meta> {
  const metaFile = join(dir, "meta.json");
  if (existsSync(metaFile)) return JSON.parse(readFileSync(metaFile, "utf8")) as Meta;
  mkdirSync(dir, { recursive: true });
  const scratch = { dir, path: (name: string) => join(dir, `${name}.db`), remove: () => {} };
  const built = await buildStore(scratch, mb * 1e6, SEED);
  const meta: Meta = {
    path: built.path,
    needles: built.needles,
    sources: built.sources,
    inputBytes: built.inputBytes,
    dbBytes: built.dbBytes,
  };
  writeFileSync(metaFile, JSON.stringify(meta));
  return meta;
}

type Side = {
  name: string;
  search: (q: BenchQuery) => Promise<string>;
  close: () => Promise<void>;
  wall: number[];
  cpu: number[];
  texts: Map<number, string>;
};

async function side(name: string, createEngine: typeof createOurs, path: string): Promise<Side> {
  const db = openDatabase(path);
  const engine = createEngine({ config: { ...defaultConfig(), db: path }, db, background: "worker" });
  return {
    name,
    search: async (q) => {
      const r = await engine.search({ query: q.query, ...(q.source ? { source: q.source } : {}) });
      if (!r.ok) throw new Error(`${name}: search ${JSON.stringify(q.query)} failed: ${r.message}`);
      return r.text;
    },
    close: async () => {
      await engine.close();
      db.close();
    },
    wall: [],
    cpu: [],
    texts: new Map(),
  };
}

async function timed(s: Side, q: BenchQuery, i: number): Promise<void> {
  const c = process.cpuUsage();
  const t = performance.now();
  const text = await s.search(q);
  s.wall.push(performance.now() - t);
  const used = process.cpuUsage(c);
  s.cpu.push((used.user + used.system) / 1000);
  s.texts.set(i, text);
}

const summary = (s: Side, mix: BenchQuery[]) => ({
  side: s.name,
  n: s.wall.length,
  wallP50: +percentile(s.wall, 50).toFixed(2),
  wallP99: +percentile(s.wall, 99).toFixed(2),
  cpuP50: +percentile(s.cpu, 50).toFixed(2),
  cpuP99: +percentile(s.cpu, 99).toFixed(2),
  wallTotal: Math.round(s.wall.reduce((a, b) => a + b, 0)),
  /** CPU p50 / p99 per query kind. */
  cpuByKind: Object.fromEntries(
    [...new Set(mix.map((q) => q.kind))].map((kind) => {
      const cpu = s.cpu.filter((_, k) => mix[k % mix.length]!.kind === kind);
      return [kind, `${percentile(cpu, 50).toFixed(2)} / ${percentile(cpu, 99).toFixed(2)}`];
    }),
  ),
});

if (import.meta.main) {
  const dir = flag("--store");
  if (!dir) throw new Error("bench/search-ab.ts wants --store DIR (the large store is built there once and reused)");
  const meta = await storeIn(resolve(dir), Number(flag("--mb") ?? 200));
  const rounds = Number(flag("--rounds") ?? 2);
  const base = flag("--base");
  const kind = flag("--kind");
  const mix = queryMix(meta.needles, meta.sources, SEED).filter((q) => !kind || q.kind === kind);
  log(
    `store: ${(meta.inputBytes / 1e6).toFixed(0)} MB in, ${(meta.dbBytes / 1e6).toFixed(0)} MB; ${mix.length} queries x ${rounds}; load ${loadAverage()}`,
  );
  const sides = [await side("this checkout", createOurs, meta.path)];
  if (base) {
    const mod = (await import(join(resolve(base), "src/engine.ts"))) as { createEngine: typeof createOurs };
    sides.push(await side(`base ${base}`, mod.createEngine, meta.path));
  }
  try {
    for (const s of sides) for (const w of WARM_UP) await s.search({ kind: "common word", query: w });
    Bun.gc(true);
    for (let round = 0; round < rounds; round++) {
      for (const [i, q] of mix.entries()) {
        const order = (i + round) % 2 === 0 ? sides : [...sides].reverse();
        for (const s of order) await timed(s, q, i);
      }
      log(`round ${round + 1}/${rounds} done, load ${loadAverage()}`);
    }
    const differ = base
      ? mix.flatMap((q, i) =>
          sides[0]!.texts.get(i) === sides[1]!.texts.get(i) ? [] : [{ kind: q.kind, query: q.query, source: q.source }],
        )
      : [];
    console.log(
      JSON.stringify({ loadAtEnd: loadAverage(), sides: sides.map((s) => summary(s, mix)), answersDiffer: differ.length, differ }, null, 2),
    );
  } finally {
    for (const s of sides) await s.close();
  }
}
