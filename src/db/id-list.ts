/**
 * A list of ids as one bound parameter: `WHERE id IN (SELECT value FROM json_each(?))` with
 * `idList(ids)`. One SQL text for any number of ids, so the statement is prepared once and kept:
 * a list of `?` per id made a new statement for every length (prepared again each time, ~80 µs, and
 * each one took a place in the connection's statement cache, pushing out statements in use).
 */
export const IN_ID_LIST = "IN (SELECT value FROM json_each(?))";

export function idList(ids: readonly number[]): string {
  return JSON.stringify(ids);
}
