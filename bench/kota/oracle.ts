/**
 * Correctness of the built-in index against TypeScript on hono: precision and recall of deps
 * (dependencies and dependents, direct and within 2 steps) for 30+ files, and of usages for 30+
 * exported symbols, for the built-in index and for the real KotaDB (same questions, same truth).
 * Run: bun bench/kota/oracle.ts [--seed N] [--files N] [--symbols N] [--builtin-only] [--repo DIR (builtin only)]
 * With --repo on a monorepo checkout without node_modules, TypeScript resolves no import of a workspace
 * package: the built-in index's edges and uses through them count as extras there (compare runs, not 1.000).
 */

import { join } from "node:path";
import schemaSql from "../../src/db/migrations/004-code-index.sql" with { type: "text" };
import { openDatabase } from "../../src/db/open.ts";
import { createBuiltinIndex } from "../../src/kota/builtin/backend.ts";
import type { CodeIndexBackend } from "../../src/kota/contract.ts";
import { createRng } from "../prng.ts";
import { createScratch } from "../temp.ts";
import { unpackCorpus } from "./corpora.ts";
import { openKotaDb } from "./kotadb-run.ts";
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

type DepsTallies = Record<"dependenciesDirect" | "dependenciesDepth2" | "dependentsDirect" | "dependentsDepth2", Tally>;
type Candidate = { name: string; path: string; truth: Set<string> };

export type BackendScores = {
  /** How many of the questions this backend was asked (a time budget may ask fewer). */
  files: number;
  symbols: number;
  deps: Record<keyof DepsTallies, ReturnType<typeof score>>;
  usages: ReturnType<typeof score>;
  /** Questions the backend did not answer in time (left out of the scores). */
  unanswered: string[];
  ms: number;
};

export type OracleReport = {
  corpus: string;
  seed: number;
  files: number;
  symbols: number;
  builtin: BackendScores;
  kotadb: BackendScores | { skip: string } | null;
  ms: { index: number; oracleGraph: number; oracleReferences: number };
};

const key = (s: Site) => `${s.file}:${s.line}:${s.column}`;

/** The questions and TypeScript's answers, on hono (paths relative to its root, so any copy of it will do). */
export type OracleQuestions = {
  seed: number;
  /** Files asked about: the hub files first, then a seeded sample. */
  picked: string[];
  hubs: string[];
  out: Map<string, Set<string>>;
  inn: Map<string, Set<string>>;
  candidates: Candidate[];
  ms: OracleReport["ms"];
};

/** One backend's answers to the questions (`files`: only that many, hubs left out), scored against TypeScript's. */
export async function scoreBackend(kota: CodeIndexBackend, q: OracleQuestions, limit: { files?: number } = {}): Promise<BackendScores> {
  const { out, inn, candidates } = q;
  const picked = limit.files === undefined ? q.picked : q.picked.filter((f) => !q.hubs.includes(f)).slice(0, limit.files);
  const started = performance.now();
  const unanswered: string[] = [];
  const deps: DepsTallies = {
    dependenciesDirect: tally(),
    dependenciesDepth2: tally(),
    dependentsDirect: tally(),
    dependentsDepth2: tally(),
  };
  for (const file of picked) {
    const answer = await kota.deps({ file, depth: 2, direction: "both" });
    if (!answer.ok && answer.code === "BACKEND_UNAVAILABLE") {
      unanswered.push(`deps ${file}: ${answer.message.slice(0, 80)}`);
      continue;
    }
    // A file the backend does not index (KotaDB skips .mts) answers nothing: every edge is missed.
    const none = { direct: [] as string[], indirect: {} as Record<string, string[]> };
    const r = answer.ok ? answer : { dependencies: none, dependents: none };
    const d1 = new Set(r.dependencies.direct);
    const d2 = new Set([...d1, ...(r.dependencies.indirect["2"] ?? [])]);
    const u1 = new Set(r.dependents.direct);
    const u2 = new Set([...u1, ...(r.dependents.indirect["2"] ?? [])]);
    count(deps.dependenciesDirect, d1, within(out, file, 1), file);
    count(deps.dependenciesDepth2, d2, within(out, file, 2), file);
    count(deps.dependentsDirect, u1, within(inn, file, 1), file);
    count(deps.dependentsDepth2, u2, within(inn, file, 2), file);
  }
  const usages = tally();
  for (const c of candidates) {
    const r = await kota.usages({ symbol: c.name, file: c.path });
    if (!r.ok) {
      if (r.code === "BACKEND_UNAVAILABLE") {
        unanswered.push(`usages ${c.name}: ${r.message.slice(0, 80)}`);
        continue;
      }
      // No such symbol for this backend: it found none of the uses.
      count(usages, new Set(), c.truth, `${c.name}@${c.path}`);
      continue;
    }
    count(usages, new Set(r.usages.map((u) => key(u))), c.truth, `${c.name}@${c.path}`);
  }
  return {
    files: picked.length,
    symbols: candidates.length,
    deps: {
      dependenciesDirect: score(deps.dependenciesDirect),
      dependenciesDepth2: score(deps.dependenciesDepth2),
      dependentsDirect: score(deps.dependentsDirect),
      dependentsDepth2: score(deps.dependentsDepth2),
    },
    usages: score(usages),
    unanswered,
    ms: Math.round(performance.now() - started),
  };
}

/** `repo`: a repository folder to ask about instead of a fresh copy of hono (read only; no hub files). */
export type OracleOptions = { seed?: number; files?: number; symbols?: number; repo?: string };

/** TypeScript's answers on a fresh copy of hono (or on `repo`), and the built-in index's score on them. */
export async function prepareOracle(opts: OracleOptions = {}): Promise<{ questions: OracleQuestions; builtin: BackendScores }> {
  const seed = opts.seed ?? 20261123;
  const rng = createRng(seed);
  const corpus = opts.repo ? { root: opts.repo, remove: () => {} } : unpackCorpus("hono");
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
    const hubs = (opts.repo ? [] : ["src/hono-base.ts", "src/context.ts", "src/index.ts", "src/utils/url.ts"]).filter((f) =>
      connected.includes(f),
    );
    const picked = [
      ...hubs,
      ...sample(
        connected.filter((f) => !hubs.includes(f)),
        (opts.files ?? 40) - hubs.length,
        rng,
      ),
    ];

    t = performance.now();
    const finder = tsReferenceFinder(corpus.root, files);
    const rows = db
      .query<{ name: string; path: string }, [string]>(
        `SELECT s.name, f.path FROM code_symbols s JOIN code_files f ON f.id = s.file_id
         WHERE s.exported = 1 AND s.parent IS NULL AND s.name != 'default' AND f.is_test = 0 AND f.path LIKE ?
           AND s.kind IN ('function', 'class', 'const', 'type', 'interface', 'enum')
         ORDER BY f.path, s.line_start`,
      )
      .all(opts.repo ? "%" : "src/%");
    const candidates: Candidate[] = [];
    for (const c of sample(rows, (opts.symbols ?? 40) * 2, rng)) {
      if (candidates.length >= (opts.symbols ?? 40)) break;
      const pos = finder.declarationOf(c.path, c.name);
      if (pos === null) continue;
      candidates.push({ ...c, truth: new Set(finder.references(c.path, pos).map(key)) });
    }
    const oracleReferencesMs = performance.now() - t;
    const questions: OracleQuestions = {
      seed,
      picked,
      hubs,
      out,
      inn,
      candidates,
      ms: { index: Math.round(indexMs), oracleGraph: Math.round(oracleGraphMs), oracleReferences: Math.round(oracleReferencesMs) },
    };
    const builtin = await scoreBackend(kota, questions);
    await kota.close();
    return { questions, builtin };
  } finally {
    db.close();
    scratch.remove();
    corpus.remove();
  }
}

export function oracleReport(q: OracleQuestions, builtin: BackendScores, kotadb: OracleReport["kotadb"]): OracleReport {
  return { corpus: "hono", seed: q.seed, files: q.picked.length, symbols: q.candidates.length, builtin, kotadb, ms: q.ms };
}

/** Both backends on every question (KotaDB on its own copy of hono; several minutes). */
export async function runOracle(opts: OracleOptions & { kotadb?: boolean; kotadbTimeoutMs?: number } = {}): Promise<OracleReport> {
  const { questions, builtin } = await prepareOracle(opts);
  let kotadb: OracleReport["kotadb"] = null;
  if (opts.kotadb !== false) {
    const corpus = unpackCorpus("hono");
    const scratch = createScratch();
    try {
      const run = openKotaDb(corpus.root, join(scratch.dir, "kotadb-data"), opts.kotadbTimeoutMs ?? 60_000);
      if ("skip" in run) kotadb = run;
      else {
        try {
          const r = await run.backend.index();
          if (!r.ok) throw new Error(r.message);
          kotadb = await scoreBackend(run.backend, questions);
        } finally {
          await run.close();
        }
      }
    } finally {
      scratch.remove();
      corpus.remove();
    }
  }
  return oracleReport(questions, builtin, kotadb);
}

function flag(name: string): number | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : Number(process.argv[i + 1]);
}

if (import.meta.main) {
  const repoAt = process.argv.indexOf("--repo");
  const repo = repoAt === -1 ? undefined : process.argv[repoAt + 1];
  const kotadb = !process.argv.includes("--builtin-only") && repo === undefined;
  console.log(
    JSON.stringify(await runOracle({ seed: flag("seed"), files: flag("files"), symbols: flag("symbols"), kotadb, repo }), null, 2),
  );
}
