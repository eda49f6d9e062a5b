/**
 * Purging sources: by handle, age, session, project, or everything. A blob (the stored text
 * and its chunks) goes when its last source goes. Freed pages are handed back to the file system.
 */
import { type Db, immediate } from "../db/open.ts";

export type PurgeFilter = {
  source?: string;
  olderThanMs?: number;
  session?: string;
  project?: string;
  all?: boolean;
};

export type PurgeResult = { sources: number; blobs: number; bytes: number };

/** Deletes the given sources and any blob left without a source. */
export function deleteSources(db: Db, sourceIds: number[]): PurgeResult {
  if (sourceIds.length === 0) return { sources: 0, blobs: 0, bytes: 0 };
  return immediate(db, () => {
    const blobIds = new Set<number>();
    const getBlob = db.query<{ blob_id: number; handle: string }, [number]>("SELECT blob_id, handle FROM sources WHERE id = ?");
    const del = db.query("DELETE FROM sources WHERE id = ?");
    // Copies of its text waiting in the retrieval log go with it.
    const copies = db.query("UPDATE retrieval_parts SET text = NULL WHERE source = ? AND text IS NOT NULL");
    let sources = 0;
    for (const id of sourceIds) {
      const row = getBlob.get(id);
      if (!row) continue;
      blobIds.add(row.blob_id);
      del.run(id);
      copies.run(row.handle);
      sources++;
    }
    let blobs = 0;
    let bytes = 0;
    const stillUsed = db.query<{ one: number }, [number]>("SELECT 1 AS one FROM sources WHERE blob_id = ? LIMIT 1");
    for (const blobId of blobIds) {
      if (stillUsed.get(blobId)) continue;
      bytes += db.query<{ bytes: number }, [number]>("SELECT bytes FROM blobs WHERE id = ?").get(blobId)?.bytes ?? 0;
      db.query("DELETE FROM chunks WHERE blob_id = ?").run(blobId);
      db.query("DELETE FROM blobs WHERE id = ?").run(blobId);
      blobs++;
    }
    return { sources, blobs, bytes };
  });
}

/** Everything at once: the indexes are cleared wholesale instead of row by row. */
function deleteAll(db: Db): PurgeResult {
  return immediate(db, () => {
    const counts = db.query<{ sources: number }, []>("SELECT count(*) AS sources FROM sources").get()!;
    const blobs = db.query<{ blobs: number; bytes: number }, []>("SELECT count(*) AS blobs, total(bytes) AS bytes FROM blobs").get()!;
    db.exec("INSERT INTO meta (key, value) VALUES ('bulk_delete', '1')");
    db.exec("INSERT INTO chunks_words (chunks_words) VALUES ('delete-all')");
    db.exec("INSERT INTO chunk_idents (chunk_idents) VALUES ('delete-all')");
    db.exec("DELETE FROM chunks");
    db.exec("DELETE FROM sources");
    db.exec("DELETE FROM blobs");
    db.exec("DELETE FROM retrieval_parts");
    db.exec("DELETE FROM retrievals");
    db.exec("DELETE FROM vocabulary");
    db.exec("DELETE FROM meta WHERE key = 'bulk_delete'");
    return { sources: counts.sources, blobs: blobs.blobs, bytes: blobs.bytes };
  });
}

/**
 * After deletes: let FTS5 merge away the deleted entries (a bounded amount of work), then hand
 * the freed pages back to the file system.
 */
export function reclaimSpace(db: Db): void {
  immediate(db, () => {
    db.exec("INSERT INTO chunks_words (chunks_words, rank) VALUES ('merge', -500)");
    db.exec("INSERT INTO chunk_idents (chunk_idents, rank) VALUES ('merge', -500)");
  });
  db.exec("PRAGMA incremental_vacuum");
  db.exec("PRAGMA wal_checkpoint(PASSIVE)");
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
    if (filter.session) {
      where.push("session = ?");
      params.push(filter.session);
    }
    if (filter.project) {
      where.push("project = ?");
      params.push(filter.project);
    }
    if (where.length === 0) return { sources: 0, blobs: 0, bytes: 0 };
    const ids = db
      .query<{ id: number }, (string | number)[]>(`SELECT id FROM sources WHERE ${where.join(" AND ")}`)
      .all(...params)
      .map((r) => r.id);
    result = deleteSources(db, ids);
  }
  if (result.sources > 0) reclaimSpace(db);
  return result;
}
