/**
 * What a session run sent, from the fake provider's log: tokens of every model call (the real
 * tokenizer, o200k, over the system prompt, the tool definitions and each message as JSON), the
 * tokens of each user turn's first call, an ideal prompt cache's view (each call's leading part
 * that is byte-identical to the previous call's is a cache hit; the rest is paid in full), and
 * the calls whose messages are not a byte-identical extension of the previous call's (each one
 * invalidates a provider's prompt cache).
 */
import { countTokens } from "../../src/tokens/count.ts";
import type { LoggedCall } from "./session.ts";

export type CallView = { turn: number; tokens: number; cached: number; definitions: number };

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

/** Tokens of each call, and how many of them an ideal prompt cache would have held from the previous call. */
export function tokensOf(calls: readonly LoggedCall[]): CallView[] {
  const memo = new Map<string, number>();
  const count = (json: string) => {
    let n = memo.get(json);
    if (n === undefined) {
      n = countTokens(json);
      memo.set(json, n);
    }
    return n;
  };
  let previous: { head: string; messages: string[] } | null = null;
  return calls.map((c) => {
    const head = JSON.stringify({ systemPrompt: c.systemPrompt, tools: c.tools });
    const messages = c.messages.map((m) => JSON.stringify(m));
    const parts = messages.map(count);
    const definitions = count(head);
    const tokens = definitions + parts.reduce((a, b) => a + b, 0);
    let cached = 0;
    if (previous && previous.head === head) {
      cached = definitions;
      for (let i = 0; i < messages.length && i < previous.messages.length && messages[i] === previous.messages[i]; i++) cached += parts[i]!;
    }
    previous = { head, messages };
    return { turn: turnOf(c), tokens, cached, definitions };
  });
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
