/**
 * The memory evaluation sets in the benchmark: the blind held-out set first (histories and
 * questions written by someone who never read src/, kept out of the repository and never tuned
 * on), then the tuning sets under bench/memory/sets (in-sample: the code was fitted to them).
 * Run on the built binary (`dist/pi-sidecar`, one process per call, a scratch HOME) as a user
 * would; in-process only when there is no binary.
 *
 *   bench/memory/blind/<project>/history.jsonl     one event a line: {kind, session, text, ts}
 *   bench/memory/blind/<project>/questions.json    [{id, query, answerContains, staleContains,
 *                                                    askedAfterTs, kind: fact|corrected|absent}]
 *   bench/memory/blind/<project>/facts.json        optional: the planted statements (false recall);
 *                                                    without it, the project's answers and stale values
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { count, table, verdict } from "../markdown.ts";
import { log } from "../timing.ts";
import { type Backend, binaryBackend, inProcessBackend, runSet, type SetResult } from "./eval-set.ts";
import { findSets, loadSet } from "./sets.ts";

const ROOT = join(import.meta.dir, "..", "..");

/** Where the lead puts the blind set before a run (git-ignored). */
export const BLIND_DIR = join(import.meta.dir, "blind");

/** A set's figures without the per-question detail (kept for the misses). */
export type SetFigures = Omit<SetResult, "questions"> & { misses: string[] };

export type SetsBench = { blind: SetFigures | null; blindDir: string; tuning: SetFigures[] };

/** Issue 21's targets on the blind set. */
export const SET_TARGETS = { recallAt5: 0.9, staleAbove: 0, falseRecall: 0.05 } as const;

function figures(r: SetResult): SetFigures {
  const { questions, ...rest } = r;
  const misses = questions
    .filter((q) => (q.kind !== "absent" && !q.answered) || q.staleAbove || q.falseRecall)
    .map((q) => `${q.falseRecall ? "false recall" : q.staleAbove ? "stale above" : "miss"} ${q.project}/${q.id}`);
  return { ...rest, misses };
}

function backend(bin: string): Backend {
  return existsSync(bin) ? binaryBackend(bin) : inProcessBackend();
}

async function runOne(dir: string, bin: string): Promise<SetFigures> {
  const b = backend(bin);
  try {
    const r = figures(await runSet(loadSet(dir), b));
    log(
      `memory set ${r.set} (${r.backend}): recall@5 ${r.answered}/${r.answerable}, stale above ${r.staleAbove}/${r.corrected}, ` +
        `false recall ${r.falseRecalls}/${r.absent}, ${(r.ms / 1000).toFixed(0)} s`,
    );
    return r;
  } finally {
    b.close();
  }
}

/** The blind set (when there is one; skipped otherwise) first, then every tuning set. */
export async function benchSets(options: { blindDir?: string; bin?: string } = {}): Promise<SetsBench> {
  const bin = options.bin ?? join(ROOT, "dist", "pi-sidecar");
  const found = findSets(import.meta.dir);
  if (options.blindDir !== undefined && !existsSync(options.blindDir)) throw new Error(`no blind set at ${options.blindDir}`);
  const blindDir = options.blindDir ?? found.blind;
  if (!blindDir) log(`memory: no blind set in ${BLIND_DIR}: skipped (the held-out figures need one)`);
  const blind = blindDir ? await runOne(blindDir, bin) : null;
  const tuning: SetFigures[] = [];
  for (const dir of found.sets) tuning.push(await runOne(dir, bin));
  return { blind, blindDir: blindDir ?? BLIND_DIR, tuning };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The target rows of the blind set: [what, target, measured, PASS/MISS]; none without a blind set. */
export function blindTargetRows(s: SetsBench): string[][] {
  const b = s.blind;
  if (!b) return [];
  const t = SET_TARGETS;
  const at = `blind held-out set, ${b.projects} projects, ${count(b.events)} events`;
  return [
    [`recall@5, ${at} (${b.answerable} questions)`, `>= ${pct(t.recallAt5)}`, pct(b.recallAt5), verdict(b.recallAt5 >= t.recallAt5)],
    [
      `a stale statement above its correction, ${at} (${b.corrected} corrected facts)`,
      String(t.staleAbove),
      String(b.staleAbove),
      verdict(b.staleAbove <= t.staleAbove),
    ],
    [
      `false recall, ${at} (${b.absent} questions with no answer)`,
      `<= ${pct(t.falseRecall)}`,
      b.absent === 0 ? "n/a" : pct(b.falseRecall),
      b.absent === 0 ? "n/a" : verdict(b.falseRecall <= t.falseRecall),
    ],
    [
      `recall injection within its token budget, ${at}`,
      "all",
      `${b.withinBudget}/${b.answerable + b.absent}`,
      verdict(b.withinBudget === b.answerable + b.absent),
    ],
  ];
}

function setRow(r: SetFigures, what: string): string[] {
  return [
    `${what} ${r.set}`,
    r.backend,
    String(r.projects),
    count(r.events),
    `${r.answered}/${r.answerable} (${pct(r.recallAt5)})`,
    `${r.staleAbove}/${r.corrected}`,
    r.absent === 0 ? "n/a" : `${r.falseRecalls}/${r.absent} (${pct(r.falseRecall)})`,
    `${r.withinBudget}/${r.answerable + r.absent}`,
    `${r.answerInjected}/${r.answerable}`,
  ];
}

/** Markdown: the blind set first (or why there is none), then the tuning sets, marked in-sample. */
export function setsSection(s: SetsBench): string {
  const rows = [...(s.blind ? [setRow(s.blind, "held out (blind):")] : []), ...s.tuning.map((r) => setRow(r, "tuning (in-sample):"))];
  const lines = [
    s.blind
      ? "Held out first: histories and questions written by someone who never read `src/`, with the answers fixed first, kept out of " +
        "the repository and never tuned on. Each history is imported up to the moment each question is asked, then `memory search Q " +
        "--limit 5` and `memory recall --prompt Q` are run on the built binary. Tuning sets below are in-sample."
      : `No blind held-out set was present (${s.blindDir}): every figure below is in-sample.`,
    "",
  ];
  if (rows.length > 0)
    lines.push(
      table(
        [
          "Set",
          "Run on",
          "Projects",
          "Events",
          "recall@5",
          "stale above its correction",
          "false recall",
          "injection within budget",
          "answer in the injection",
        ],
        rows,
        ["l", "l", "r", "r", "r", "r", "r", "r", "r"],
      ),
    );
  if (s.blind && s.blind.misses.length > 0) lines.push("", `Held-out misses: ${s.blind.misses.join(", ")}.`);
  return lines.join("\n");
}
