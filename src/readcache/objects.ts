/** Base versions of files, content-addressed in the sidecar database (never in the user's repo). */
import type { Db } from "../db/open.ts";

export type ObjectStore = { get(hash: string): string | null; put(hash: string, content: string): void };

export function createObjectStore(db: Db, now: () => number): ObjectStore {
  return {
    get(hash) {
      const row = db.query<{ content: string }, [string]>("SELECT content FROM objects WHERE hash = ?").get(hash);
      if (row) db.query("UPDATE objects SET used_at = ? WHERE hash = ?").run(now(), hash);
      return row?.content ?? null;
    },
    put(hash, content) {
      db.query(
        `INSERT INTO objects (hash, content, bytes, created_at, used_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (hash) DO UPDATE SET used_at = excluded.used_at`,
      ).run(hash, content, Buffer.byteLength(content), now(), now());
    },
  };
}

/** Drops objects no read has used for `days`. */
export function pruneObjects(db: Db, olderThanMs: number, now: number): number {
  return db.query("DELETE FROM objects WHERE used_at < ?").run(now - olderThanMs).changes;
}
