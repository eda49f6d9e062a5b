/** Entry point of dist/extension/tokenizer.cjs: the o200k tables and their counter, a file of their own. */
export { countTokens } from "gpt-tokenizer/encoding/o200k_base";
