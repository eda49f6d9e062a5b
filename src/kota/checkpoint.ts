/**
 * When the code index's connection folds the WAL into the database: not on every commit past
 * 1,000 pages (SQLite's default, which makes every few re-indexes pay a checkpoint and its fsync,
 * 10-25 ms here) but once writing has paused for a second, or at once when the WAL passes 32 MiB.
 */
import { statSync } from "node:fs";
import type { Db } from "../db/open.ts";

export type Checkpointer = {
  /** After a write (or a call that may have written): schedules the checkpoint. */
  touch(): void;
  close(): void;
};

export function idleCheckpoints(db: Db, path: string, opts: { idleMs?: number; maxWalBytes?: number } = {}): Checkpointer {
  const idleMs = opts.idleMs ?? 1000;
  const maxWal = opts.maxWalBytes ?? 32 * 1024 * 1024;
  db.exec("PRAGMA wal_autocheckpoint = 0");
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  const run = () => {
    timer = null;
    if (!closed) checkpointNow(db);
  };
  return {
    touch() {
      if (closed) return;
      let wal = 0;
      try {
        wal = statSync(`${path}-wal`).size;
      } catch {
        wal = 0;
      }
      if (wal > maxWal) {
        if (timer) clearTimeout(timer);
        run();
        return;
      }
      if (timer) clearTimeout(timer);
      timer = setTimeout(run, idleMs);
      timer.unref?.();
    },
    close() {
      if (timer) clearTimeout(timer);
      timer = null;
      if (!closed) run();
      closed = true;
    },
  };
}

/**
 * Folds the WAL into the database now, as far as readers allow (busy or closed: left to the next
 * one). Returns whether it ran.
 */
export function checkpointNow(db: Db): boolean {
  try {
    db.exec("PRAGMA wal_checkpoint(PASSIVE)");
    return true;
  } catch {
    return false;
  }
}
