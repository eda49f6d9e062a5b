/**
 * A minified file's one line is many chunks, and only the chunks that match the query (with
 * their neighbours) are read: the definition a matching place uses (`--x-duration:294ms` for
 * `transition-duration:var(--x-duration)`) is often in a chunk never read, since it lacks some
 * of the query's words. The names the best places use that no region read defines
 * (definitions.ts) are looked up in their text, and the chunks that give them a value are read too.
 */
import type { EngineDeps } from "../engine-deps.ts";
import { type Filter, identHits } from "./candidates.ts";

/** Names looked up per search, at most (those of the best places). */
const MAX_NAMES = 2;
/** Chunks read per name, at most (its first definitions). */
const PER_NAME = 1;
/** How a name is given its value in CSS and JS (definitions.ts checks that a literal follows). */
const GIVERS = [":", "="];

/** The chunk ids of one text (its blob): contiguous, as they were inserted with it. */
function blobRange(deps: EngineDeps, blob: number): [number, number] | null {
  const r = deps.db
    .query<{ lo: number | null; hi: number | null }, [number]>(
      `SELECT (SELECT id FROM chunks WHERE blob_id = ?1 ORDER BY ordinal LIMIT 1) AS lo,
        (SELECT id FROM chunks WHERE blob_id = ?1 ORDER BY ordinal DESC LIMIT 1) AS hi`,
    )
    .get(blob);
  return r && r.lo !== null && r.hi !== null ? [r.lo, r.hi] : null;
}

/**
 * Chunks, not among `read`, that may define the names in `missing` (`blob name` to the score of
 * the best place using it), for the names whose users score at least `floor`: best first.
 */
export function definitionChunks(deps: EngineDeps, missing: Map<string, number>, floor: number, read: Set<number>): number[] {
  const names = [...missing]
    .filter(([, score]) => score >= floor)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_NAMES);
  const out: number[] = [];
  for (const [key] of names) {
    const cut = key.indexOf(" ");
    const range = blobRange(deps, Number(key.slice(0, cut)));
    if (!range) continue;
    const name = key.slice(cut + 1);
    const f: Filter = { and: "", sql: "", params: [], sqlParams: [], range };
    const ids = GIVERS.flatMap((g) => identHits(deps, [name + g], f))
      .filter((id) => !read.has(id) && !out.includes(id))
      .sort((a, b) => a - b)
      .slice(0, PER_NAME);
    out.push(...ids);
  }
  return out;
}
