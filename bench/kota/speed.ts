/**
 * Speed of the built-in index on hono and vite: cold index, re-index after one changed file, deps
 * depth 1/2/3 on a hub file, usages, search (p50/p95 over repeated runs), peak RSS and database size.
 * Each corpus runs in its own child process, so its peak RSS is its own.
 * Run: bun bench/kota/speed.ts [--corpus hono|vite] [--runs N]
 */
import { appendFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.ts";
import type { Result } from "../../src/errors.ts";
import { createBuiltinIndex } from "../../src/kota/builtin-index.ts";
import schemaSql from "../../src/db/migrations/004-code-index.sql" with { type: "text" };
import { median, percentile } from "../stats-math.ts";
import { checkpointedSize, createScratch } from "../temp.ts";
import { unpackCorpus } from "./corpora.ts";

type CorpusName = "hono" | "vite";

const PLAN: Record<CorpusName, { hub: string; changed: string[]; symbols: [string, string][]; queries: string[] }> = {
  hono: {
    hub: "src/hono-base.ts",
    changed: ["src/utils/url.ts", "src/context.ts", "src/middleware/cors/index.ts", "src/jsx/base.ts", "src/router/trie-router/node.ts"],
    symbols: [
      ["compose", "src/compose.ts"],
      ["Context", "src/context.ts"],
      ["HTTPException", "src/http-exception.ts"],
      ["getPath", "src/utils/url.ts"],
      ["MiddlewareHandler", "src/types.ts"],
      ["Env", "src/types.ts"],
      ["HonoRequest", "src/request.ts"],
      ["createMiddleware", "src/helper/factory/index.ts"],
    ],
    queries: ["getPath", "c.req.param", "HTTPException", "middleware", "jsx", "ormatNam"],
  },
  vite: {
    hub: "packages/vite/src/node/config.ts",
    changed: [
      "packages/vite/src/node/utils.ts",
      "packages/vite/src/node/server/index.ts",
      "packages/vite/src/node/plugins/css.ts",
      "packages/vite/src/node/build.ts",
      "packages/vite/src/client/client.ts",
    ],
    symbols: [
      ["resolveConfig", "packages/vite/src/node/config.ts"],
      ["createServer", "packages/vite/src/node/server/index.ts"],
      ["normalizePath", "packages/vite/src/node/utils.ts"],
      ["ResolvedConfig", "packages/vite/src/node/config.ts"],
      ["Plugin", "packages/vite/src/node/plugin.ts"],
      ["createLogger", "packages/vite/src/node/logger.ts"],
      ["ViteDevServer", "packages/vite/src/node/server/index.ts"],
      ["isObject", "packages/vite/src/node/utils.ts"],
    ],
    queries: ["resolveConfig", "hmr", "import.meta.hot", "createServer", "ssrLoadModule", "etDevServe"],
  },
};

export type Timing = { p50: number; p95: number; runs: number };

function timing(xs: number[]): Timing {
  const r = (x: number) => Math.round(x * 100) / 100;
  return { p50: r(median(xs)), p95: r(percentile(xs, 95)), runs: xs.length };
}

async function timed<T>(fn: () => Promise<Result<T>>): Promise<number> {
  const t = performance.now();
  const r = await fn();
  const ms = performance.now() - t;
  if (!r.ok) throw new Error(r.message);
  return ms;
}

export type CorpusSpeed = {
  corpus: CorpusName;
  files: number;
  symbols: number;
  references: number;
  coldIndexMs: number;
  /** An explicit index run after one file changed (walk + one parse + resolve). */
  reindexOneFileMs: Timing;
  /** The same, noticed by a query (stat-based freshness check, one parse) before it answers. */
  queryAfterOneFileChangedMs: Timing;
  noChangeIndexMs: Timing;
  /** Every query checks the disk first (freshnessMs 0): the worst case. */
  deps: { depth1: Timing; depth2: Timing; depth3: Timing };
  usages: Timing;
  search: Timing;
  /** The default: a query within 500 ms of the last disk check skips the next one. */
  withDefaultFreshness: { depsDepth3: Timing; usages: Timing };
  peakRssMb: number;
  dbBytes: number;
};

/** Measures one corpus in this process (the child side). */
export async function measureCorpus(name: CorpusName, root: string, runs = 30): Promise<CorpusSpeed> {
  const plan = PLAN[name];
  const scratch = createScratch();
  const dbPath = scratch.path(`kota-${name}`);
  const db = openDatabase(dbPath, { migrations: [schemaSql] });
  try {
    // freshnessMs 0: every query stats the tree first, the worst case for query latency.
    const kota = createBuiltinIndex({ db, root, freshnessMs: 0 });
    const t = performance.now();
    const cold = await kota.index();
    const coldIndexMs = performance.now() - t;
    if (!cold.ok) throw new Error(cold.message);

    const change = (file: string, i: number) => {
      appendFileSync(join(root, file), `\n// kota bench edit ${i}\n`);
      const when = new Date(Date.now() + (i + 1) * 2000);
      utimesSync(join(root, file), when, when);
    };
    const reindex: number[] = [];
    const viaQuery: number[] = [];
    const noChange: number[] = [];
    for (let i = 0; i < plan.changed.length * 2; i++) {
      change(plan.changed[i % plan.changed.length]!, i);
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
    const throttled = createBuiltinIndex({ db, root });
    const depsDefault: number[] = [];
    const usagesDefault: number[] = [];
    for (let i = 0; i < runs; i++) {
      depsDefault.push(await timed(() => throttled.deps({ file: plan.hub, depth: 3, direction: "both" })));
      const [symbol, file] = plan.symbols[i % plan.symbols.length]!;
      usagesDefault.push(await timed(() => throttled.usages({ symbol, file })));
    }
    await throttled.close();
    const status = await kota.status();
    if (!status.ok) throw new Error(status.message);
    await kota.close();
    return {
      corpus: name,
      files: status.files,
      symbols: status.symbols,
      references: status.references,
      coldIndexMs: Math.round(coldIndexMs),
      reindexOneFileMs: timing(reindex),
      queryAfterOneFileChangedMs: timing(viaQuery),
      noChangeIndexMs: timing(noChange),
      deps: { depth1: timing(deps.depth1), depth2: timing(deps.depth2), depth3: timing(deps.depth3) },
      usages: timing(usages),
      search: timing(search),
      withDefaultFreshness: { depsDepth3: timing(depsDefault), usages: timing(usagesDefault) },
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      dbBytes: checkpointedSize(db, dbPath),
    };
  } finally {
    db.close();
    scratch.remove();
  }
}

/** Runs each corpus in a child process (fresh heap, its own peak RSS) and collects the results. */
export async function runSpeed(opts: { corpora?: CorpusName[]; runs?: number } = {}): Promise<{ builtin: CorpusSpeed[] }> {
  const out: CorpusSpeed[] = [];
  for (const name of opts.corpora ?? ["hono", "vite"]) {
    const corpus = unpackCorpus(name);
    try {
      const child = Bun.spawnSync([process.execPath, import.meta.path, "--child", name, corpus.root, "--runs", String(opts.runs ?? 30)], {
        stdout: "pipe",
        stderr: "pipe",
      });
      if (child.exitCode !== 0) throw new Error(`${name}: ${child.stderr.toString()}`);
      out.push(JSON.parse(child.stdout.toString()) as CorpusSpeed);
    } finally {
      corpus.remove();
    }
  }
  return { builtin: out };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

if (import.meta.main) {
  const runs = Number(arg("runs") ?? 30);
  const child = arg("child");
  if (child) {
    const i = process.argv.indexOf("--child");
    console.log(JSON.stringify(await measureCorpus(child as CorpusName, process.argv[i + 2]!, runs)));
  } else {
    const only = arg("corpus") as CorpusName | undefined;
    console.log(JSON.stringify(await runSpeed({ corpora: only ? [only] : undefined, runs }), null, 2));
  }
}
