/**
 * The store's own answers are never hits: a text kept only as a source of a search or get answer
 * (pruning stores what `context_search` returned) repeats lines of the outputs it came from, and
 * would come back instead of them (and, stored again, without end).
 */
import type { EngineDeps } from "../engine-deps.ts";
import { OWN_ANSWER_TOOLS } from "../next-calls.ts";

/** `AND` a source `s` that is not one of the store's own answers. */
export const NOT_OWN_ANSWER = ` AND s.tool NOT IN (${OWN_ANSWER_TOOLS.map((t) => `'${t}'`).join(", ")})`;

/** The candidate chunks, in order, without those whose text only the store's own answers hold. */
export function withoutOwnAnswers(deps: EngineDeps, ids: number[]): number[] {
  if (ids.length === 0) return ids;
  const keep = new Set(
    deps.db
      .query<{ id: number }, [string]>(
        `SELECT c.id FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))
         AND EXISTS (SELECT 1 FROM sources s WHERE s.blob_id = c.blob_id${NOT_OWN_ANSWER})`,
      )
      .all(JSON.stringify(ids))
      .map((r) => r.id),
  );
  return keep.size === ids.length ? ids : ids.filter((id) => keep.has(id));
}
