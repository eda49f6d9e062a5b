/**
 * Correctness of the built-in index against TypeScript on hono: precision and recall of deps
 * (dependencies and dependents, direct and within 2 steps) for 30+ files, and of usages for 30+
 * exported symbols. Run: bun bench/kota/oracle.ts [--seed N] [--files N] [--symbols N]
 */

import { openDatabase } from "../../src/db/open.ts";
import { createBuiltinIndex } from "../../src/kota/builtin-index.ts";
import schemaSql from "../../src/db/migrations/004-code-index.sql" with { type: "text" };
import { createRng } from "../prng.ts";
import { createScratch } from "../temp.ts";
import { unpackCorpus } from "./corpora.ts";
import { type Site, tsImportGraph, tsReferenceFinder } from "./ts-oracle.ts";

export type Score = { precision: number; recall: number; truePositives: number; predicted: number; actual: number };
type Tally = { tp: number; predicted: number; actual: number; misses: string[]; extras: string[] };

const tally = (): Tally => ({ tp: 0, predicted: 0, actual: 0, misses: [], extras: [] });

function count(t: Tally, ours: Set<string>, truth: Set<string>, label: string): void {
  t.predicted += ours.size;
  t.actual += truth.size;
  for (const x of ours) {
    if (truth.has(x)) t.tp++;
    else if (t.extras.length < 8) t.extras.push(`${label}: ${x}`);
  }
  for (const x of truth) if (!ours.has(x) && t.misses.length < 8) t.misses.push(`${label}: ${x}`);
}

function score(t: Tally): Score & { misses: string[]; extras: string[] } {
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    precision: round(t.predicted === 0 ? 1 : t.tp / t.predicted),
    recall: round(t.actual === 0 ? 1 : t.tp / t.actual),
    truePositives: t.tp,
    predicted: t.predicted,
    actual: t.actual,
    misses: t.misses,
    extras: t.extras,
  };
}

/** Files within `depth` steps along `edges` from `start` (not counting `start`). */
function within(edges: Map<string, Set<string>>, start: string, depth: number): Set<string> {
  const seen = new Set([start]);
  let frontier = [start];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const f of frontier) {
      for (const g of edges.get(f) ?? []) {
        if (seen.has(g)) continue;
        seen.add(g);
        next.push(g);
      }
    }
    frontier = next;
  }
  seen.delete(start);
  return seen;
}

function reverse(edges: Map<string, Set<string>>): Map<string, Set<string>> {
  const rev = new Map<string, Set<string>>();
  for (const [a, bs] of edges) for (const b of bs) rev.set(b, (rev.get(b) ?? new Set()).add(a));
  return rev;
}

function sample<T>(xs: T[], n: number, rng: ReturnType<typeof createRng>): T[] {
  const pool = [...xs];
  const out: T[] = [];
  while (out.length < n && pool.length > 0) out.push(pool.splice(rng.int(pool.length), 1)[0]!);
  return out;
}

export type OracleReport = {
  corpus: string;
  seed: number;
  files: number;
  symbols: number;
  deps: Record<"dependenciesDirect" | "dependenciesDepth2" | "dependentsDirect" | "dependentsDepth2", ReturnType<typeof score>>;
  usages: ReturnType<typeof score>;
  ms: { index: number; oracleGraph: number; oracleReferences: number };
};

export async function runOracle(opts: { seed?: number; files?: number; symbols?: number } = {}): Promise<OracleReport> {
  const seed = opts.seed ?? 20261123;
  const rng = createRng(seed);
  const corpus = unpackCorpus("hono");
  const scratch = createScratch();
  const db = openDatabase(scratch.path("kota-oracle"), { migrations: [schemaSql] });
  try {
    const kota = createBuiltinIndex({ db, root: corpus.root, freshnessMs: 60_000 });
    let t = performance.now();
    const indexed = await kota.index();
    if (!indexed.ok) throw new Error(indexed.message);
    const indexMs = performance.now() - t;
    const files = db
      .query<{ path: string }, []>("SELECT path FROM code_files ORDER BY path")
      .all()
      .map((r) => r.path);

    t = performance.now();
    const out = tsImportGraph(corpus.root, files);
    const oracleGraphMs = performance.now() - t;
    const inn = reverse(out);
    const connected = files.filter((f) => (out.get(f)?.size ?? 0) + (inn.get(f)?.size ?? 0) > 0);
    const hubs = ["src/hono-base.ts", "src/context.ts", "src/index.ts", "src/utils/url.ts"].filter((f) => connected.includes(f));
    const picked = [
      ...hubs,
      ...sample(
        connected.filter((f) => !hubs.includes(f)),
        (opts.files ?? 40) - hubs.length,
        rng,
      ),
    ];
    const deps = { dependenciesDirect: tally(), dependenciesDepth2: tally(), dependentsDirect: tally(), dependentsDepth2: tally() };
    for (const file of picked) {
      const r = await kota.deps({ file, depth: 2, direction: "both" });
      if (!r.ok) throw new Error(r.message);
      const d1 = new Set(r.dependencies.direct);
      const d2 = new Set([...d1, ...(r.dependencies.indirect["2"] ?? [])]);
      const u1 = new Set(r.dependents.direct);
      const u2 = new Set([...u1, ...(r.dependents.indirect["2"] ?? [])]);
      count(deps.dependenciesDirect, d1, within(out, file, 1), file);
      count(deps.dependenciesDepth2, d2, within(out, file, 2), file);
      count(deps.dependentsDirect, u1, within(inn, file, 1), file);
      count(deps.dependentsDepth2, u2, within(inn, file, 2), file);
    }

    t = performance.now();
    const finder = tsReferenceFinder(corpus.root, files);
    const candidates = db
      .query<{ name: string; path: string }, []>(
        `SELECT s.name, f.path FROM code_symbols s JOIN code_files f ON f.id = s.file_id
         WHERE s.exported = 1 AND s.parent IS NULL AND s.name != 'default' AND f.is_test = 0 AND f.path LIKE 'src/%'
           AND s.kind IN ('function', 'class', 'const', 'type', 'interface', 'enum')
         ORDER BY f.path, s.line_start`,
      )
      .all();
    const usages = tally();
    let symbols = 0;
    for (const c of sample(candidates, (opts.symbols ?? 40) * 2, rng)) {
      if (symbols >= (opts.symbols ?? 40)) break;
      const pos = finder.declarationOf(c.path, c.name);
      if (pos === null) continue;
      const key = (s: Site) => `${s.file}:${s.line}:${s.column}`;
      const truth = new Set(finder.references(c.path, pos).map(key));
      const r = await kota.usages({ symbol: c.name, file: c.path });
      if (!r.ok) throw new Error(r.message);
      count(usages, new Set(r.usages.map((u) => key(u))), truth, `${c.name}@${c.path}`);
      symbols++;
    }
    const oracleReferencesMs = performance.now() - t;
    await kota.close();
    return {
      corpus: "hono",
      seed,
      files: picked.length,
      symbols,
      deps: {
        dependenciesDirect: score(deps.dependenciesDirect),
        dependenciesDepth2: score(deps.dependenciesDepth2),
        dependentsDirect: score(deps.dependentsDirect),
        dependentsDepth2: score(deps.dependentsDepth2),
      },
      usages: score(usages),
      ms: { index: Math.round(indexMs), oracleGraph: Math.round(oracleGraphMs), oracleReferences: Math.round(oracleReferencesMs) },
    };
  } finally {
    db.close();
    scratch.remove();
    corpus.remove();
  }
}

function flag(name: string): number | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : Number(process.argv[i + 1]);
}

if (import.meta.main) {
  console.log(JSON.stringify(await runOracle({ seed: flag("seed"), files: flag("files"), symbols: flag("symbols") }), null, 2));
}
