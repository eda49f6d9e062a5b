/**
 * What writing the retrieval log costs a search, alone: the answers of the benchmark's query mix
 * (searched once on a copy of the large store) are written again, one commit each as an engine
 * writes them before it answers, by this checkout's log and by another checkout's (`--base`), each
 * on its own copy of the store (so each keeps its own schema), interleaved. Prints CPU per write
 * (p50/p99/mean) and WAL pages per write for each side, and the bytes each copy's log tables take.
 *
 *   bun bench/retrieval-log-cost.ts --store DIR [--base CHECKOUT] [--rounds 3]
 *
 * DIR is a store `bench/search-ab.ts` built (its search-store.db is copied, never written).
 */
import { copyFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { defaultConfig } from "../src/config.ts";
import type { Db } from "../src/db/open.ts";
import * as ourDb from "../src/db/open.ts";
import { createEngine } from "../src/engine.ts";
import type { Retrieval } from "../src/store/retrieval-log.ts";
import * as ourLog from "../src/store/retrieval-log.ts";
import { loadAverage } from "./machine.ts";
import { queryMix } from "./queries.ts";
import { percentile } from "./stats-math.ts";
import type { Needle, StoreSource } from "./store-build.ts";
import { log } from "./timing.ts";

const SEED = 20240314;

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

type LogModule = typeof ourLog;
type DbModule = typeof ourDb;

/** The WAL's last valid frame, from the shared-memory index's header (mxFrame, native order). */
function walFrames(path: string): number {
  const shm = readFileSync(`${path}-shm`).subarray(0, 48);
  return new DataView(shm.buffer, shm.byteOffset).getUint32(16, true);
}

type Side = { name: string; path: string; db: Db; logOf: LogModule; cpu: number[]; pages: number[] };

async function answers(path: string, needles: Needle[], sources: StoreSource[]): Promise<Retrieval[]> {
  const db = ourDb.openDatabase(path);
  const engine = createEngine({ config: { ...defaultConfig(), db: path }, db, background: "inline" });
  const out: Retrieval[] = [];
  try {
    for (const q of queryMix(needles, sources, SEED)) {
      const r = await engine.search({ query: q.query, ...(q.source ? { source: q.source } : {}) });
      if (!r.ok || r.hits.length === 0) continue;
      const [summary] = r.text.split("\n", 1);
      out.push({
        kind: "search",
        query: q.query,
        mode: r.mode,
        session: "bench",
        hits: r.hits.length,
        shared: summary,
        parts: r.hits.map((h) => ({ sourceId: h.sourceId, text: h.text })),
      });
    }
  } finally {
    await engine.close();
    db.close();
  }
  return out;
}

function tableBytes(db: Db): Record<string, number> {
  const rows = db
    .query<{ name: string; bytes: number }, []>(
      "SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'retrieval%' OR name = 'sources' OR name LIKE 'sqlite_autoindex_sources%' GROUP BY name",
    )
    .all();
  return Object.fromEntries(rows.map((r) => [r.name, r.bytes]));
}

if (import.meta.main) {
  const dir = flag("--store");
  if (!dir) throw new Error("bench/retrieval-log-cost.ts wants --store DIR (a store bench/search-ab.ts built)");
  const meta = JSON.parse(readFileSync(join(resolve(dir), "meta.json"), "utf8")) as {
    path: string;
    needles: Needle[];
    sources: StoreSource[];
  };
  const rounds = Number(flag("--rounds") ?? 3);
  const base = flag("--base");
  const copies: string[] = [];
  const copy = (name: string) => {
    const path = join(resolve(dir), `log-cost-${name}.db`);
    for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
    copyFileSync(meta.path, path);
    if (existsSync(`${meta.path}-wal`)) copyFileSync(`${meta.path}-wal`, `${path}-wal`);
    copies.push(path);
    return path;
  };
  const sides: Side[] = [];
  try {
    const oursPath = copy("ours");
    const open = async (name: string, path: string, dbOf: DbModule, logOf: LogModule) => {
      const db = dbOf.openDatabase(path);
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      sides.push({ name, path, db, logOf, cpu: [], pages: [] });
    };
    if (base) {
      const basePath = copy("base");
      const dbOf = (await import(join(resolve(base), "src/db/open.ts"))) as DbModule;
      const logOf = (await import(join(resolve(base), "src/store/retrieval-log.ts"))) as LogModule;
      await open(`base ${base}`, basePath, dbOf, logOf);
    }
    const mix = await answers(oursPath, meta.needles, meta.sources);
    await open("this checkout", oursPath, ourDb, ourLog);
    log(`${mix.length} answers x ${rounds} rounds; load ${loadAverage()}`);
    let t = 0;
    for (let round = 0; round < rounds; round++) {
      for (const [i, r] of mix.entries()) {
        const order = (i + round) % 2 === 0 ? sides : [...sides].reverse();
        for (const s of order) {
          const writer = s.logOf.createRetrievalLog(s.db, () => ++t);
          const before = walFrames(s.path);
          const c = process.cpuUsage();
          writer.add(r);
          await writer.flushAsync();
          const used = process.cpuUsage(c);
          const after = walFrames(s.path);
          s.cpu.push((used.user + used.system) / 1000);
          if (after >= before) s.pages.push(after - before);
        }
      }
      log(`round ${round + 1}/${rounds}, load ${loadAverage()}`);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    console.log(
      JSON.stringify(
        {
          loadAtEnd: loadAverage(),
          sides: sides.map((s) => ({
            side: s.name,
            writes: s.cpu.length,
            cpuP50: +percentile(s.cpu, 50).toFixed(3),
            cpuP99: +percentile(s.cpu, 99).toFixed(3),
            cpuMean: +mean(s.cpu).toFixed(3),
            walPagesMean: +mean(s.pages).toFixed(2),
            tables: tableBytes(s.db),
          })),
        },
        null,
        2,
      ),
    );
  } finally {
    for (const s of sides) s.db.close();
    for (const p of copies) for (const f of [p, `${p}-wal`, `${p}-shm`]) rmSync(f, { force: true });
  }
}
