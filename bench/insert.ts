/**
 * The write half of a capture, alone: the blob row and every chunk row in one IMMEDIATE
 * transaction, with the same statements capture uses. Whatever the schema's triggers do
 * (index the chunk, or nothing for the floor) happens inside it.
 */
import { type Db, immediate } from "../src/db/open.ts";
import type { RawChunk } from "../src/store/chunk.ts";

export type Prepared = { chunks: RawChunk[]; titles: string[]; tokens: number; bytes: number; lines: number; kind: string };

export function insertChunks(db: Db, prepared: Prepared, hash: string, project = "/bench"): number {
  return immediate(db, () => {
    const blobId = Number(
      db
        .query("INSERT INTO blobs (project, hash, bytes, lines, tokens, chunk_count, kind, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        .run(project, hash, prepared.bytes, prepared.lines, prepared.tokens, prepared.chunks.length, prepared.kind, Date.now())
        .lastInsertRowid,
    );
    const insert = db.query("INSERT INTO chunks (blob_id, ordinal, line_start, line_end, title, content) VALUES (?, ?, ?, ?, ?, ?)");
    for (const [i, c] of prepared.chunks.entries()) insert.run(blobId, i + 1, c.lineStart, c.lineEnd, prepared.titles[i]!, c.text);
    return blobId;
  });
}
