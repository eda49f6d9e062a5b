/**
 * Keeping the full-text indexes in few pieces. FTS5 writes every flush of a transaction as a new
 * segment and merges them in levels of four, so a grown store holds a dozen segments per index,
 * and every term lookup seeks in each one: on a 200 MB store a rare identifier's lookups cost 3
 * to 10 times what they cost in one segment. An index in TRIGGER or more segments is merged into
 * one (FTS5's incremental 'merge' with a negative size: all segments, as few as two at a time),
 * a slice per transaction, so a capture waits for one slice at most. A merge starts only once the
 * index has grown by a quarter since the last one (each merge rewrites the whole index: a store
 * that keeps growing pays a few times its size in all), in the background or in an explicit settle
 * alike (the detached settle after each capture of a hook must not rewrite a large index every few
 * commands). A merge stops when new text is queued for indexing
 * (that comes first) or the page budget is spent, and the next call goes on where it stopped.
 * What a search finds is the same; only its lookups are cheaper.
 */
import { type Db, immediate } from "../db/open.ts";

const INDEXES = ["chunks_words", "chunk_idents"] as const;
/** Segments at which an index is merged. */
const TRIGGER = 4;
/** Growth of the index (rows of its data table) since its last merge before the background merges it again. */
const GROWTH = 1.25;
/** Pages written per transaction (4 KiB each). */
export const MERGE_SLICE = 128;

/** The segments of an index, from its structure record (row 10 of its data table): FTS5's on-disk format. */
export function segmentsOf(db: Db, table: (typeof INDEXES)[number]): number {
  const row = db.query<{ block: Uint8Array }, []>(`SELECT block FROM ${table}_data WHERE id = 10`).get();
  if (!row) return 0;
  const b = row.block;
  // A 4-byte cookie, then (contentless_delete tables) the 4-byte marker of the second version.
  let i = b[4] === 0xff && b[5] === 0 && b[6] === 0 && b[7] === 1 ? 8 : 4;
  const varint = () => {
    let value = 0;
    for (let shift = 1; i < b.length; shift *= 128) {
      const byte = b[i++]!;
      value += (byte & 0x7f) * shift;
      if (byte < 0x80) break;
    }
    return value;
  };
  varint(); // levels
  return varint();
}

const structure = (db: Db, table: string) =>
  db.query<{ block: Uint8Array }, []>(`SELECT block FROM ${table}_data WHERE id = 10`).get()?.block.join(",") ?? "";

/** Rows of an index's data table: its size, as the growth rule counts it. */
const sizeOf = (db: Db, table: string) => db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}_data`).get()!.n;
/** The index's size when it was last merged (0: never). */
const mergedSize = (db: Db, table: string) =>
  Number(db.query<{ value: string }, [string]>("SELECT value FROM meta WHERE key = ?").get(`merged:${table}`)?.value ?? 0);
const setMergedSize = (db: Db, table: string, n: number) =>
  db.query("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(`merged:${table}`, String(n));

/**
 * After deletes (a purge): an index now smaller than at its last merge grows from what is left, so
 * its next merge comes a quarter past that, not a quarter past the size it had before.
 */
export function lowerMergeBaseline(db: Db): void {
  for (const table of INDEXES) {
    const now = sizeOf(db, table);
    if (now < mergedSize(db, table)) setMergedSize(db, table, now);
  }
}

/**
 * Merges the indexes that need it, at most `budget` pages (Infinity: an explicit settle, which
 * finishes a merge once it starts), stopping when `interrupted` says other work is waiting.
 * `more`: a merge was left unfinished.
 */
export function mergeIndexes(db: Db, budget: number, interrupted: () => boolean): { pages: number; more: boolean } {
  let pages = 0;
  const meta = db.query<{ value: string }, [string]>("SELECT value FROM meta WHERE key = ?");
  for (const table of INDEXES) {
    // A merge once started is finished, whatever the count on the way.
    const key = `merging:${table}`;
    const started = meta.get(key) !== null;
    if (!started && segmentsOf(db, table) < TRIGGER) continue;
    if (!started && sizeOf(db, table) < mergedSize(db, table) * GROWTH) continue;
    while (segmentsOf(db, table) > 1) {
      if (pages >= budget || interrupted()) return { pages, more: true };
      const before = structure(db, table);
      immediate(db, () => {
        db.query("INSERT OR IGNORE INTO meta (key, value) VALUES (?, '1')").run(key);
        db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', -${MERGE_SLICE})`);
      });
      pages += MERGE_SLICE;
      if (structure(db, table) === before) break; // nothing left that FTS5 would merge
    }
    immediate(db, () => {
      db.query("DELETE FROM meta WHERE key = ?").run(key);
      setMergedSize(db, table, sizeOf(db, table));
    });
  }
  return { pages, more: false };
}
