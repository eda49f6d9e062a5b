/**
 * The newest statement of a subject first. Two statements among the hits that say much the same
 * about the same thing ("lake tables stay plain parquet partitioned by dt" and, later, "lake
 * tables converted to iceberg, partitioned by event_ts") are the same subject stated twice: the
 * later one is what holds now, whether or not a correction link was made when it was written
 * (supersede.ts links what says it changes something; a record that just states the new way does
 * not). The later statement is ranked just above the earlier one; neither is marked replaced (only
 * a link says that), so both stay in the hits.
 */
import { tokenKeys, valueLike } from "./classify.ts";
import { ABOVE } from "./conflicts.ts";
import type { Hit, Unit } from "./units.ts";

/** Shared words (not values) at least, and their share of the shorter statement's words. */
const MIN_SHARED = 2;
const MIN_SHARE = 0.4;

const label = /^- e\d+ [\w ]+(?: \(x\d+\))?: /;

/** A statement's words as keys (values left out: they are what changes). */
function subjectKeys(u: Unit): Set<string> {
  return new Set([...tokenKeys(u.text.replace(label, ""))].filter((k) => !valueLike(k)));
}

/** Whether two statements' words say they are about the same thing. */
export function sameSubject(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  let shared = 0;
  for (const k of a) if (b.has(k)) shared++;
  return shared >= MIN_SHARED && shared >= MIN_SHARE * Math.min(a.size, b.size);
}

/** Statements compared at most (the best scored): only the order near the top is shown. */
const MAX_CLAIMS = 12;

/** Raises each statement among the hits above the earlier statements of its subject (in time order, so a chain ends newest first). */
export function newestFirst(hits: Hit[]): void {
  const claims = hits
    .flatMap((h) => (h.type === "event" ? [h.unit] : h.lines))
    .filter((u) => u.claim && u.event !== null)
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_CLAIMS)
    .sort((a, b) => a.order - b.order);
  const keys = new Map(claims.map((u) => [u, subjectKeys(u)]));
  for (const [i, older] of claims.entries()) {
    for (const newer of claims.slice(i + 1)) {
      if (newer.order === older.order || !sameSubject(keys.get(older)!, keys.get(newer)!)) continue;
      newer.score = Math.max(newer.score, older.score * ABOVE);
    }
  }
}
