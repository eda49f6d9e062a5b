/**
 * Token counts with a real tokenizer (o200k_base, GPT-4o / o-series BPE), never bytes/4.
 * Its tables take ~0.3 s to load, so they load on the first count, not at start-up:
 * commands that count nothing (--version, list, search, get) never pay for them.
 */
import { createRequire } from "node:module";

type Counter = (text: string) => number;

export const TOKENIZER = "o200k_base";

let counter: Counter | null = null;
let tablesFile: string | null = null;

/**
 * Where the tables are when they are not bundled with the code (the pi extension ships them as
 * tokenizer.cjs beside its bundles). The compiled binary carries them inside and never calls this.
 */
export function useTokenizerFile(path: string): void {
  if (tablesFile === path) return;
  tablesFile = path;
  counter = null;
}

function load(): Counter {
  if (tablesFile) return (createRequire(tablesFile)(tablesFile) as { countTokens: Counter }).countTokens;
  return (require("gpt-tokenizer/encoding/o200k_base") as { countTokens: Counter }).countTokens;
}

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  counter ??= load();
  return counter(text);
}
