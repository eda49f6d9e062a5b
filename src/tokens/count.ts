/**
 * Token counts with a real tokenizer (o200k_base, GPT-4o / o-series BPE), never bytes/4.
 * Its tables take ~0.3 s to load, so they load on the first count, not at start-up:
 * commands that count nothing (--version, list, search, get) never pay for them.
 */
import { createRequire } from "node:module";

type Counter = (text: string) => number;

export const TOKENIZER = "o200k_base";

/** Set by the build for the compiled binary: the tables' own module in its embedded file system (one copy for every thread). */
declare const PI_SIDECAR_TOKENIZER: string | undefined;

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

function missing(): never {
  throw new Error("the tokenizer tables are missing from this build");
}

function load(): Counter {
  const file = tablesFile ?? (typeof PI_SIDECAR_TOKENIZER === "string" ? PI_SIDECAR_TOKENIZER : null);
  if (file) return (createRequire(file)(file) as { countTokens: Counter }).countTokens;
  // A constant condition in the binary: the bundler drops this require, so the tables are not copied in.
  return typeof PI_SIDECAR_TOKENIZER === "string" ? missing() : (require("./tables.ts") as { countTokens: Counter }).countTokens;
}

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  counter ??= load();
  return counter(text);
}
