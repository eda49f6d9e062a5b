/**
 * The store's own answers are never hits: a text kept only as a source of a search or get answer
 * (pruning stores what `context_search` returned) repeats lines of the outputs it came from, and
 * would come back instead of them (and, stored again, without end).
 */
import type { EngineDeps } from "../engine-deps.ts";
import { OWN_ANSWER_TOOLS } from "../next-calls.ts";

/** `AND` a source `s` that is not one of the store's own answers. */
export const NOT_OWN_ANSWER = ` AND s.tool NOT IN (${OWN_ANSWER_TOOLS.map((t) => `'${t}'`).join(", ")})`;

/**
 * The first `want` candidate chunks, in order, without those whose text only the store's own
 * answers hold. Only as many are looked up as may still be wanted (a search reads the first few).
 */
export function withoutOwnAnswers(deps: EngineDeps, ids: number[], want = ids.length): number[] {
  const kept: number[] = [];
  const own = deps.db.query<{ id: number }, [string]>(
    `SELECT c.id FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))
     AND EXISTS (SELECT 1 FROM sources s WHERE s.blob_id = c.blob_id${NOT_OWN_ANSWER})`,
  );
  for (let from = 0; from < ids.length && kept.length < want; ) {
    const slice = ids.slice(from, from + want - kept.length);
    from += slice.length;
    const keep = new Set(own.all(JSON.stringify(slice)).map((r) => r.id));
    for (const id of slice) if (keep.has(id)) kept.push(id);
  }
  return kept;
}
