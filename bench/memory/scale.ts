/**
 * Episodic memory at scale: one project with a million events (the seed article's claimed wall is
 * ~100K per agent). Measures, on a real SQLite file with the real tokenizer and redaction:
 *
 * - import rate (addMany in batches, what `memory add --jsonl` does) and the time the bounded
 *   maintenance steps then take to check corrections and summarise every window;
 * - single-event add latency (one small transaction plus a maintenance step);
 * - memory_recall and memory_search latency (p50/p95) against the full store;
 * - database size against the bytes of event text given.
 *
 *   bun bench/memory/scale.ts [--events N] [--seed N] [--dir DIR]   prints the result as JSON
 *
 * --dir keeps the database (DIR/memory-scale.db) for a look afterwards; it must not exist yet.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createMemoryService } from "../../src/memory/service.ts";
import { answerOf, importKeys, type MemoryAnswer, type MemoryRequest, type NewEvent } from "../../src/memory/types.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { createRng, type Rng } from "../prng.ts";
import { createScratch } from "../temp.ts";
import { noise } from "./history.ts";
import { COMPONENTS, ENVS } from "./world.ts";

const PROJECT = "/bench/memory/scale";
export const SCALE_SEED = 20261123;
const BATCH = 5000;

export type ScaleResult = {
  seed: number;
  events: number;
  textBytes: number;
  averageEventBytes: number;
  /** cpuMs: this process's CPU time (user and system), which a busy machine inflates less than the wall clock. */
  import: { ms: number; cpuMs: number; eventsPerSecond: number };
  maintenance: { ms: number; cpuMs: number; summaries: number; replaced: number };
  /** Import and then maintenance: what `memory add --jsonl` waits for before it returns. */
  importAndMaintenance: { ms: number; eventsPerSecond: number };
  add: { p50Ms: number; p95Ms: number };
  recall: { p50Ms: number; p95Ms: number; medianTokens: number };
  search: { p50Ms: number; p95Ms: number };
  database: { bytes: number; perTextByte: number };
};

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 1000) / 1000;
};

/**
 * Everyday events, with a correction (1%) or a stated fact (2%) now and then, so imports have
 * supersession work. That is about twice the share of a real history: the independent one of
 * issue 21 has 8 corrections and 24 facts in ~1,500 events (0.5% and 1.6%); the generated
 * benchmark histories correct about half of ~70 facts in ~4,800 events (~1%). Real events are
 * longer than one generated sentence (an answer explains, an error carries its stack, a prompt
 * gives context), so most get more sentences of their own kind.
 */
export function scaleEvent(rng: Rng, session: string, ts: number): NewEvent {
  const r = rng.next();
  const c = rng.pick(COMPONENTS);
  if (r < 0.01)
    return {
      kind: "prompt",
      text: `no, the ${rng.pick(ENVS)} ${c} port is ${rng.range(3000, 9999)}, not ${rng.range(3000, 9999)}`,
      session,
      ts,
    };
  if (r < 0.03) return { kind: "prompt", text: `The ${rng.pick(ENVS)} ${c} runs on port ${rng.range(3000, 9999)}.`, session, ts };
  // Capture in pi never writes decisions (only an explicit add does): 1% of events, not noise's 1 in 14.
  let base = noise(rng);
  while (base.kind === "decision" && r >= 0.04) base = noise(rng);
  const more = { answer: rng.range(1, 4), error: rng.range(1, 3), prompt: rng.range(0, 2) }[base.kind as string] ?? 0;
  let text = base.text;
  for (let i = 0; i < more; i++)
    text += base.kind === "error" ? `\n    at ${noise(rng).text.slice(0, 60)}` : ` ${sameKind(rng, base.kind)}`;
  return { kind: base.kind, text, session, ts };
}

/**
 * One more sentence of the same kind: a prompt goes on with more of the task, an answer with more
 * of what was done. (A sentence of any kind made a task prompt end in an answer's "I changed ...",
 * which reads as a change of what was said: half of all events looked like corrections.)
 */
function sameKind(rng: Rng, kind: string): string {
  for (;;) {
    const n = noise(rng);
    if (n.kind === kind) return n.text;
  }
}

export async function benchMemoryScale(options: { events?: number; seed?: number; dir?: string } = {}): Promise<ScaleResult> {
  const seed = options.seed ?? SCALE_SEED;
  const total = options.events ?? 1_000_000;
  const rng = createRng(seed);
  const scratch = options.dir ? null : createScratch();
  const path = options.dir ? join(options.dir, "memory-scale.db") : scratch!.path("memory-scale");
  const db = openDatabase(path, { migrations: MIGRATIONS });
  const clock = { t: Date.UTC(2026, 0, 1) };
  const config = defaultConfig({ HOME: "/nonexistent" });
  config.db = path;
  // A million events a minute apart span two years: with retention (30 days) most would be gone.
  config.memory.keepDays = 0;
  const service = createMemoryService({
    db,
    config,
    now: () => clock.t,
    count: async (texts) => texts.reduce((n, t) => n + countTokens(t), 0),
  });
  const call = async <T extends MemoryAnswer["type"]>(r: MemoryRequest, type: T) => {
    const a = await service.handle(r);
    if (!a.ok) throw new Error(`${r.type}: ${a.message}`);
    return answerOf(a, type);
  };
  try {
    // Import: batches like `memory add --jsonl` (with its import keys); ~80 events a session, a minute apart.
    const keyOf = importKeys();
    let textBytes = 0;
    let session = "";
    const cpu = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    const cpu0 = cpu();
    const started = performance.now();
    for (let i = 0; i < total; i += BATCH) {
      const batch: NewEvent[] = [];
      for (let j = i; j < Math.min(total, i + BATCH); j++) {
        if (j % 80 === 0) session = `s${j / 80}`;
        clock.t += 60_000;
        const e = scaleEvent(rng, session, clock.t);
        textBytes += Buffer.byteLength(e.text);
        batch.push({ ...e, key: keyOf(e) });
      }
      await call({ type: "addMany", project: PROJECT, events: batch }, "addMany");
      if (i % 100_000 === 0 && i > 0)
        process.stderr.write(`memory scale: ${i} events, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    }
    const importMs = performance.now() - started;
    const importCpu = cpu() - cpu0;
    const m0 = performance.now();
    let summaries = 0;
    for (;;) {
      const r = await call({ type: "summarize", project: PROJECT, steps: 1000 }, "summarize");
      summaries += r.summaries.length;
      if (!r.pending && r.summaries.length === 0) break;
    }
    const maintenanceMs = performance.now() - m0;
    const maintenanceCpu = cpu() - cpu0 - importCpu;
    process.stderr.write(
      `memory scale: imported in ${(importMs / 1000).toFixed(0)} s, maintained in ${(maintenanceMs / 1000).toFixed(0)} s\n`,
    );
    const replaced = db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_supersessions").get()!.n;
    // Single adds (each with its maintenance step), then recall and search, in a fresh session.
    const adds: number[] = [];
    for (let i = 0; i < 200; i++) {
      clock.t += 30_000;
      const e = scaleEvent(rng, "live", clock.t);
      const t = performance.now();
      await call({ type: "add", project: PROJECT, session: "live", kind: e.kind, text: e.text }, "add");
      adds.push(performance.now() - t);
    }
    const recalls: number[] = [];
    const searches: number[] = [];
    const tokens: number[] = [];
    // A session's process is long-lived: the first calls (compiling the code, reading the index's pages) are not measured.
    for (let i = 0; i < 20; i++) await call({ type: "recall", project: PROJECT, session: "warm-up", prompt: noise(rng).text }, "recall");
    for (let i = 0; i < 300; i++) {
      const prompt = noise(rng).text;
      let t = performance.now();
      const r = await call({ type: "recall", project: PROJECT, session: "live", prompt }, "recall");
      recalls.push(performance.now() - t);
      tokens.push(r.tokens);
      t = performance.now();
      await call({ type: "search", project: PROJECT, query: prompt, limit: 5 }, "search");
      searches.push(performance.now() - t);
    }
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const bytes = statSync(path).size;
    return {
      seed,
      events: total,
      textBytes,
      averageEventBytes: Math.round(textBytes / total),
      import: { ms: Math.round(importMs), cpuMs: Math.round(importCpu), eventsPerSecond: Math.round(total / (importMs / 1000)) },
      maintenance: { ms: Math.round(maintenanceMs), cpuMs: Math.round(maintenanceCpu), summaries, replaced },
      importAndMaintenance: {
        ms: Math.round(importMs + maintenanceMs),
        eventsPerSecond: Math.round(total / ((importMs + maintenanceMs) / 1000)),
      },
      add: { p50Ms: quantile(adds, 0.5), p95Ms: quantile(adds, 0.95) },
      recall: { p50Ms: quantile(recalls, 0.5), p95Ms: quantile(recalls, 0.95), medianTokens: quantile(tokens, 0.5) },
      search: { p50Ms: quantile(searches, 0.5), p95Ms: quantile(searches, 0.95) },
      database: { bytes, perTextByte: Math.round((bytes / textBytes) * 100) / 100 },
    };
  } finally {
    db.close();
    scratch?.remove();
  }
}

if (import.meta.main) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i === -1 ? undefined : Number(process.argv[i + 1]);
  };
  const seed = arg("--seed") ?? SCALE_SEED;
  const d = process.argv.indexOf("--dir");
  const dir = d === -1 ? undefined : process.argv[d + 1];
  process.stderr.write(`memory scale: seed ${seed}\n`);
  console.log(JSON.stringify(await benchMemoryScale({ seed, events: arg("--events"), dir }), null, 2));
}
