/**
 * The store's own answers are never hits: a text kept only as a source of a search or get answer
 * (pruning stores what `context_search` returned) repeats lines of the outputs it came from, and
 * would come back instead of them (and, stored again, without end).
 */
import { OWN_ANSWER_TOOLS } from "../next-calls.ts";

/** `AND` a source `s` that is not one of the store's own answers. */
export const NOT_OWN_ANSWER = ` AND s.tool NOT IN (${OWN_ANSWER_TOOLS.map((t) => `'${t}'`).join(", ")})`;
