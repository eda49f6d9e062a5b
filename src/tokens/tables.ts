/** Entry point of dist/extension/tokenizer.cjs: the o200k tables and their counter, a file of their own. */
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import { pieceCounter } from "./piece-counter.ts";

export const countTokens = pieceCounter(o200k.countTokens, o200k);
