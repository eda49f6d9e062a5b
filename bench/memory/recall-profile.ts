/**
 * Where a recall's time goes, for the slowest of them: every SQL statement a recall (and the
 * search after it) runs is timed (CPU time of this process) with the rows it returns, and the
 * slowest share of the recalls is summed by statement, beside the time spent outside SQL. On a
 * database kept by scale.ts (`--dir`), with scale-like prompts (the same seed as recall-cpu.ts).
 *
 *   bun bench/memory/recall-profile.ts CHECKOUT DATABASE [PROMPTS] [SHARE]
 *
 * The database is opened as it is (copy it first if the code under test writes).
 */
import { Database } from "bun:sqlite";
import { resolve } from "node:path";
import { checkoutService } from "./checkout-service.ts";

const [rootArg, dbArg, countArg, shareArg] = process.argv.slice(2);
if (!rootArg || !dbArg) {
  console.error("usage: bun bench/memory/recall-profile.ts CHECKOUT DATABASE [PROMPTS] [SHARE]");
  process.exit(2);
}
const root = resolve(rootArg);
const prompts = Number(countArg ?? 300);
const share = Number(shareArg ?? 0.1);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

type Call = { sql: string; ms: number; rows: number };
let log: Call[] = [];
// Bun's statements get their methods in their constructor: each statement is wrapped as it is made.
const wrapped = new WeakSet<object>();
const wrap = (stmt: Record<string, unknown> & { toString(): string }) => {
  if (wrapped.has(stmt)) return stmt;
  wrapped.add(stmt);
  const sql = String(stmt.toString()).replace(/\s+/g, " ").slice(0, 160);
  for (const method of ["all", "get", "run", "values"]) {
    const original = stmt[method] as (...a: unknown[]) => unknown;
    if (typeof original !== "function") continue;
    stmt[method] = (...args: unknown[]) => {
      const t = cpu();
      const out = original.apply(stmt, args);
      const rows = Array.isArray(out) ? out.length : out ? 1 : 0;
      log.push({ sql, ms: cpu() - t, rows });
      return out;
    };
  }
  return stmt;
};
for (const name of ["query", "prepare"] as const) {
  const original = Database.prototype[name] as (...a: unknown[]) => unknown;
  (Database.prototype as unknown as Record<string, unknown>)[name] = function (this: Database, ...args: unknown[]) {
    return wrap(original.apply(this, args) as Record<string, unknown> & { toString(): string });
  };
}

const service = await checkoutService(root, resolve(dbArg));
const { noise } = await import(`${root}/bench/memory/history.ts`);
const { createRng } = await import(`${root}/bench/prng.ts`);
const rng = createRng(7);
const project = "/bench/memory/scale";
type Run = { prompt: string; ms: number; wall: number; calls: Call[] };
const runs: Run[] = [];
try {
  for (let i = 0; i < 20; i++) await service.handle({ type: "recall", project, session: "warm-up", prompt: noise(rng).text });
  for (let i = 0; i < prompts; i++) {
    const prompt = noise(rng).text;
    log = [];
    const t = cpu();
    const w = performance.now();
    await service.handle({ type: "recall", project, session: "live", prompt });
    runs.push({ prompt, ms: cpu() - t, wall: performance.now() - w, calls: log });
    log = [];
    await service.handle({ type: "search", project, query: prompt, limit: 5 });
  }
} finally {
  service.close();
}
runs.sort((a, b) => b.ms - a.ms);
const slow = runs.slice(0, Math.max(1, Math.round(runs.length * share)));
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]! * 100) / 100;
};
const summary = (set: Run[]) => {
  const bySql = new Map<string, { n: number; ms: number; rows: number }>();
  let sqlMs = 0;
  for (const r of set)
    for (const c of r.calls) {
      const s = bySql.get(c.sql) ?? { n: 0, ms: 0, rows: 0 };
      s.n++;
      s.ms += c.ms;
      s.rows += c.rows;
      bySql.set(c.sql, s);
      sqlMs += c.ms;
    }
  const total = set.reduce((s, r) => s + r.ms, 0);
  return {
    recalls: set.length,
    meanCpuMs: Math.round((total / set.length) * 100) / 100,
    meanSqlMs: Math.round((sqlMs / set.length) * 100) / 100,
    statements: [...bySql]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 14)
      .map(([sql, s]) => ({
        perRecallMs: Math.round((s.ms / set.length) * 100) / 100,
        callsPerRecall: Math.round((s.n / set.length) * 10) / 10,
        rowsPerCall: Math.round(s.rows / s.n),
        sql,
      })),
  };
};
const quantiles = (xs: number[]) => ({ p50: q(xs, 0.5), p95: q(xs, 0.95) });
console.log(
  JSON.stringify(
    {
      prompts,
      cpuMs: quantiles(runs.map((r) => r.ms)),
      wallMs: quantiles(runs.map((r) => r.wall)),
      slowest: { ...summary(slow), prompts: slow.slice(0, 8).map((r) => `${Math.round(r.ms * 10) / 10} ms: ${r.prompt.slice(0, 90)}`) },
      all: summary(runs),
    },
    null,
    2,
  ),
);
