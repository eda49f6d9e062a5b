/**
 * The episodic memory benchmark for BENCHMARKS.md, held-out figures first: the blind set in
 * bench/memory/blind (when present; skipped otherwise) and the tuning sets under bench/memory/sets,
 * both on the built binary (sets-bench.ts); then recall quality on generated multi-session
 * histories (several seeds, quality.ts; in-sample) and scale with a million events in one project
 * (scale.ts), each against the issues' targets.
 *
 *   full:  the sets; 5 seeds of 60 sessions; 1,000,000 events    (about 5 minutes on 2 idle cores)
 *   quick: the sets; 2 seeds of 60 sessions;   100,000 events    (about 2 minutes)
 *
 *   bun bench/memory/bench-memory.ts [--quick] [--blind DIR]     prints the section
 */
import { count, mb, ms, ratio, table, verdict } from "../markdown.ts";
import { benchMemoryQuality, QUALITY_SEED, type QualityResult } from "./quality.ts";
import { benchMemoryScale, SCALE_SEED, type ScaleResult } from "./scale.ts";
import { benchSets, blindTargetRows, type SetsBench, setsSection } from "./sets-bench.ts";

/** Issue 14's targets (issue 21's on the blind set: sets-bench.ts). */
export const MEMORY_TARGETS = {
  recallAt5: 0.9,
  falseRecall: 0.05,
  injectedTokens: 1200,
  recallP95Ms: 10,
  scaleEvents: 1_000_000,
  insertPerSecond: 20_000,
  bytesPerTextByte: 2,
} as const;

export type MemoryBench = {
  quick: boolean;
  ms: number;
  sets: SetsBench;
  quality: {
    runs: QualityResult[];
    questions: number;
    corrected: number;
    recallAt5: number;
    falseOverCorrected: number;
    falseOverAll: number;
    medianInjected: number;
    p95Injected: number;
    answerInContext: number;
  };
  scale: ScaleResult;
};

const median = (xs: number[], q = 0.5) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

export async function benchMemory(opts: { quick: boolean; blindDir?: string }): Promise<MemoryBench> {
  const started = performance.now();
  const sets = await benchSets({ blindDir: opts.blindDir });
  const seeds = opts.quick ? [QUALITY_SEED, 1] : [QUALITY_SEED, 1, 2, 3, 4];
  const runs: QualityResult[] = [];
  for (const seed of seeds) runs.push(await benchMemoryQuality({ seed }));
  const sum = (f: (r: QualityResult) => number) => runs.reduce((n, r) => n + f(r), 0);
  const questions = sum((r) => r.questions);
  const corrected = sum((r) => r.correctedQuestions);
  const tokens = runs.flatMap((r) => r.counts.tokens);
  const quality = {
    runs,
    questions,
    corrected,
    recallAt5: sum((r) => r.counts.hit) / questions,
    falseOverCorrected: sum((r) => r.counts.falseCorrected) / corrected,
    falseOverAll: sum((r) => r.counts.falseAll) / questions,
    medianInjected: median(tokens),
    p95Injected: median(tokens, 0.95),
    answerInContext: sum((r) => r.counts.inContext) / questions,
  };
  const scale = await benchMemoryScale({ events: opts.quick ? 100_000 : MEMORY_TARGETS.scaleEvents, seed: SCALE_SEED });
  return { quick: opts.quick, ms: Math.round(performance.now() - started), sets, quality, scale };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The rows of the targets: [what, target, measured, PASS/MISS]. */
export function memoryTargetRows(r: MemoryBench): string[][] {
  const q = r.quality;
  const s = r.scale;
  const t = MEMORY_TARGETS;
  const at = `${count(s.events)} events`;
  const atScale = s.events >= t.scaleEvents;
  const scaleNote = atScale ? "" : ` (quick run; the target is at ${count(t.scaleEvents)})`;
  return [
    ...blindTargetRows(r.sets),
    [
      `recall@5, generated histories, in-sample (${count(q.questions)} questions, ${q.runs.length} histories)`,
      `>= ${pct(t.recallAt5)}`,
      pct(q.recallAt5),
      verdict(q.recallAt5 >= t.recallAt5),
    ],
    [
      `false recall, generated histories, in-sample: a replaced value shown as current in the top 5 (${count(q.corrected)} questions about corrected facts)`,
      `<= ${pct(t.falseRecall)}`,
      pct(q.falseOverCorrected),
      verdict(q.falseOverCorrected <= t.falseRecall),
    ],
    [
      "median tokens injected per turn (memory_recall, real tokenizer)",
      `<= ${count(t.injectedTokens)}`,
      count(q.medianInjected),
      verdict(q.medianInjected <= t.injectedTokens),
    ],
    [`memory_recall p95, ${at}${scaleNote}`, `<= ${t.recallP95Ms} ms`, ms(s.recall.p95Ms), verdict(s.recall.p95Ms <= t.recallP95Ms)],
    [
      `insert, events/s, import of ${at} in batches of 5,000${scaleNote}`,
      `>= ${count(t.insertPerSecond)}`,
      count(s.import.eventsPerSecond),
      verdict(s.import.eventsPerSecond >= t.insertPerSecond),
    ],
    [
      `database / event text, ${at}`,
      `<= ${ratio(t.bytesPerTextByte)}`,
      ratio(s.database.perTextByte),
      verdict(s.database.perTextByte <= t.bytesPerTextByte),
    ],
  ];
}

export function memorySection(r: MemoryBench): string {
  const q = r.quality;
  const s = r.scale;
  const rows = memoryTargetRows(r);
  const runs = q.runs.map((x) => [
    String(x.seed),
    count(x.events),
    count(x.summaries),
    count(x.questions),
    pct(x.recallAt5),
    pct(x.falseRecall.overCorrected),
    count(x.injected.medianTokens),
    `${x.corrections.replacedOldValue}/${x.corrections.planted}`,
  ]);
  return [
    "## Episodic memory",
    "",
    `${r.quick ? "Quick run" : "Full run"}, ${(r.ms / 1000).toFixed(0)} s.`,
    "",
    "### Independent histories",
    "",
    setsSection(r.sets),
    "",
    "### Generated histories and scale",
    "",
    `Quality (in-sample: the generator's wording is what the code was first written against): generated histories of 60 sessions each (seeded), with planted ` +
      "facts and preferences, corrections that replace them (some twice, in several wordings; stored as the user's prompts, so the " +
      "service has to recognise them), the assistant repeating what it was told, and everyday noise (tasks, answers, failing " +
      "commands, errors, edited files). Each question is asked when it comes up, sessions after the fact, before it is stored; " +
      "retention (30 days) and rolling summaries happen on the way as they would. recall@5: a top-5 `memory_search` hit is the event " +
      "stating the current value, or a summary line naming it and not marked replaced. Tokens: what `memory_recall` for the question " +
      "returns within the default budget (1,200), counted with o200k. Scale: one project, events a minute apart (1% corrections, 2% " +
      `stated facts, the rest everyday events of one to four sentences of their own kind; ${s.averageEventBytes} bytes on average), imported in batches as \`memory add --jsonl\` does, ` +
      "then every window summarised and every correction checked; retention off so all of them stay; recall and search with " +
      "everyday prompts in a new session.",
    "",
    table(["What", "Target", "Measured", "Result"], rows, ["l", "r", "r", "l"]),
    "",
    table(
      ["Seed", "Events", "Summaries", "Questions", "recall@5", "false recall", "median tokens", "corrections that replaced the old value"],
      runs,
    ),
    "",
    `Scale detail: import ${ms(s.import.ms)}; the maintenance it leaves (summaries of ${count(s.maintenance.summaries)} windows, ` +
      `${count(s.maintenance.replaced)} replacements found, index merges) ${ms(s.maintenance.ms)}, done in bounded steps after writes ` +
      `(both, what \`memory add --jsonl\` waits for: ${count(s.importAndMaintenance.eventsPerSecond)} events/s); ` +
      `a single add p50 ${ms(s.add.p50Ms)}, p95 ${ms(s.add.p95Ms)}; memory_recall p50 ${ms(s.recall.p50Ms)} ` +
      `(median ${count(s.recall.medianTokens)} tokens); memory_search p50 ${ms(s.search.p50Ms)}, p95 ${ms(s.search.p95Ms)}; ` +
      `database ${mb(s.database.bytes)} for ${mb(s.textBytes)} of event text.`,
  ].join("\n");
}

if (import.meta.main) {
  const quick = process.argv.includes("--quick");
  const at = process.argv.indexOf("--blind");
  console.log(memorySection(await benchMemory({ quick, blindDir: at === -1 ? undefined : process.argv[at + 1] })));
}
