/**
 * Indexing a large text with a second thread preparing its chunks (store/index-prep.ts): every
 * batch written once, in order, whoever prepared it; a helper that stops or never answers costs
 * nothing but time; and the indexes a worker writes with its helper thread are the very rows an
 * inline settle writes alone.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.ts";
import { createEngine } from "../../src/engine.ts";
import { type ChunkPrep, claimBatch, type PrepHelper, prepareChunks } from "../../src/store/index.ts";
import { PREP_BATCH, preparedInOrder } from "../../src/store/index-prep.ts";
import { cleanupTempDirs, noisyLog, tempDir, testConfig } from "../helpers.ts";

afterAll(cleanupTempDirs);

const batchesOf = (n: number) =>
  Array.from({ length: n }, (_, k) =>
    Array.from({ length: 3 }, (_, i) => `batch ${k} chunk ${i}: retryCount=${k * 10 + i} at /srv/app_${k}/main.ts maxPoolSize`),
  );

/** A helper on this thread that answers a claimed batch after `delayMs` (per batch), or fails after `failAfter` answers. */
function timedHelper(delayMs: number, failAfter = Number.POSITIVE_INFINITY): PrepHelper & { prepared: number[] } {
  const prepared: number[] = [];
  return {
    prepared,
    start(batches, claims, onBatch, onError) {
      let k = 0;
      const next = () => {
        while (k < batches.length && !claimBatch(claims, k)) k++;
        if (k >= batches.length) return;
        if (prepared.length >= failAfter) return onError();
        const index = k++;
        setTimeout(() => {
          prepared.push(index);
          onBatch(index, prepareChunks(batches[index]!));
          next();
        }, delayMs);
      };
      next();
    },
  };
}

async function written(batches: string[][], helper: PrepHelper): Promise<{ order: number[]; preps: ChunkPrep[] }> {
  const order: number[] = [];
  const preps: ChunkPrep[] = [];
  await preparedInOrder(batches, helper, (k, prep) => {
    order.push(k);
    preps.push(prep);
  });
  return { order, preps };
}

describe("preparing chunks with a helper", () => {
  test("every batch is written once, in order, with what preparing it alone gives; both threads took part", async () => {
    const batches = batchesOf(40);
    const helper = timedHelper(1);
    const { order, preps } = await written(batches, helper);
    expect(order).toEqual(batches.map((_, k) => k));
    expect(preps).toEqual(batches.map((b) => prepareChunks(b)));
    expect(helper.prepared.length).toBeGreaterThan(0);
    expect(helper.prepared.length).toBeLessThan(batches.length);
    expect(new Set(helper.prepared).size).toBe(helper.prepared.length);
  });

  test("a helper that stops half-way: the batches it claimed and never answered are prepared here", async () => {
    const batches = batchesOf(30);
    const { order, preps } = await written(batches, timedHelper(2, 3));
    expect(order).toEqual(batches.map((_, k) => k));
    expect(preps).toEqual(batches.map((b) => prepareChunks(b)));
  });

  test("a helper that is slow to answer: this thread prepares the rest and nothing waits for ever", async () => {
    const batches = batchesOf(12);
    const helper = timedHelper(200);
    const { order } = await written(batches, helper);
    expect(order).toEqual(batches.map((_, k) => k));
    expect(helper.prepared.length).toBeLessThanOrEqual(2);
  });

  test("a worker with its helper thread, and the settle command with one, write the same index rows as an inline settle", async () => {
    const dir = tempDir();
    const file = join(dir, "big.log");
    writeFileSync(file, noisyLog(12_000, 9, { line: 7_000, text: "ERROR ledgerSnapshotWriter_9f3a failed: quota exceeded" })); // ~1 MB
    const rows = async (name: string, background: "worker" | "inline", indexHelper = false) => {
      const path = join(dir, name);
      const engine = createEngine({ config: testConfig(path), background, indexHelper });
      const captured = await engine.capture({ file, tool: "bash", force: true });
      expect(captured.stored && captured.chunks).toBeGreaterThan(4 * PREP_BATCH);
      const found = await engine.search({ query: "Writer_9f3a" });
      expect(found.ok && found.hits[0]?.text).toContain("ledgerSnapshotWriter_9f3a");
      await engine.settle();
      await engine.close();
      const db = openDatabase(path);
      db.exec("CREATE VIRTUAL TABLE temp.words_v USING fts5vocab(main, chunks_words, instance)");
      db.exec("CREATE VIRTUAL TABLE temp.idents_v USING fts5vocab(main, chunk_idents, instance)");
      const dump = {
        words: db.query("SELECT term, doc, col, offset FROM temp.words_v ORDER BY 1, 2, 3, 4").values(),
        idents: db.query("SELECT term, doc, col, offset FROM temp.idents_v ORDER BY 1, 2, 3, 4").values(),
        vocabulary: db.query("SELECT word, docs FROM vocabulary ORDER BY word").values(),
      };
      db.close();
      return dump;
    };
    const inline = await rows("inline.db", "inline");
    const worker = await rows("worker.db", "worker");
    // `pi-sidecar settle`: inline, with a helper thread.
    const settleCommand = await rows("settle.db", "inline", true);
    expect(inline.words.length).toBeGreaterThan(10_000);
    expect(inline.idents.length).toBeGreaterThan(1_000);
    expect(worker).toEqual(inline);
    expect(settleCommand).toEqual(inline);
  }, 120_000);
});
