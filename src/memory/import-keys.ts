/**
 * Import keys: an imported event whose key was stored before is not stored again. Only 53 bits of
 * SHA-256 over the project and the key are kept (no text). Those values are spread at random, so
 * writing a batch's keys into one big table touches nearly every page of it: at a million keys a
 * batch of 5,000 rewrote ~2,900 pages (12 MB of WAL), ten times the cost of keys in order. New keys
 * go into a small table instead (its few pages are the only ones a batch changes), which is folded
 * into the big one in key order when it grows to FOLD_AT keys: each page of the big table is then
 * written once per fold, not once per batch. A key is in one table or the other, never both, and
 * a key is new when neither holds it.
 */
import { sha256Bytes } from "../hash.ts";
import type { MemoryDeps } from "./deps.ts";

/** Keys per statement (a JSON list read by json_each). */
const KEYS_PER_STATEMENT = 1000;
/** Keys the small table holds before they move to the big one (a few hundred pages). */
export const FOLD_AT = 65_536;

/** An import key as stored: 53 bits of SHA-256 over the project and the key. */
function keyHash(projectId: number, key: string): number {
  const d = sha256Bytes(`${projectId}\0${key}`);
  return ((((d[0]! * 256 + d[1]!) * 256 + d[2]!) * 256 + d[3]!) * 256 + d[4]!) * 256 * 32 + d[5]! * 32 + (d[6]! >> 3);
}

/**
 * The events whose import key is new (their keys recorded now), in order; an event without a
 * key is always new. Runs inside the insert's transaction, so a killed import stores an event
 * and its key together or neither.
 */
export function newByKey<E extends { key: string | null }>(deps: Pick<MemoryDeps, "db">, projectId: number, events: E[]): E[] {
  if (events.every((e) => e.key === null)) return events;
  const { db } = deps;
  const hashes = events.map((e) => (e.key === null ? null : keyHash(projectId, e.key)));
  const fresh = new Set<number>();
  const record = db.query<{ key: number }, [string]>(
    `INSERT OR IGNORE INTO memory_import_keys_recent (key) SELECT value FROM json_each(?)
     WHERE NOT EXISTS (SELECT 1 FROM memory_import_keys k WHERE k.key = value) RETURNING key`,
  );
  const keyed = hashes.filter((h): h is number => h !== null);
  for (let i = 0; i < keyed.length; i += KEYS_PER_STATEMENT) {
    for (const r of record.all(JSON.stringify(keyed.slice(i, i + KEYS_PER_STATEMENT)))) fresh.add(r.key);
  }
  if (fresh.size > 0) foldRecentKeys(deps);
  // The first of several events with one key in the same batch is the one stored.
  return events.filter((_, i) => hashes[i] === null || fresh.delete(hashes[i]!));
}

/** Moves the small table's keys into the big one, in key order, once it holds FOLD_AT (`force`: whatever it holds). */
export function foldRecentKeys(deps: Pick<MemoryDeps, "db">, force = false): void {
  const { db } = deps;
  const held = db
    .query<{ n: number }, [number]>("SELECT count(*) AS n FROM (SELECT 1 FROM memory_import_keys_recent LIMIT ?)")
    .get(FOLD_AT)!.n;
  if (held === 0 || (held < FOLD_AT && !force)) return;
  db.exec("INSERT OR IGNORE INTO memory_import_keys (key) SELECT key FROM memory_import_keys_recent ORDER BY key");
  db.exec("DELETE FROM memory_import_keys_recent");
}
