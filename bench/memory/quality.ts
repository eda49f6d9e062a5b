/**
 * Recall quality of episodic memory on a generated multi-session history (history.ts): the
 * history is fed to the real service session by session with its own clock (retention and
 * summaries happen as they would), and every question is asked at the moment it comes up, before
 * it is stored. Measured per question:
 *
 * - recall@5: a top-5 memory_search hit is the event stating the current value (or a summary line
 *   naming it, not marked replaced);
 * - false recall: a top-5 hit states an older value without being marked as replaced;
 * - the injected context (memory_recall for the question within the default budget): its real
 *   token count, whether it holds the answer, whether it holds a replaced value.
 *
 *   bun bench/memory/quality.ts [--seed N] [--sessions N]     prints the result as JSON
 */
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createMemoryService } from "../../src/memory/service.ts";
import { answerOf, type MemoryAnswer, type MemoryRequest } from "../../src/memory/types.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { createRng } from "../prng.ts";
import { createScratch } from "../temp.ts";
import { generateHistory, type Plant } from "./history.ts";

const PROJECT = "/bench/memory/project";
export const QUALITY_SEED = 20261122;

export type QualityResult = {
  seed: number;
  sessions: number;
  events: number;
  summaries: number;
  facts: number;
  questions: number;
  correctedQuestions: number;
  recallAt5: number;
  falseRecall: { overCorrected: number; overAll: number; cases: string[] };
  injected: { medianTokens: number; p95Tokens: number; maxTokens: number; budget: number; answerInContext: number; falseInContext: number };
  corrections: {
    planted: number;
    storedAsCorrection: number;
    replacedOldValue: number;
    byTemplate: Record<string, { n: number; replaced: number }>;
  };
  misses: string[];
  ms: { total: number; searchP50: number; recallP50: number };
  /** Raw counts and every injection's tokens, for adding runs of several seeds up. */
  counts: { hit: number; falseAll: number; falseCorrected: number; inContext: number; falseInContext: number; tokens: number[] };
};

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const rate = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10000) / 10000);

export async function benchMemoryQuality(options: { seed?: number; sessions?: number; dir?: string } = {}): Promise<QualityResult> {
  const seed = options.seed ?? QUALITY_SEED;
  const started = performance.now();
  const history = generateHistory(createRng(seed), { sessions: options.sessions });
  const scratch = options.dir ? null : createScratch();
  const path = options.dir ? join(options.dir, "memory-quality.db") : scratch!.path("memory-quality");
  const db = openDatabase(path, { migrations: MIGRATIONS });
  const config = defaultConfig({ HOME: "/nonexistent" });
  config.db = path;
  const clock = { t: history.events[0]!.ts };
  const service = createMemoryService({ db, config, now: () => clock.t, count: async (ts) => ts.reduce((n, t) => n + countTokens(t), 0) });
  const call = async <T extends MemoryAnswer["type"]>(r: MemoryRequest, type: T) => {
    const a = await service.handle(r);
    if (!a.ok) throw new Error(`${r.type}: ${a.message}`);
    return answerOf(a, type);
  };
  const plants = new Map<number, Plant>();
  const kinds = new Map<number, string>();
  let pending: typeof history.events = [];
  const flush = async () => {
    for (let i = 0; i < pending.length; i += 2000) {
      const batch = pending.slice(i, i + 2000);
      clock.t = batch.at(-1)!.ts;
      const r = await call(
        { type: "addMany", project: PROJECT, events: batch.map((e) => ({ kind: e.kind, text: e.text, session: e.session, ts: e.ts })) },
        "addMany",
      );
      if (r.rejected.length > 0) throw new Error(`rejected: ${JSON.stringify(r.rejected[0])}`);
      const kindOf = db.query<{ kind: string }, [number]>("SELECT kind FROM memory_events WHERE id = ?");
      batch.forEach((e, j) => {
        const id = Number(r.ids[j]!.slice(1));
        if (!e.plant) return;
        plants.set(id, e.plant);
        kinds.set(id, kindOf.get(id)!.kind);
      });
    }
    pending = [];
    for (
      let r = await call({ type: "summarize", project: PROJECT, steps: 50 }, "summarize");
      r.pending;
      r = await call({ type: "summarize", project: PROJECT, steps: 50 }, "summarize")
    ) {}
  };
  const result = { questions: 0, corrected: 0, hit: 0, falseAll: 0, falseCorrected: 0, inContext: 0, falseInContext: 0 };
  const tokens: number[] = [];
  const searchMs: number[] = [];
  const recallMs: number[] = [];
  const cases: string[] = [];
  const misses: string[] = [];
  const judge = (ref: number, marked: boolean, key: string, current: string) => {
    const p = plants.get(ref);
    if (!p || p.key !== key || marked) return "other";
    return p.value === current ? "answer" : "stale";
  };
  for (const e of history.events) {
    if (!e.question) {
      pending.push(e);
      continue;
    }
    await flush();
    clock.t = e.ts;
    const q = e.question;
    result.questions++;
    if (q.corrected) result.corrected++;
    let t = performance.now();
    const search = await call({ type: "search", project: PROJECT, query: e.text, limit: 5 }, "search");
    searchMs.push(performance.now() - t);
    const verdicts: string[] = [];
    for (const h of search.hits) {
      if (h.type === "event") verdicts.push(judge(Number(h.id.slice(1)), h.supersededBy !== null, q.key, q.current));
      else
        for (const line of h.text.split("\n")) {
          const ref = /^- e(\d+)\b/.exec(line);
          if (ref) verdicts.push(judge(Number(ref[1]), line.includes("[replaced by"), q.key, q.current));
        }
    }
    if (verdicts.includes("answer")) result.hit++;
    else
      misses.push(
        `${e.text} -> want ${q.key}=${q.current}${
          process.env.MEMORY_BENCH_VERBOSE
            ? ` (${history.events
                .filter((x) => x.plant?.key === q.key && x.ts < e.ts)
                .map((x) => `[${x.plant!.role} ${x.plant!.value}] ${x.text}`)
                .join(" | ")})`
            : ""
        }; got ${search.hits.map((h) => (process.env.MEMORY_BENCH_VERBOSE ? `\n    ${h.id} ${h.score} ${h.supersededBy ?? ""} ${h.text.replace(/\s+/g, " ").slice(0, 150)}` : h.id)).join(",")}`,
      );
    if (verdicts.includes("stale")) {
      result.falseAll++;
      if (q.corrected) result.falseCorrected++;
      cases.push(
        `${e.text} -> ${search.hits.map((h) => (process.env.MEMORY_BENCH_VERBOSE ? `\n    ${h.id} ${h.score} ${h.supersededBy ?? ""} ${h.text.replace(/\s+/g, " ").slice(0, 150)}` : `${h.id}${h.supersededBy ? "(replaced)" : ""}`)).join(",")}`,
      );
    }
    t = performance.now();
    const recall = await call({ type: "recall", project: PROJECT, session: e.session, prompt: e.text }, "recall");
    recallMs.push(performance.now() - t);
    tokens.push(recall.tokens);
    const inContext = recall.items.map((i) => (i.id.startsWith("e") ? judge(Number(i.id.slice(1)), false, q.key, q.current) : "other"));
    if (inContext.includes("answer")) result.inContext++;
    if (inContext.includes("stale")) result.falseInContext++;
    pending.push(e);
  }
  await flush();
  // Corrections: recognised as such, and were the statements of the value they replace marked (by it or a later one)?
  const byTemplate: Record<string, { n: number; replaced: number }> = {};
  let planted = 0;
  let asCorrection = 0;
  let replacedOld = 0;
  const replacedBy = new Map(
    db
      .query<{ old_id: number; new_id: number }, []>("SELECT old_id, new_id FROM memory_supersessions")
      .all()
      .map((r) => [r.old_id, r.new_id]),
  );
  const entries = [...plants].sort((a, b) => a[0] - b[0]);
  for (const [id, p] of entries) {
    if (p.role !== "correct") continue;
    planted++;
    if (kinds.get(id) === "correction") asCorrection++;
    const before = entries.filter(([oid, op]) => oid < id && op.key === p.key && op.role !== "ack");
    const previous = before.at(-1)?.[1].value;
    const stale = before.filter(([, op]) => op.value === previous);
    const ok = stale.length > 0 && stale.every(([oid]) => (replacedBy.get(oid) ?? 0) >= id);
    if (ok) replacedOld++;
    byTemplate[p.template ?? "?"] ??= { n: 0, replaced: 0 };
    const t = byTemplate[p.template ?? "?"]!;
    t.n++;
    if (ok) t.replaced++;
  }
  const summaries = db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_summaries").get()!.n;
  db.close();
  scratch?.remove();
  return {
    seed,
    sessions: history.sessions,
    events: history.events.length,
    summaries,
    facts: history.facts.length,
    questions: result.questions,
    correctedQuestions: result.corrected,
    recallAt5: rate(result.hit, result.questions),
    falseRecall: {
      overCorrected: rate(result.falseCorrected, result.corrected),
      overAll: rate(result.falseAll, result.questions),
      cases: cases.slice(0, 20),
    },
    injected: {
      medianTokens: quantile(tokens, 0.5),
      p95Tokens: quantile(tokens, 0.95),
      maxTokens: Math.max(0, ...tokens),
      budget: config.memory.recallTokens,
      answerInContext: rate(result.inContext, result.questions),
      falseInContext: rate(result.falseInContext, result.questions),
    },
    corrections: { planted, storedAsCorrection: asCorrection, replacedOldValue: replacedOld, byTemplate },
    misses: misses.slice(0, 30),
    ms: { total: Math.round(performance.now() - started), searchP50: quantile(searchMs, 0.5), recallP50: quantile(recallMs, 0.5) },
    counts: {
      hit: result.hit,
      falseAll: result.falseAll,
      falseCorrected: result.falseCorrected,
      inContext: result.inContext,
      falseInContext: result.falseInContext,
      tokens,
    },
  };
}

if (import.meta.main) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i === -1 ? undefined : Number(process.argv[i + 1]);
  };
  const seed = arg("--seed") ?? QUALITY_SEED;
  process.stderr.write(`memory quality: seed ${seed}\n`);
  console.log(JSON.stringify(await benchMemoryQuality({ seed, sessions: arg("--sessions") }), null, 2));
}
