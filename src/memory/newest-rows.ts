/**
 * A word's newest rows, kept between searches. Each query group of a search costs a word-index
 * query (the newest rows holding any of its forms, up to a limit), and the same words come back
 * search after search: a recall and the memory_search that follows it, the project's own
 * vocabulary in every prompt. What was found is kept with the newest id the table held then;
 * asked again, only the rows added since are looked up (new rows always come after the newest,
 * ids grow) and put before the kept ones. Exact, not an approximation: the rows up to the kept
 * id are what they were as long as nothing was deleted or rewritten, which the count of such
 * changes (migration 013, kept by triggers for every writer) tells; when it moves, everything
 * kept is dropped. Nothing is kept inside a transaction (it may yet be rolled back).
 */
import type { Db } from "../db/open.ts";

/** What one query found: the newest `limit` matching rows with floor < id <= hi (and id < its `before`). */
type Kept = { ids: readonly number[]; hi: number; floor: number };
type Store = { changes: string; kept: Map<string, Kept> };

/** Queries kept per database and table at most (150 to 300 ids each, about 1 to 2.5 KB: a few MB at most); the store starts again empty when full. */
const MAX_KEPT = 2048;

const stores = new WeakMap<Db, Map<string, Store>>();

export type NewestQuery = {
  /** Which index and statement (its limit, filters). */
  table: string;
  /** The statement's own key (its SQL) and the MATCH expression. */
  key: string;
  /** Rows with id < before. */
  before: number;
  /** Rows with id > floor. */
  floor: number;
  limit: number;
  /** The table's newest id now. */
  hi: number;
  /** The count of deletes and rewrites of indexed rows now (memory_state 'index_changes'; null: nothing is kept). */
  changes: string | null;
};

/**
 * The newest `limit` rows matching, newest first: `run(floor)` gives them for rows with id > floor
 * (the statement's own bound), called for what is not kept. The list returned is shared: never change it.
 */
export function newestRows(db: Db, q: NewestQuery, run: (floor: number) => number[]): readonly number[] {
  if (q.changes === null || db.inTransaction) return run(q.floor);
  let byTable = stores.get(db);
  if (!byTable) {
    byTable = new Map();
    stores.set(db, byTable);
  }
  let store = byTable.get(q.table);
  if (!store || store.changes !== q.changes) {
    store = { changes: q.changes, kept: new Map() };
    byTable.set(q.table, store);
  }
  const key = `${q.before}\0${q.key}`;
  const kept = store.kept.get(key);
  let ids: number[];
  if (kept && kept.hi <= q.hi && kept.floor <= q.floor) {
    // Rows added since (none can be older than the kept newest id), then the kept ones still above the floor.
    const fresh = q.hi > kept.hi && q.before - 1 > kept.hi ? run(Math.max(q.floor, kept.hi)) : [];
    ids = fresh.length >= q.limit ? fresh.slice(0, q.limit) : [...fresh, ...kept.ids.filter((id) => id > q.floor)].slice(0, q.limit);
  } else {
    ids = run(q.floor);
  }
  // A writer between the statement that read `hi` and this one: rows newer than `hi` are not kept.
  if (ids.length > 0 && ids[0]! > q.hi) return ids;
  if (store.kept.size >= MAX_KEPT) store.kept.clear();
  store.kept.set(key, { ids, hi: q.hi, floor: q.floor });
  return ids;
}
