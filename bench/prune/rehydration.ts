/**
 * Whether each question got the exact text back. The expected line is the first line matching
 * the question's pattern in the result as it was first shown (the pruned run's log, where the
 * result was still whole; for a receipt, what the command printed when it ran). A pruned answer
 * counts as exact when the quoted line is that line, and the text its context_get calls brought
 * back, joined, is byte-identical to the whole original result. "Changed on disk" says reading
 * the file or running the command now gives another line, so only the stored text could answer.
 */

import { contentText, turnOf } from "./analyze.ts";
import { type QuestionTurn, type ToolStep, type Turn, WORK_TURNS } from "./plan.ts";
import type { LoggedCall, SessionRun } from "./session.ts";

export type QuestionResult = {
  turn: number;
  question: string;
  target: string;
  via: "get" | "search";
  expected: string | null;
  /** Pruning on: was the target a pointer when the question came, and what came back. */
  prunedAtQuestion: boolean;
  retrievalCalls: number;
  answered: string | null;
  exact: boolean;
  /** The context_get answers joined equal the whole original result (null: not retrieved by context_get). */
  fullTextExact: boolean | null;
  /** Pruning off: the same question answered exactly from that run's own result (in view there). */
  offExact: boolean;
  /** The original result is the same text in both runs (not for a receipt, which names its own source id, nor a search, whose store differs). */
  sameInBothRuns: boolean;
  /** Reading the file or running the command now gives another line (null: not a file or command). */
  changedOnDisk: boolean | null;
};

const same = (a: ToolStep, b: ToolStep) => a.name === b.name && JSON.stringify(a.arguments) === JSON.stringify(b.arguments);

/** The deterministic id the scripted model gave the target call (model-script.ts). */
export function targetCallId(target: ToolStep): string {
  for (let t = 0; t < WORK_TURNS.length; t++) {
    const steps = WORK_TURNS[t]!.steps;
    for (let s = 0; s < steps.length; s++) {
      const k = steps[s]!.findIndex((x) => same(x, target));
      if (k !== -1) return `call_t${t + 1}_s${s}_${k}`;
    }
  }
  throw new Error(`no work turn makes the call ${JSON.stringify(target)}`);
}

function firstText(calls: readonly LoggedCall[], callId: string): string | null {
  for (const c of calls) {
    const m = c.messages.find((x) => x.role === "toolResult" && x.toolCallId === callId);
    if (m) return contentText(m.content);
  }
  return null;
}

const firstMatch = (text: string, pattern: RegExp) => text.split("\n").find((l) => pattern.test(l)) ?? null;

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

/** The lines of a read as the tool shows them (offset and limit applied) of a file's current text. */
function readNow(text: string, args: Record<string, unknown>): string {
  const offset = Math.max(1, Number(args.offset ?? 1));
  const lines = text.split("\n");
  return lines.slice(offset - 1, args.limit === undefined ? undefined : offset - 1 + Number(args.limit)).join("\n");
}

function judge(q: QuestionTurn, turn: number, on: SessionRun, off: SessionRun): QuestionResult {
  const pattern = new RegExp(q.pattern);
  const id = targetCallId(q.target);
  const original = firstText(on.calls, id);
  const offOriginal = firstText(off.calls, id);
  const command = q.target.name === "bash" ? String(q.target.arguments.command) : null;
  const printed = command ? on.printed.get(command) : undefined;
  const expectedIn = (run: SessionRun, text: string | null) => {
    const p = command ? run.printed.get(command) : undefined;
    if (q.via === "search") return p ? firstMatch(p.before, pattern) : null;
    return text === null ? null : firstMatch(text, pattern);
  };
  const expected = expectedIn(on, original);
  const offExpected = expectedIn(off, offOriginal);
  const turnCalls = on.calls.filter((c) => turnOf(c) === turn);
  const first = turnCalls[0];
  const last = turnCalls.at(-1);
  const targetAtQuestion = first?.messages.find((m) => m.role === "toolResult" && m.toolCallId === id);
  const prunedAtQuestion = targetAtQuestion !== undefined && contentText(targetAtQuestion.content).startsWith("[pruned]");
  const lastUser = last ? last.messages.map((m) => m.role).lastIndexOf("user") : -1;
  const retrieved = last ? last.messages.slice(lastUser + 1).filter((m) => m.role === "toolResult") : [];
  const answered = parseAnswer(on.answers[turn - 1] ?? "");
  const gets = retrieved.filter((m) => m.toolName === "context_get");
  const fullTextExact =
    gets.length === 0 || original === null
      ? null
      : gets.map((m) => contentText(m.content).replace(HEADER, "").replace(FOOTER, "")).join("") === original;
  let changedOnDisk: boolean | null = null;
  if (expected !== null) {
    if (printed) changedOnDisk = firstMatch(printed.now, pattern) !== expected;
    else if (q.target.name === "read")
      changedOnDisk = firstMatch(readNow(on.readNow(String(q.target.arguments.path)), q.target.arguments), pattern) !== expected;
  }
  return {
    turn,
    question: q.prompt,
    target: `${q.target.name} ${JSON.stringify(q.target.arguments)}`,
    via: q.via,
    expected,
    prunedAtQuestion,
    retrievalCalls: retrieved.length,
    answered,
    exact: expected !== null && answered === expected && fullTextExact !== false,
    fullTextExact,
    offExact: offExpected !== null && parseAnswer(off.answers[turn - 1] ?? "") === offExpected,
    sameInBothRuns: original !== null && original === offOriginal,
    changedOnDisk,
  };
}

export function judgeQuestions(plan: readonly Turn[], on: SessionRun, off: SessionRun): QuestionResult[] {
  return plan.flatMap((t, i) => (t.kind === "question" ? [judge(t, i + 1, on, off)] : []));
}
