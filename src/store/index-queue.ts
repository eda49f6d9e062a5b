/**
 * The work a capture leaves for after its receipt: put the blob's chunks in the word and
 * identifier indexes, add its words to the vocabulary, and count tokens (the blob's, each new
 * receipt's, and what searches and gets returned). Runs in the background (index-worker.ts) or
 * inline before a search or stats need it. Every step is idempotent and claimed inside a write
 * transaction, so two processes finishing the same queue never do a row twice, and a process
 * killed halfway leaves the queue for the next one.
 */
import { type Db, immediate, immediateAsync } from "../db/open.ts";
import { mergeIndexes } from "./index-merge.ts";
import { type ChunkPrep, PREP_BATCH, type PrepHelper, prepareChunks, preparedInOrder, sharesPrep } from "./index-prep.ts";

/** Counts the tokens of each text (a real tokenizer); may run on another thread. */
export type CountTokens = (texts: string[]) => number | Promise<number>;

export function hasPendingWork(db: Db): boolean {
  return (
    db.query("SELECT 1 FROM index_queue LIMIT 1").get() !== null ||
    db.query("SELECT 1 FROM count_queue LIMIT 1").get() !== null ||
    db.query("SELECT 1 FROM blob_count_queue LIMIT 1").get() !== null ||
    db.query("SELECT 1 FROM retrieval_parts WHERE text IS NOT NULL LIMIT 1").get() !== null
  );
}

export function hasUnindexed(db: Db): boolean {
  return db.query("SELECT 1 FROM index_queue LIMIT 1").get() !== null;
}

type ChunkRow = { id: number; title: string; content: string };

/**
 * Indexes one queued blob; false when another process got to it first. Its chunks are prepared in
 * batches (index-prep.ts), by `helper` too when there is one, and written in one transaction.
 */
async function indexBlob(db: Db, blobId: number, helper: PrepHelper | null): Promise<boolean> {
  if (!db.query("SELECT 1 FROM index_queue WHERE blob_id = ?").get(blobId)) return false;
  const chunks = db.query<ChunkRow, [number]>("SELECT id, title, content FROM chunks WHERE blob_id = ? ORDER BY ordinal").all(blobId);
  const batches: string[][] = [];
  for (let i = 0; i < chunks.length; i += PREP_BATCH) batches.push(chunks.slice(i, i + PREP_BATCH).map((c) => c.content));
  // Prepared alone, before the write lock is taken; shared with the helper, batch by batch under it.
  const alone = sharesPrep(batches.length, helper) ? null : batches.map(prepareChunks);
  return immediateAsync(db, async () => {
    if (!db.query("SELECT 1 FROM index_queue WHERE blob_id = ?").get(blobId)) return false;
    const word = db.query("INSERT INTO chunks_words (rowid, title, content, names) VALUES (?, ?, ?, ?)");
    const ident = db.query("INSERT INTO chunk_idents (rowid, idents) VALUES (?, ?)");
    const words = new Set<string>();
    const write = (k: number, prep: ChunkPrep) => {
      prep.idents.forEach((idents, i) => {
        const c = chunks[k * PREP_BATCH + i]!;
        word.run(c.id, c.title, c.content, prep.names[i]!);
        if (idents) ident.run(c.id, idents);
      });
      for (const w of prep.words) words.add(w);
    };
    if (alone) for (const [k, prep] of alone.entries()) write(k, prep);
    else await preparedInOrder(batches, helper!, write);
    const vocab = db.query("INSERT INTO vocabulary (word, docs) VALUES (?, 1) ON CONFLICT (word) DO UPDATE SET docs = docs + 1");
    for (const w of words) vocab.run(w);
    db.query("DELETE FROM index_queue WHERE blob_id = ?").run(blobId);
    return true;
  });
}

/** Counts the tokens of queued blobs, a few at a time (chunks are read per blob). */
async function countBlobs(db: Db, count: CountTokens): Promise<number> {
  const ids = db.query<{ blob_id: number }, []>("SELECT blob_id FROM blob_count_queue ORDER BY blob_id LIMIT 20").all();
  if (ids.length === 0) return 0;
  const chunkTexts = db.query<{ content: string }, [number]>("SELECT content FROM chunks WHERE blob_id = ? ORDER BY ordinal");
  const counted: { id: number; tokens: number }[] = [];
  for (const { blob_id } of ids) counted.push({ id: blob_id, tokens: await count(chunkTexts.all(blob_id).map((c) => c.content)) });
  immediate(db, () => {
    const claim = db.query("DELETE FROM blob_count_queue WHERE blob_id = ?");
    const update = db.query("UPDATE blobs SET tokens = ? WHERE id = ?");
    for (const c of counted) if (claim.run(c.id).changes > 0) update.run(c.tokens, c.id);
  });
  return ids.length;
}

/** A new source's receipt, and its baseline when that is the host's own cut (kept until counted). */
async function countReceipts(db: Db, count: CountTokens): Promise<number> {
  const rows = db
    .query<{ id: number; receipt: string | null; baseline: string | null }, []>(
      "SELECT s.id, s.receipt, s.baseline_text AS baseline FROM count_queue q JOIN sources s ON s.id = q.source_id LIMIT 100",
    )
    .all();
  if (rows.length === 0) return 0;
  const counted = await Promise.all(
    rows.map(async (r) => ({
      id: r.id,
      tokens: r.receipt ? await count([r.receipt]) : 0,
      baseline: r.baseline === null ? null : await count([r.baseline]),
    })),
  );
  immediate(db, () => {
    const update = db.query("UPDATE sources SET receipt_tokens = ? WHERE id = ?");
    const baseline = db.query("UPDATE sources SET baseline_tokens = ?, baseline_text = NULL WHERE id = ?");
    const done = db.query("DELETE FROM count_queue WHERE source_id = ?");
    for (const r of counted) {
      if (done.run(r.id).changes === 0) continue; // counted by another process meanwhile
      update.run(r.tokens, r.id);
      if (r.baseline !== null) baseline.run(r.baseline, r.id);
    }
  });
  return rows.length;
}

type PartRow = { rowid: number; retrieval_id: number; source: string; text: string };

async function countRetrievals(db: Db, count: CountTokens): Promise<number> {
  const parts = db
    .query<PartRow, []>("SELECT rowid, retrieval_id, source, text FROM retrieval_parts WHERE text IS NOT NULL ORDER BY rowid LIMIT 2000")
    .all();
  if (parts.length === 0) return 0;
  const counted = await Promise.all(parts.map(async (p) => ({ ...p, tokens: await count([p.text]) })));
  immediate(db, () => {
    const claim = db.query("UPDATE retrieval_parts SET text = NULL WHERE rowid = ? AND text IS NOT NULL");
    const toSource = db.query("UPDATE sources SET retrieved_tokens = retrieved_tokens + ? WHERE handle = ?");
    const toRetrieval = db.query("UPDATE retrievals SET tokens = coalesce(tokens, 0) + ? WHERE id = ?");
    for (const p of counted) {
      if (claim.run(p.rowid).changes === 0) continue; // counted by another process meanwhile
      toSource.run(p.tokens, p.source);
      toRetrieval.run(p.tokens, p.retrieval_id);
    }
  });
  return parts.length;
}

/** `merging`: the indexes' merge (index-merge.ts) was left unfinished, for the next settle. */
export type SettleResult = { blobs: number; counted: number; receipts: number; retrievals: number; merging?: true };

/**
 * Does all queued work (`indexOnly`: just the indexes, what a search waits for), then merges the
 * indexes when they are in many pieces, at most `merge` pages (none by default). Returns what it
 * did; work another process claimed is skipped.
 */
export async function settle(
  db: Db,
  count: CountTokens,
  options: { indexOnly?: boolean; merge?: number; helper?: PrepHelper | null } = {},
): Promise<SettleResult> {
  const done: SettleResult = { blobs: 0, counted: 0, receipts: 0, retrievals: 0 };
  for (;;) {
    const next = db.query<{ blob_id: number }, []>("SELECT blob_id FROM index_queue ORDER BY blob_id LIMIT 1").get();
    if (!next) break;
    if (await indexBlob(db, next.blob_id, options.helper ?? null)) done.blobs++;
  }
  if (options.indexOnly) return done;
  for (let n = await countBlobs(db, count); n > 0; n = await countBlobs(db, count)) done.counted += n;
  for (let n = await countReceipts(db, count); n > 0; n = await countReceipts(db, count)) done.receipts += n;
  for (let n = await countRetrievals(db, count); n > 0; n = await countRetrievals(db, count)) done.retrievals += n;
  if (options.merge && mergeIndexes(db, options.merge, () => hasUnindexed(db)).more) done.merging = true;
  return done;
}
