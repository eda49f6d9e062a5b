/** Base versions of files, content-addressed in the sidecar database (never in the user's repo). */
import type { Db } from "../db/open.ts";

/** `get` only reads; `touch` (in a write transaction) marks a base version as used. */
export type ObjectStore = { get(hash: string): string | null; put(hash: string, content: string): void; touch(hash: string): void };

export function createObjectStore(db: Db, now: () => number): ObjectStore {
  return {
    get: (hash) => db.query<{ content: string }, [string]>("SELECT content FROM objects WHERE hash = ?").get(hash)?.content ?? null,
    touch(hash) {
      db.query("UPDATE objects SET used_at = ? WHERE hash = ?").run(now(), hash);
    },
    put(hash, content) {
      db.query(
        `INSERT INTO objects (hash, content, bytes, created_at, used_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (hash) DO UPDATE SET used_at = excluded.used_at`,
      ).run(hash, content, Buffer.byteLength(content), now(), now());
    },
  };
}

/** Base versions are kept up to this many bytes; the least recently used go first. */
export const MAX_OBJECT_BYTES = 64 * 1024 * 1024;

export function objectBytes(db: Db): number {
  return db.query<{ b: number }, []>("SELECT total(bytes) AS b FROM objects").get()!.b;
}

/** Drops objects no read has used for `olderThanMs` (0: none by age), then the least recently used past the cap. */
export function pruneObjects(db: Db, olderThanMs: number, now: number, maxBytes = MAX_OBJECT_BYTES): number {
  let removed = olderThanMs > 0 ? db.query("DELETE FROM objects WHERE used_at < ?").run(now - olderThanMs).changes : 0;
  let total = objectBytes(db);
  if (total <= maxBytes) return removed;
  const oldest = db.query<{ hash: string; bytes: number }, []>("SELECT hash, bytes FROM objects ORDER BY used_at");
  const drop = db.query("DELETE FROM objects WHERE hash = ?");
  for (const row of oldest.all()) {
    if (total <= maxBytes * 0.9) break;
    drop.run(row.hash);
    total -= row.bytes;
    removed++;
  }
  return removed;
}

/** Every base version (a purge of everything). */
export function clearObjects(db: Db): void {
  db.exec("DELETE FROM objects");
}
