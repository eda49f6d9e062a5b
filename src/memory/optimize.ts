/**
 * Keeping the word indexes in one piece. FTS5 writes every transaction as a new segment and
 * merges them in levels, so a grown index is a few dozen segments, and every term lookup seeks
 * in each one: at a million events that doubles a query's cost. When an index has grown by a
 * quarter since it was last merged, it is merged into one segment (FTS5 'optimize'): rare
 * (about 25 times on the way to a million events) and proportionate (1.5 s at a million).
 *
 * Between those merges every single add writes a segment of its own, and FTS5 merges only four
 * of a level at a time: a few hundred adds after a merge left seven segments, which made a
 * recall's index lookups twice as slow. After each write (outside imports) a few pages of
 * merging (FTS5 'merge', with usermerge 2) join any two segments of one level, so the small ones
 * become one or two while the big one is left alone.
 */
import { immediate } from "../db/open.ts";
import type { MemoryDeps } from "./deps.ts";

const GROWTH = 0.25;
const FIRST = 5000;
const INDEXES = [
  { fts: "memory_events_fts", base: "memory_events" },
  { fts: "memory_summaries_fts", base: "memory_summaries" },
] as const;

/** Pages merged after a write at most (4 KB each): a small segment joins another at once, a bigger merge goes on over the next writes. */
const MERGE_PAGES = 16;

/** Joins segments of one level in each index, a bounded step (a no-op when no level holds two). */
export function mergeSmallSegments(deps: MemoryDeps): void {
  const { db } = deps;
  immediate(db, () => {
    for (const { fts } of INDEXES) {
      const set = db.query<{ v: number }, []>(`SELECT v FROM ${fts}_config WHERE k = 'usermerge'`).get()?.v === 2;
      if (!set) db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('usermerge', 2)`);
      db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('merge', ${MERGE_PAGES})`);
    }
  });
}

/** Merges each index (of `only`, default both) that has grown enough since its last merge; the names of those merged. */
export function maybeOptimize(deps: MemoryDeps, only?: (typeof INDEXES)[number]["fts"]): string[] {
  const { db } = deps;
  const done: string[] = [];
  for (const { fts, base } of INDEXES) {
    if (only && fts !== only) continue;
    const key = `optimized_at:${fts}`;
    const top = db.query<{ id: number | null }, []>(`SELECT max(rowid) AS id FROM ${base}`).get()?.id ?? 0;
    const last = Number(db.query<{ value: string }, [string]>("SELECT value FROM memory_state WHERE key = ?").get(key)?.value ?? 0);
    if (top - last < Math.max(FIRST * (base === "memory_events" ? 1 : 0.02), last * GROWTH)) continue;
    immediate(db, () => {
      db.exec(`INSERT INTO ${fts} (${fts}) VALUES ('optimize')`);
      db.query("INSERT INTO memory_state (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = ?2").run(key, String(top));
    });
    done.push(fts);
  }
  return done;
}
