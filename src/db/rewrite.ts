/**
 * Rewriting the file after deletes, so no readable copy of a deleted row is left in it.
 *
 * secure_delete zeroes a deleted cell where it lies, but not the copies SQLite left behind earlier:
 * when a b-tree page is rebalanced its cells are rewritten and the page's unused middle keeps the
 * old bytes of cells that moved to a sibling. Only writing every page anew from the live rows
 * (VACUUM) clears those, and the WAL, which holds older page images, is then folded in and
 * truncated.
 *
 * A rewrite takes seconds on a large file, so it is not run inside the delete: the delete commits
 * a marker in its own transaction (`markRewrite`) and the rewrite runs afterwards, in the
 * background where a host's thread must keep answering (background.ts). The marker goes only once
 * a rewrite finished, so a process that dies before or during the rewrite (a VACUUM that did not
 * commit changes nothing) leaves the marker, and the next writing engine rewrites the file.
 */
import type { Db } from "./open.ts";
import { isWriteFailure } from "./open.ts";

const KEY = "rewrite_pending";

/** Inside the delete's transaction: the file must be rewritten before the deleted text is gone from it. */
export function markRewrite(db: Db): void {
  db.query("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
    KEY,
    `${Date.now()}-${Math.random().toString(36).slice(2)}`,
  );
}

/** The pending marker's value, or null when no rewrite is owed. */
export function pendingRewrite(db: Db): string | null {
  try {
    return db.query<{ value: string }, [string]>("SELECT value FROM meta WHERE key = ?").get(KEY)?.value ?? null;
  } catch {
    return null;
  }
}

export type RewriteOutcome = {
  /** The file was rewritten and its WAL emptied: no copy of deleted rows is left. */
  ok: boolean;
  /** Nothing was owed (another process rewrote the file first). */
  skipped?: boolean;
  ms: number;
  bytesBefore: number;
  bytesAfter: number;
  /** Why it could not finish (another process's write lock, a full disk); the marker stays for the next try. */
  reason?: string;
};

const fileBytes = (db: Db) => {
  const r = db.query<{ n: number }, []>("SELECT page_count * page_size AS n FROM pragma_page_count, pragma_page_size").get();
  return r?.n ?? 0;
};

/**
 * FTS5's secure-delete takes a deleted row's entries out of the index, but a term whose every entry
 * went can stay on its leaf page as a key with an empty list (seen with contentless tables): VACUUM
 * copies it as live data. Merging each full-text index into one segment ('optimize') writes only
 * the terms that still have entries.
 */
function mergeFullTextIndexes(db: Db): void {
  const tables = db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%' AND sql NOT LIKE '%USING fts5vocab%'",
    )
    .all();
  for (const { name } of tables) db.exec(`INSERT INTO "${name}" ("${name}") VALUES ('optimize')`);
}

/**
 * Writes every page of the file again from its live rows (VACUUM), then clears the marker this
 * rewrite answered (a newer delete's marker stays). Outside a transaction only. False when another
 * connection's write kept it from running, or the disk had no room for the copy.
 */
export function rewriteFile(db: Db): boolean {
  if (db.inTransaction) return false;
  const marker = pendingRewrite(db);
  // The copy VACUUM builds first goes to a temporary file, not memory (a store can be large); it
  // holds live rows only.
  const tempStore = (db.query("PRAGMA temp_store").get() as { temp_store: number }).temp_store;
  db.exec("PRAGMA temp_store = FILE");
  try {
    mergeFullTextIndexes(db);
    db.exec("VACUUM");
  } catch (error) {
    if (isWriteFailure(error)) return false;
    throw error;
  } finally {
    db.exec(`PRAGMA temp_store = ${tempStore}`);
  }
  if (marker !== null) {
    try {
      db.query("DELETE FROM meta WHERE key = ? AND value = ?").run(KEY, marker);
    } catch (error) {
      // The file is rewritten; a marker left behind costs one more rewrite later.
      if (!isWriteFailure(error)) throw error;
    }
  }
  return true;
}

/**
 * Checkpoints the whole WAL into the file and truncates it to nothing; false if another connection
 * kept it from finishing (a reader of an older snapshot, a writer). Never waits: a host's event loop
 * must not stall on it (emptyWal waits asynchronously).
 */
export function truncateWal(db: Db): boolean {
  const timeout = (db.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout;
  db.exec("PRAGMA busy_timeout = 0");
  try {
    const r = db.query("PRAGMA wal_checkpoint(TRUNCATE)").get() as { busy: number } | null;
    return r !== null && r.busy === 0;
  } catch {
    return false;
  } finally {
    db.exec(`PRAGMA busy_timeout = ${timeout}`);
  }
}

/** Empties the WAL, trying again for a while (asynchronously) while other connections keep it from it. */
export async function emptyWal(db: Db, attempts = 40): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (truncateWal(db)) return true;
    await Bun.sleep(50);
  }
  return false;
}

/**
 * The whole step on one connection: the rewrite when one is owed (or `force`), then the WAL
 * emptied. Blocks its thread for the rewrite: a host runs it on a worker (background.ts).
 */
export async function rewriteOwed(db: Db, force = false): Promise<RewriteOutcome> {
  const started = performance.now();
  const bytesBefore = fileBytes(db);
  const done = (o: Partial<RewriteOutcome>): RewriteOutcome => ({
    ok: false,
    ms: Math.round(performance.now() - started),
    bytesBefore,
    bytesAfter: fileBytes(db),
    ...o,
  });
  if (!force && pendingRewrite(db) === null) return done({ ok: true, skipped: true });
  if (!rewriteFile(db))
    return done({ reason: "another process kept the database busy (or the disk has no room for the copy); it is tried again later" });
  if (!(await emptyWal(db)))
    return done({ reason: "another process still reads an older snapshot, whose pages stay in the write-ahead log until it finishes" });
  return done({ ok: true });
}
