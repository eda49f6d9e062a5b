/**
 * The session benchmark: the 24-turn session of plan.ts in real pi (RPC mode, Node 22, scripted
 * model), on pi 0.87.1 and 1.3.0, plain and with the sidecar (default configuration, then each
 * part off in turn), one run after the other. Reports per run: tokens sent over the session, the
 * last request, an ideal prompt cache's view, prefix changes, the tool definitions the sidecar
 * adds, read-cache answers, and answers right (of 10 questions asked after the project changed).
 *
 *   bun bench/prune/run.ts                         every pi version installed, every variant
 *   bun bench/prune/run.ts --pi 1.3.0 --variants plain,default
 *
 * Prints the result as JSON (progress on stderr).
 */
import { existsSync } from "node:fs";
import { PI_PACKAGES, PI_VERSIONS, type PiVersion } from "../../test/e2e/pi/harness.ts";
import { cleanupTempDirs } from "../../test/helpers.ts";
import { log } from "../timing.ts";
import { contentText, perTurn, prefixChanges, tokensOf } from "./analyze.ts";
import { type AddedPart, benchDefinitions } from "./definitions.ts";
import { TURNS, WORK_TURNS } from "./plan.ts";
import { judgeAnswers, type QuestionResult } from "./rehydration.ts";
import { type Batches, groundTruth, runSession, type SessionOptions, type SessionRun, VARIANTS, type Variant } from "./session.ts";

const SEED = 20260822;
/** A 200k-token model (the fake provider's default); pi compacts near it, which plain pi must not reach here. */
const CONTEXT_WINDOW = 200_000;
/** An ideal cache bills a cache hit at this share of an input token (Anthropic's and OpenAI's cached-input prices are 0.1x). */
const CACHE_HIT_PRICE = 0.1;

export type RunSummary = {
  pi: PiVersion;
  variant: string;
  wallMs: number;
  turnMsMedian: number;
  modelCalls: number;
  /** Every model call's tokens, summed (what a provider bills as input without caching). */
  tokensSent: number;
  /** The last model call's tokens. */
  lastRequest: number;
  /** Ideal cache: tokens of each call that were not a byte-identical prefix of the previous call's, summed. */
  uncached: number;
  /** Ideal cache: uncached + CACHE_HIT_PRICE x cached, in input-token units. */
  cacheCost: number;
  /** Tool definitions and system prompt, per call (the first call). */
  definitions: number;
  perTurn: number[];
  prefixChanges: number;
  /** Prefix changes that were not only results turning into pointers (pi compacting, the system prompt or tools changing). */
  otherPrefixChanges: number;
  batches: Batches | null;
  /** What re-reads were answered with: markers and the text. */
  reads: { full: number; unchanged: number; unchangedRange: number; diff: number };
  answersRight: number;
  questions: QuestionResult[];
};

export type Target = { value: number; target: number; met: boolean; note?: string };

export type SessionBenchResult = {
  session: { turns: number; workTurns: number; workToolCalls: number; questions: number; runtime: "node"; contextWindow: number };
  runs: RunSummary[];
  /** Per pi version: tool-definition tokens the sidecar adds per request, in each variant. */
  addedDefinitions: { pi: PiVersion; variant: string; tokens: number }[];
  /** The default configuration in a TypeScript project, part by part (each tool it adds or changes, the system prompt). */
  addedParts: AddedPart[];
  /** Default vs pruning off on the newest pi: the last turn's request and the growth over the second half, as ratios. */
  pruningOnOff: { lastTurn: number; growth: number; turns: [number, number] } | null;
  targets: Record<string, Target>;
  missed: string[];
  totalWallMs: number;
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

function readModes(run: SessionRun): RunSummary["reads"] {
  const seen = new Map<string, string>();
  for (const c of run.calls)
    for (const m of c.messages)
      if (m.role === "toolResult" && m.toolName === "read" && !seen.has(m.toolCallId!)) seen.set(m.toolCallId!, contentText(m.content));
  const reads = { full: 0, unchanged: 0, unchangedRange: 0, diff: 0 };
  for (const t of seen.values()) {
    if (t.startsWith("[readcache: unchanged]")) reads.unchanged++;
    else if (t.startsWith("[readcache: unchanged_range]")) reads.unchangedRange++;
    else if (t.startsWith("[readcache: diff]")) reads.diff++;
    else reads.full++;
  }
  return reads;
}

export function summarize(run: SessionRun, questions: QuestionResult[]): RunSummary {
  const views = tokensOf(run.calls);
  const changes = prefixChanges(run.calls);
  const cached = views.reduce((s, v) => s + v.cached, 0);
  const sent = views.reduce((s, v) => s + v.tokens, 0);
  return {
    pi: run.pi,
    variant: run.variant,
    wallMs: Math.round(run.wallMs),
    turnMsMedian: Math.round(median(run.turnMs.slice(1))),
    modelCalls: run.calls.length,
    tokensSent: sent,
    lastRequest: views.at(-1)?.tokens ?? 0,
    uncached: sent - cached,
    cacheCost: Math.round(sent - cached + CACHE_HIT_PRICE * cached),
    definitions: views[0]?.definitions ?? 0,
    perTurn: perTurn(views, TURNS.length),
    prefixChanges: changes.length,
    otherPrefixChanges: changes.filter((c) => c.other > 0 || c.systemOrTools).length,
    batches: run.batches,
    reads: readModes(run),
    answersRight: questions.filter((q) => q.right).length,
    questions,
  };
}

/** The read cache's other answers to a re-read whose earlier read was pruned (readcache.afterPrune), run on the sidecar's default. */
export const AFTER_PRUNE = ["pin", "pointer"] as const;

function parseArgs(argv: readonly string[]): {
  versions: PiVersion[];
  variants: Variant[];
  extra: Omit<SessionOptions, "seed" | "contextWindow">[];
} {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i === -1 ? undefined : argv[i + 1];
  };
  const versions = (value("--pi")?.split(",") ?? PI_VERSIONS) as PiVersion[];
  const variants = (value("--variants")?.split(",") ?? Object.keys(VARIANTS)) as Variant[];
  for (const v of versions) if (!PI_VERSIONS.includes(v)) throw new Error(`--pi takes ${PI_VERSIONS.join(", ")}, got ${v}`);
  for (const v of variants) if (!(v in VARIANTS)) throw new Error(`--variants takes ${Object.keys(VARIANTS).join(", ")}, got ${v}`);
  const after = (value("--after-prune")?.split(",") ?? []) as (typeof AFTER_PRUNE)[number][];
  for (const a of after) if (!AFTER_PRUNE.includes(a)) throw new Error(`--after-prune takes ${AFTER_PRUNE.join(", ")}, got ${a}`);
  const extra = versions.flatMap((pi) => after.map((a) => ({ pi, variant: "default" as const, config: { readcache: { afterPrune: a } } })));
  return { versions, variants, extra };
}

export async function benchSession(
  options: { versions?: PiVersion[]; variants?: Variant[]; extra?: Omit<SessionOptions, "seed" | "contextWindow">[] } = {},
): Promise<SessionBenchResult> {
  const started = performance.now();
  try {
    const versions = (options.versions ?? [...PI_VERSIONS]).filter((v) => {
      if (existsSync(PI_PACKAGES[v])) return true;
      log(`session bench: pi ${v} is not installed, skipped`);
      return false;
    });
    const variants = options.variants ?? (Object.keys(VARIANTS) as Variant[]);
    log("session bench: ground truth (the plan's calls replayed without pi)");
    const truth = groundTruth(TURNS, SEED);
    const runs: RunSummary[] = [];
    const plan = [
      ...versions.flatMap((pi) => variants.map((variant) => ({ pi, variant }))),
      ...(options.extra ?? []).filter((e) => versions.includes(e.pi)),
    ];
    for (const o of plan) {
      log(`session bench: pi ${o.pi}, ${o.variant}${"config" in o && o.config ? ` ${JSON.stringify(o.config)}` : ""}`);
      const run = await runSession(TURNS, { ...o, seed: SEED, contextWindow: CONTEXT_WINDOW });
      runs.push(summarize(run, judgeAnswers(TURNS, run, truth)));
    }
    log("session bench: tool definitions outside the session (a folder with no code, a small TypeScript project)");
    const concluded = conclude(runs, versions);
    const defs = benchDefinitions(versions);
    concluded.addedDefinitions.push(...defs.added);
    return { ...concluded, addedParts: defs.parts, totalWallMs: Math.round(performance.now() - started) };
  } finally {
    cleanupTempDirs();
  }
}

/** The session's facts, added definitions and targets, from the runs (pi-sidecar on the newest pi that ran plain and default). */
export function conclude(runs: RunSummary[], versions: readonly PiVersion[]): Omit<SessionBenchResult, "totalWallMs" | "addedParts"> {
  const find = (pi: PiVersion, variant: string) => runs.find((r) => r.pi === pi && r.variant === variant);
  const addedDefinitions = runs.flatMap((r) => {
    const plain = find(r.pi, "plain");
    return plain && r.variant !== "plain" ? [{ pi: r.pi, variant: r.variant, tokens: r.definitions - plain.definitions }] : [];
  });
  const targets: Record<string, Target> = {};
  let pruning: SessionBenchResult["pruningOnOff"] = null;
  const newest = [...versions].reverse().find((v) => find(v, "plain") && find(v, "default"));
  if (newest) {
    const plain = find(newest, "plain")!;
    const on = find(newest, "default")!;
    const ratio = round(on.tokensSent / plain.tokensSent);
    targets.tokensVsPlain = { value: ratio, target: 0.5, met: ratio <= 0.5, note: `pi ${newest}, tokens sent over the session` };
    targets.answersVsPlain = {
      value: on.answersRight,
      target: plain.answersRight,
      met: on.answersRight >= plain.answersRight,
      note: `pi ${newest}: answers right with the sidecar, at least plain pi's`,
    };
    const off = find(newest, "pruning off");
    if (off) {
      const n = TURNS.length;
      const half = Math.floor(n / 2);
      const last = round(on.perTurn[n - 1]! / off.perTurn[n - 1]!);
      const growth = round((on.perTurn[n - 1]! - on.perTurn[half - 1]!) / (off.perTurn[n - 1]! - off.perTurn[half - 1]!));
      const perFive = round((on.prefixChanges / n) * 5, 2);
      // Figures, not targets: the 40-turn session those targets were set on read files mostly; here receipts already keep most bulk out.
      pruning = { lastTurn: last, growth, turns: [half, n] };
      targets.prefixChangesPer5Turns = { value: perFive, target: 1, met: perFive <= 1 };
      const pointed = on.questions.filter((q) => q.via === "pointer");
      const exact = pointed.filter((q) => q.right).length;
      targets.rehydrationExact = {
        value: pointed.length === 0 ? 1 : round(exact / pointed.length),
        target: 1,
        met: exact === pointed.length,
        note: `${pointed.length} of ${on.questions.length} answers came through a pruning pointer`,
      };
    }
  }
  const missed = Object.entries(targets)
    .filter(([, t]) => !t.met)
    .map(([k, t]) => `${k}: ${t.value} (target ${t.target})`);
  for (const r of runs)
    if (r.otherPrefixChanges > 0) missed.push(`${r.pi} ${r.variant}: the prefix changed for another reason than pruning`);
  return {
    session: {
      turns: TURNS.length,
      workTurns: WORK_TURNS.length,
      workToolCalls: WORK_TURNS.reduce((s, t) => s + t.steps.flat().length, 0),
      questions: TURNS.length - WORK_TURNS.length,
      runtime: "node",
      contextWindow: CONTEXT_WINDOW,
    },
    runs,
    addedDefinitions,
    pruningOnOff: pruning,
    targets,
    missed,
  };
}

if (import.meta.main) {
  const result = await benchSession(parseArgs(process.argv.slice(2)));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
