/**
 * Which of the store's structures the database bytes belong to, from the dbstat virtual table:
 * the stored text (chunks table and its unique index), the word index (chunks_words, FTS5),
 * the identifier index (chunk_idents, contentless trigram FTS5), the vocabulary, and the rest
 * (blobs, sources, queues, the other features' empty tables, the schema).
 */
import type { Db } from "../src/db/open.ts";

export type StoreParts = { text: number; words: number; idents: number; vocabulary: number; other: number };

export const EMPTY_PARTS: StoreParts = { text: 0, words: 0, idents: 0, vocabulary: 0, other: 0 };

/** The structure a dbstat name (table, index or FTS5 shadow table) belongs to. */
export function partOf(name: string): keyof StoreParts {
  if (name === "chunks" || name === "sqlite_autoindex_chunks_1") return "text";
  if (name.startsWith("chunks_words")) return "words";
  if (name.startsWith("chunk_idents")) return "idents";
  if (name === "vocabulary") return "vocabulary";
  return "other";
}

/** Page bytes per structure; run after a checkpoint so the WAL's pages are counted where they end up. */
export function storeParts(db: Db): StoreParts {
  const rows = db.query<{ name: string; bytes: number }, []>("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all();
  const out: StoreParts = { ...EMPTY_PARTS };
  for (const { name, bytes } of rows) out[partOf(name)] += bytes;
  return out;
}

/** The median of each structure's bytes over several runs. */
export function medianParts(runs: readonly StoreParts[], median: (xs: number[]) => number): StoreParts {
  const out: StoreParts = { ...EMPTY_PARTS };
  for (const key of Object.keys(out) as (keyof StoreParts)[]) out[key] = median(runs.map((r) => r[key]));
  return out;
}
