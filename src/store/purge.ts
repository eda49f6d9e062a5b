/**
 * Purging sources: by handle, age, session, project, or everything. A blob (the stored text
 * and its chunks) goes when its last source goes.
 *
 * Gone means gone from the file, not only from the tables: the deletes run with SQLite's
 * `secure_delete` (freed cells and pages are overwritten with zeros), the full-text indexes take a
 * deleted row's terms out at once (FTS5 `secure-delete`) instead of keeping them behind a delete
 * marker, and the vocabulary forgets words no stored text has any more.
 *
 * secure_delete zeroes a deleted cell where it lies, but not the copies SQLite left behind earlier:
 * when a b-tree page is rebalanced its cells are rewritten and the page's unused middle keeps the
 * old bytes of cells that moved to a sibling (a purged source's label and preview survived so, in
 * a live `sources` page). So a purge owes the file a rewrite (VACUUM, db/rewrite.ts): the deletes
 * commit a marker, and the engine rewrites the file right after, off the host's thread.
 */
import type { Db } from "../db/open.ts";
import { immediate } from "../db/open.ts";
import { markRewrite, truncateWal } from "../db/rewrite.ts";
import { asStored } from "../redact/lazy.ts";
import { lowerMergeBaseline } from "./index-merge.ts";
import { vocabularyWords } from "./index-prep.ts";

export type PurgeFilter = {
  source?: string;
  olderThanMs?: number;
  session?: string;
  project?: string;
  all?: boolean;
};

export type PurgeResult = { sources: number; blobs: number; bytes: number };

/** The store's full-text indexes: each must drop a deleted row's terms, not mark them deleted. */
const FTS_TABLES = ["chunks_words", "chunk_idents"] as const;

const SECURE_DELETE: Record<number, string> = { 0: "OFF", 1: "ON", 2: "FAST" };

/** Runs `fn` with every freed byte overwritten (this connection only), then restores the setting. */
function overwritingDeletes<T>(db: Db, fn: () => T): T {
  const before = (db.query("PRAGMA secure_delete").get() as { secure_delete: number }).secure_delete;
  db.exec("PRAGMA secure_delete = ON");
  try {
    return fn();
  } finally {
    db.exec(`PRAGMA secure_delete = ${SECURE_DELETE[before] ?? "FAST"}`);
  }
}

/** Inside the delete's transaction: the indexes remove a row's entries from their pages at once. */
function indexesForget(db: Db): void {
  for (const table of FTS_TABLES) db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('secure-delete', 1)`);
}

/** Takes one stored text's words back out of the vocabulary; a word no text has any more goes. */
function forgetWords(db: Db, blobId: number): void {
  const contents = db.query<{ content: string }, [number]>("SELECT content FROM chunks WHERE blob_id = ?").all(blobId);
  const less = db.query("UPDATE vocabulary SET docs = docs - 1 WHERE word = ?");
  const drop = db.query("DELETE FROM vocabulary WHERE word = ? AND docs <= 0");
  for (const word of vocabularyWords(contents.map((c) => c.content))) {
    less.run(word);
    drop.run(word);
  }
}

/**
 * Deletes the given sources and any blob left without a source. `rewrite`: the deletes commit with
 * the marker that owes the file a rewrite (a user's purge; retention's expiry does not rewrite).
 */
export function deleteSources(db: Db, sourceIds: number[], rewrite = false): PurgeResult {
  if (sourceIds.length === 0) return { sources: 0, blobs: 0, bytes: 0 };
  return overwritingDeletes(db, () =>
    immediate(db, () => {
      indexesForget(db);
      const blobIds = new Set<number>();
      const getBlob = db.query<{ blob_id: number; handle: string }, [number]>("SELECT blob_id, handle FROM sources WHERE id = ?");
      const del = db.query("DELETE FROM sources WHERE id = ?");
      // What the retrieval log kept of it goes too: its part of each answer, with the copy of its
      // text, and an answer drawn from purged text alone, with the question that found it.
      const answers = db.query<{ id: number }, [string]>("SELECT DISTINCT retrieval_id AS id FROM retrieval_parts WHERE source = ?");
      const parts = db.query("DELETE FROM retrieval_parts WHERE source = ?");
      const retrievals = new Set<number>();
      let sources = 0;
      for (const id of sourceIds) {
        const row = getBlob.get(id);
        if (!row) continue;
        blobIds.add(row.blob_id);
        del.run(id);
        for (const a of answers.all(row.handle)) retrievals.add(a.id);
        parts.run(row.handle);
        sources++;
      }
      const orphan = db.query("DELETE FROM retrievals WHERE id = ? AND NOT EXISTS (SELECT 1 FROM retrieval_parts WHERE retrieval_id = ?)");
      for (const id of retrievals) orphan.run(id, id);
      let blobs = 0;
      let bytes = 0;
      const stillUsed = db.query<{ one: number }, [number]>("SELECT 1 AS one FROM sources WHERE blob_id = ? LIMIT 1");
      const queued = db.query<{ one: number }, [number]>("SELECT 1 AS one FROM index_queue WHERE blob_id = ?");
      if (rewrite && sources > 0) markRewrite(db);
      for (const blobId of blobIds) {
        if (stillUsed.get(blobId)) continue;
        bytes += db.query<{ bytes: number }, [number]>("SELECT bytes FROM blobs WHERE id = ?").get(blobId)?.bytes ?? 0;
        // A blob still waiting for its index never added its words.
        if (!queued.get(blobId)) forgetWords(db, blobId);
        db.query("DELETE FROM chunks WHERE blob_id = ?").run(blobId);
        db.query("DELETE FROM blobs WHERE id = ?").run(blobId);
        blobs++;
      }
      return { sources, blobs, bytes };
    }),
  );
}

/** Everything at once: the indexes are cleared wholesale instead of row by row. */
function deleteAll(db: Db): PurgeResult {
  return overwritingDeletes(db, () =>
    immediate(db, () => {
      const counts = db.query<{ sources: number }, []>("SELECT count(*) AS sources FROM sources").get()!;
      const blobs = db.query<{ blobs: number; bytes: number }, []>("SELECT count(*) AS blobs, total(bytes) AS bytes FROM blobs").get()!;
      db.exec("INSERT INTO meta (key, value) VALUES ('bulk_delete', '1')");
      for (const table of FTS_TABLES) db.exec(`INSERT INTO ${table} (${table}) VALUES ('delete-all')`);
      db.exec("DELETE FROM chunks");
      db.exec("DELETE FROM sources");
      db.exec("DELETE FROM blobs");
      db.exec("DELETE FROM retrieval_parts");
      db.exec("DELETE FROM retrievals");
      db.exec("DELETE FROM vocabulary");
      db.exec("DELETE FROM meta WHERE key = 'bulk_delete'");
      markRewrite(db);
      return { sources: counts.sources, blobs: blobs.blobs, bytes: blobs.bytes };
    }),
  );
}

/** The full-text indexes' segments merged, so what deletes left of them is folded away. */
function mergeIndexes(db: Db): void {
  if (db.inTransaction) return;
  immediate(db, () => {
    for (const table of FTS_TABLES) db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', -500)`);
  });
}

/**
 * After deletes: hand the freed pages back to the file system (what stays in the file is live
 * data), then copy the WAL into the file and truncate it, so no older page image survives there.
 * True when the WAL was emptied; false when another connection still reads an older snapshot
 * (a later checkpoint empties it). Inside a caller's transaction only the first step runs: the
 * caller checkpoints after its commit.
 */
export function reclaimSpace(db: Db): boolean {
  mergeIndexes(db);
  db.exec("PRAGMA incremental_vacuum");
  if (db.inTransaction) return false;
  return truncateWal(db);
}

export function purge(db: Db, filter: PurgeFilter, now: number): PurgeResult {
  let result: PurgeResult;
  if (filter.all) result = deleteAll(db);
  else {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (filter.source) {
      where.push("handle = ?");
      params.push(filter.source);
    }
    if (filter.olderThanMs !== undefined) {
      where.push("created_at < ?");
      params.push(now - filter.olderThanMs);
    }
    // Sessions and projects were redacted when stored: one that held a secret is matched as stored.
    if (filter.session) {
      where.push("session = ?");
      params.push(asStored(filter.session)!);
    }
    if (filter.project) {
      where.push("project = ?");
      params.push(asStored(filter.project)!);
    }
    if (where.length === 0) return { sources: 0, blobs: 0, bytes: 0 };
    const ids = db
      .query<{ id: number }, (string | number)[]>(`SELECT id FROM sources WHERE ${where.join(" AND ")}`)
      .all(...params)
      .map((r) => r.id);
    result = deleteSources(db, ids, true);
  }
  // The rewrite the deletes marked runs after this, off the host's thread (the engine starts it).
  if (result.sources > 0) {
    mergeIndexes(db);
    lowerMergeBaseline(db);
  }
  return result;
}
