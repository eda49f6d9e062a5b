/**
 * Token counts with a real tokenizer (o200k_base, GPT-4o / o-series BPE), never bytes/4.
 * Its tables take ~0.3 s to load, so they load on the first count, not at start-up:
 * commands that count nothing (--version, list, stats, purge, export) never pay for them.
 */
type Counter = (text: string) => number;

export const TOKENIZER = "o200k_base";

let counter: Counter | null = null;

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  counter ??= (require("gpt-tokenizer/encoding/o200k_base") as { countTokens: Counter }).countTokens;
  return counter(text);
}
