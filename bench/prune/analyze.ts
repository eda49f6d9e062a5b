/**
 * What a session run sent, from the fake provider's log: tokens of every model call (the real
 * tokenizer over system prompt, tools and messages, as test/e2e/pi/harness.ts counts them), the
 * tokens of each user turn's first call, and the calls whose messages are not a byte-identical
 * extension of the previous call's (each one invalidates a provider's prompt cache).
 */
import { countTokens } from "../../src/tokens/count.ts";
import type { LoggedCall } from "./session.ts";

export type CallView = { turn: number; tokens: number };

export type PrefixChange = {
  /** The call (0-based) whose prefix changed and its user turn (1-based). */
  call: number;
  turn: number;
  /** Messages of the previous call that changed: tool results turned into pointers, and anything else. */
  toPointers: number;
  other: number;
  systemOrTools: boolean;
};

export const contentText = (content: unknown): string =>
  Array.isArray(content)
    ? content.map((c: { type?: string; text?: string }) => (c.type === "text" ? (c.text ?? "") : "")).join("")
    : String(content ?? "");

export function turnOf(call: LoggedCall): number {
  return call.messages.filter((m) => m.role === "user").length;
}

export function tokensOf(calls: readonly LoggedCall[]): CallView[] {
  return calls.map((c) => ({
    turn: turnOf(c),
    tokens: countTokens(JSON.stringify({ systemPrompt: c.systemPrompt, tools: c.tools, messages: c.messages })),
  }));
}

/** Tokens of each user turn's first model call (index 0 is turn 1). */
export function perTurn(views: readonly CallView[], turns: number): number[] {
  const out: number[] = [];
  for (let t = 1; t <= turns; t++) out.push(views.find((v) => v.turn === t)?.tokens ?? Number.NaN);
  return out;
}

export function prefixChanges(calls: readonly LoggedCall[]): PrefixChange[] {
  const changes: PrefixChange[] = [];
  for (let i = 1; i < calls.length; i++) {
    const prev = calls[i - 1]!;
    const now = calls[i]!;
    const systemOrTools = prev.systemPrompt !== now.systemPrompt || JSON.stringify(prev.tools) !== JSON.stringify(now.tools);
    let toPointers = 0;
    let other = 0;
    for (let k = 0; k < prev.messages.length; k++) {
      const a = prev.messages[k]!;
      const b = now.messages[k];
      if (b !== undefined && JSON.stringify(a) === JSON.stringify(b)) continue;
      if (b?.role === "toolResult" && contentText(b.content).startsWith("[pruned]") && !contentText(a.content).startsWith("[pruned]"))
        toPointers++;
      else other++;
    }
    if (systemOrTools || toPointers > 0 || other > 0) changes.push({ call: i, turn: turnOf(now), toPointers, other, systemOrTools });
  }
  return changes;
}
