import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";

/** The tokenizer every token figure uses (GPT-4o / o-series BPE). Never bytes/4. */
export const TOKENIZER = "o200k_base";

export function countTokens(text: string): number {
  return text.length === 0 ? 0 : countO200k(text);
}
