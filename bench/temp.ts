/** Scratch databases: one temp directory per run, removed at the end. */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "../src/db/open.ts";

export type Scratch = { dir: string; path(name: string): string; remove(): void };

export function createScratch(): Scratch {
  const dir = mkdtempSync(join(tmpdir(), "pi-sidecar-bench-"));
  let n = 0;
  return {
    dir,
    path: (name) => join(dir, `${String(++n).padStart(3, "0")}-${name}.db`),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Deletes one database file with its WAL and shared-memory files. */
export function removeDatabase(path: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
}

/** Bytes on disk once the WAL is folded into the main file. */
export function checkpointedSize(db: Db, path: string): number {
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  let wal = 0;
  try {
    wal = statSync(`${path}-wal`).size;
  } catch {
    // no WAL file
  }
  return statSync(path).size + wal;
}

export type SizeBreakdown = { chunks: number; words: number; trigrams: number; other: number };

/** Page bytes per structure, from the dbstat virtual table. */
export function sizeBreakdown(db: Db): SizeBreakdown {
  const rows = db.query<{ name: string; bytes: number }, []>("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all();
  const out: SizeBreakdown = { chunks: 0, words: 0, trigrams: 0, other: 0 };
  for (const { name, bytes } of rows) {
    if (name === "chunks" || name === "sqlite_autoindex_chunks_1") out.chunks += bytes;
    else if (name.startsWith("chunks_words")) out.words += bytes;
    else if (name.startsWith("chunks_trigrams")) out.trigrams += bytes;
    else out.other += bytes;
  }
  return out;
}
