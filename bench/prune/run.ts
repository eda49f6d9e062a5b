/**
 * The context-pruning benchmark: the 40-turn session of plan.ts in real pi (RPC mode, Node 22,
 * scripted model), once with pruning (default configuration) and once without
 * (PI_SIDECAR_PRUNE=0), one after the other. Reports tokens sent per turn (real tokenizer),
 * prefix changes, batches, and whether the questions got the exact text back, against the
 * targets of the pruning issue.
 *
 *   bun bench/prune/run.ts          prints the result as JSON (progress on stderr)
 */
import { cleanupTempDirs } from "../../test/helpers.ts";
import { log } from "../timing.ts";
import { type PrefixChange, perTurn, prefixChanges, tokensOf } from "./analyze.ts";
import { CHANGE_BEFORE_TURN, TURNS, WORK_TURNS } from "./plan.ts";
import { judgeQuestions, type QuestionResult } from "./rehydration.ts";
import { type Batches, runSession, type SessionRun } from "./session.ts";

const SEED = 20260822;
/** A 200k-token model (the fake provider's default); pi compacts near it, which the run without pruning must not reach. */
const CONTEXT_WINDOW = 200_000;

export type RunSummary = {
  pruning: boolean;
  wallMs: number;
  /** User turns, prompt to settled: the first (with pi's and the engine's start), then the median and slowest of the rest. */
  firstTurnMs: number;
  turnMsMedian: number;
  turnMsMax: number;
  modelCalls: number;
  /** Every model call's tokens, summed (what a provider bills as input without caching). */
  tokensSentTotal: number;
  /** Tokens of each user turn's first model call (index 0 is turn 1). */
  perTurn: number[];
  prefixChanges: PrefixChange[];
  /** Batches as the sidecar recorded them (pruning on). */
  batches: Batches | null;
  /** Prefix changes that were not only results turning into pointers (pi compacting, the system prompt or tools changing). */
  otherPrefixChanges: number;
};

export type Target = { value: number; target: number; met: boolean; note?: string };

export type PruneBenchResult = {
  session: {
    turns: number;
    workTurns: number;
    questions: number;
    changesBeforeTurn: number;
    runtime: "node";
    /** The engine process pi used, as seen in /proc in each run. */
    engine: { on: string; off: string };
    contextWindow: number;
    /** Without pruning: tokens the 30 work turns added, per turn, and all 40 turns. */
    tokensAddedPerWorkTurn: number;
    tokensAddedPerTurn: number;
  };
  on: RunSummary;
  off: RunSummary;
  turns: { turn: number; on: number; off: number; ratio: number }[];
  turn40: { on: number; off: number; ratio: number };
  /** The on/off ratio over the last ten turns: pruned tokens go up and down with the batches, so turn 40 is one point of a sawtooth. */
  ratioTurns31to40: { min: number; max: number; maxAtTurn: number };
  /** Turn 40 minus turn 20 (the target's measure), and the least-squares slope over turns 20-40 (tokens per turn), less sensitive to where the batches fall. */
  growth20to40: { on: number; off: number; ratio: number; slopeOn: number; slopeOff: number; slopeRatio: number };
  rehydration: {
    asked: number;
    exact: number;
    fullTextExact: number;
    prunedAtQuestion: number;
    changedOnDisk: number;
    questions: QuestionResult[];
  };
  targets: { turn40Ratio: Target; growthRatio: Target; prefixChangesPer5Turns: Target; rehydrationExact: Target };
  missed: string[];
  totalWallMs: number;
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Least-squares slope of ys over consecutive turns. */
function slope(ys: number[]): number {
  const n = ys.length;
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

function summarize(run: SessionRun): RunSummary {
  const views = tokensOf(run.calls);
  const changes = prefixChanges(run.calls);
  return {
    pruning: run.pruning,
    wallMs: Math.round(run.wallMs),
    firstTurnMs: Math.round(run.turnMs[0] ?? 0),
    turnMsMedian: Math.round(median(run.turnMs.slice(1))),
    turnMsMax: Math.round(Math.max(...run.turnMs.slice(1))),
    modelCalls: run.calls.length,
    tokensSentTotal: views.reduce((s, v) => s + v.tokens, 0),
    perTurn: perTurn(views, TURNS.length),
    prefixChanges: changes,
    batches: run.batches,
    otherPrefixChanges: changes.filter((c) => c.other > 0 || c.systemOrTools).length,
  };
}

export async function benchPrune(): Promise<PruneBenchResult> {
  const started = performance.now();
  try {
    log("prune bench: session with pruning");
    const onRun = await runSession(TURNS, { pruning: true, seed: SEED, contextWindow: CONTEXT_WINDOW });
    log("prune bench: session without pruning");
    const offRun = await runSession(TURNS, { pruning: false, seed: SEED, contextWindow: CONTEXT_WINDOW });
    log("prune bench: counting tokens");
    const on = summarize(onRun);
    const off = summarize(offRun);
    const questions = judgeQuestions(TURNS, onRun, offRun);
    const n = TURNS.length;
    const at = (s: RunSummary, t: number) => s.perTurn[t - 1]!;
    const turn40 = { on: at(on, n), off: at(off, n), ratio: round(at(on, n) / at(off, n)) };
    const slopeOn = slope(on.perTurn.slice(19, n));
    const slopeOff = slope(off.perTurn.slice(19, n));
    const growthOn = at(on, n) - at(on, 20);
    const growthOff = at(off, n) - at(off, 20);
    const growth = {
      on: growthOn,
      off: growthOff,
      ratio: round(growthOn / growthOff),
      slopeOn: Math.round(slopeOn),
      slopeOff: Math.round(slopeOff),
      slopeRatio: round(slopeOn / slopeOff),
    };
    const turns = on.perTurn.map((t, i) => ({ turn: i + 1, on: t, off: off.perTurn[i]!, ratio: round(t / off.perTurn[i]!) }));
    const last10 = turns.slice(n - 10);
    const worst = last10.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    const ratioTurns31to40 = { min: Math.min(...last10.map((t) => t.ratio)), max: worst.ratio, maxAtTurn: worst.turn };
    const exact = questions.filter((q) => q.exact).length;
    const perFive = round((on.prefixChanges.length / n) * 5, 2);
    const targets = {
      turn40Ratio: { value: turn40.ratio, target: 0.35, met: turn40.ratio <= 0.35 },
      growthRatio: { value: growth.ratio, target: 0.25, met: growth.ratio <= 0.25 },
      prefixChangesPer5Turns: { value: perFive, target: 1, met: perFive <= 1 },
      rehydrationExact: {
        value: round(exact / questions.length),
        target: 1,
        met: exact === questions.length,
        note: `${questions.filter((q) => q.prunedAtQuestion).length} of ${questions.length} targets were pointers when asked`,
      },
    };
    const missed = Object.entries(targets)
      .filter(([, t]) => !t.met)
      .map(([k, t]) => `${k}: ${t.value} (target ${k === "rehydrationExact" ? "=" : "<="} ${t.target})`);
    if (on.otherPrefixChanges + off.otherPrefixChanges > 0)
      missed.push("a prefix changed for another reason than pruning (compaction?): the token comparison may not be like for like");
    return {
      session: {
        turns: n,
        workTurns: WORK_TURNS.length,
        questions: questions.length,
        changesBeforeTurn: CHANGE_BEFORE_TURN,
        runtime: "node",
        engine: { on: onRun.engine, off: offRun.engine },
        contextWindow: CONTEXT_WINDOW,
        tokensAddedPerWorkTurn: Math.round((at(off, WORK_TURNS.length + 1) - at(off, 1)) / WORK_TURNS.length),
        tokensAddedPerTurn: Math.round((at(off, n) - at(off, 1)) / (n - 1)),
      },
      on,
      off,
      turns,
      turn40,
      ratioTurns31to40,
      growth20to40: growth,
      rehydration: {
        asked: questions.length,
        exact,
        fullTextExact: questions.filter((q) => q.fullTextExact === true).length,
        prunedAtQuestion: questions.filter((q) => q.prunedAtQuestion).length,
        changedOnDisk: questions.filter((q) => q.changedOnDisk === true).length,
        questions,
      },
      targets,
      missed,
      totalWallMs: Math.round(performance.now() - started),
    };
  } finally {
    cleanupTempDirs();
  }
}

if (import.meta.main) {
  const result = await benchPrune();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
