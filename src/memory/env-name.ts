/**
 * A question asking which environment variable: the answer is a name, and a process environment's
 * names are written in capitals, digits and underscores (POSIX.1-2017, Base Definitions, 8.1:
 * "Environment variable names used by the utilities ... consist solely of uppercase letters,
 * digits, and the <underscore>"). A text naming one is typed evidence for it, as a value is for a
 * quantity (gate.ts).
 */
import { lineBody } from "./summary-line.ts";

/** "which env var", "what environment variable", "env variables": the question names the kind of thing asked for. */
export const asksEnvName = (query: string) => /\benv(?:ironment)?\s+var(?:iable)?s?\b/i.test(query);

/** A name in capitals with an underscore between two parts (`DATABASE_URL`, `S3_BUCKET`), not a word in capitals. */
const ENV_NAME = /(?<![\p{L}\p{N}_])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\p{L}\p{N}_])/u;

/** Whether a text names an environment variable (ENV_NAME). */
export const namesEnvName = (text: string) => ENV_NAME.test(lineBody(text));
