/**
 * Whether each question got the right answer: the first line matching the question's pattern in
 * what the target call showed when it ran (ground truth, replayed without pi: session.ts). How
 * the model got it: from the result in view, through a pruning pointer (context_get), a receipt
 * (context_search) or pi's full-output file (grep). A pointer's answer also counts the text its
 * context_get calls brought back, joined, against the result as this run first showed it.
 * "Changed on disk" says reading the file or running the command now gives another line, so
 * only the earlier result could answer.
 */
import { contentText, turnOf } from "./analyze.ts";
import { type QuestionTurn, type Turn, targetCallId } from "./plan.ts";
import type { GroundTruth, LoggedCall, SessionRun } from "./session.ts";

export type QuestionResult = {
  turn: number;
  question: string;
  expected: string | null;
  answered: string | null;
  right: boolean;
  via: "in view" | "pointer" | "receipt" | "pi's file" | "none";
  retrievalCalls: number;
  /** The context_get answers joined equal the whole result as first shown (null: no context_get). */
  fullTextExact: boolean | null;
  changedOnDisk: boolean | null;
};

function firstText(calls: readonly LoggedCall[], callId: string): string | null {
  for (const c of calls) {
    const m = c.messages.find((x) => x.role === "toolResult" && x.toolCallId === callId);
    if (m) return contentText(m.content);
  }
  return null;
}

const firstMatch = (text: string | undefined, pattern: RegExp) => text?.split("\n").find((l) => pattern.test(l)) ?? null;

function parseAnswer(answer: string): string | null {
  const m = /^ANSWER: (".*")$/m.exec(answer);
  if (!m) return null;
  try {
    return JSON.parse(m[1]!) as string;
  } catch {
    return null;
  }
}

const HEADER = /^\[ctx_[0-9a-z]+ lines \d+-\d+ of \d+\]\n/;
const FOOTER = /\n\[cut at the size cap; continue with context_get \{[^}]*\}\]$/;
const VIA = { context_get: "pointer", context_search: "receipt", bash: "pi's file" } as const;

function judge(q: QuestionTurn, turn: number, run: SessionRun, truth: GroundTruth): QuestionResult {
  const pattern = new RegExp(q.pattern);
  const id = targetCallId(q.target, q.occurrence);
  const expected = firstMatch(truth.shown.get(id), pattern);
  const last = run.calls.filter((c) => turnOf(c) === turn).at(-1);
  const lastUser = last ? last.messages.map((m) => m.role).lastIndexOf("user") : -1;
  const retrieved = last ? last.messages.slice(lastUser + 1).filter((m) => m.role === "toolResult") : [];
  const answered = parseAnswer(run.answers[turn - 1] ?? "");
  // A pointer's context_get calls bring back the whole result; after a search, one is only a clipped hit's line.
  const gets = retrieved[0]?.toolName === "context_get" ? retrieved.filter((m) => m.toolName === "context_get") : [];
  const original = firstText(run.calls, id);
  const fullTextExact =
    gets.length === 0 || original === null
      ? null
      : gets.map((m) => contentText(m.content).replace(HEADER, "").replace(FOOTER, "")).join("") === original;
  const now = truth.now.get(id);
  return {
    turn,
    question: q.prompt,
    expected,
    answered,
    right: expected !== null && answered === expected && fullTextExact !== false,
    via: answered === null ? "none" : (VIA[retrieved[0]?.toolName as keyof typeof VIA] ?? "in view"),
    retrievalCalls: retrieved.length,
    fullTextExact,
    changedOnDisk: expected === null || now === undefined ? null : firstMatch(now, pattern) !== expected,
  };
}

export function judgeAnswers(plan: readonly Turn[], run: SessionRun, truth: GroundTruth): QuestionResult[] {
  return plan.flatMap((t, i) => (t.kind === "question" ? [judge(t, i + 1, run, truth)] : []));
}
