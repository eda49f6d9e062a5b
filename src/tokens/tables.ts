/** Entry point of dist/extension/tokenizer.cjs: the o200k tables and their counter, a file of their own. */
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import { pieceCounter } from "./piece-counter.ts";

/**
 * Text that spells a special token (`<|endoftext|>` in a tool's output, a model's source) is counted
 * as the text it is, as a provider encodes what a user sends: the package would throw on it.
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

export const countTokens = pieceCounter((text) => o200k.countTokens(text, AS_TEXT), o200k);
