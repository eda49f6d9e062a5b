/**
 * The full-text indexes are merged into one segment once they are in many (each capture's index
 * transaction writes new ones): an explicit settle merges to the end, a page budget leaves the
 * rest for the next settle, new text queued for indexing stops it, and every search finds and
 * shows exactly what it did before.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.ts";
import { createEngine } from "../../src/engine.ts";
import { MERGE_SLICE, mergeIndexes, segmentsOf } from "../../src/store/index-merge.ts";
import { settle } from "../../src/store/index-queue.ts";
import { cleanupTempDirs, noisyLog, tempDir, testConfig } from "../helpers.ts";

afterAll(cleanupTempDirs);

const QUERIES = ["ERROR shard", "needle-7", "timeout", "kappa-needle-3 shard", "retry", "shrad"];

async function fragmentedStore(name: string) {
  const path = join(tempDir(), `${name}.db`);
  const engine = createEngine({ config: testConfig(path), background: "inline" });
  // One capture at a time, each indexed on its own: a transaction, and new segments, per text.
  for (let i = 0; i < 24; i++) {
    const text = noisyLog(400, i + 1, { line: 200, text: `ERROR kappa-needle-${i} timeout at shard ${i}` });
    const r = await engine.capture({ text, tool: "bash", force: true, label: `log ${i}` });
    expect(r.stored).toBe(true);
    await engine.search({ query: "warmup" });
  }
  return { path, engine };
}

async function answers(engine: ReturnType<typeof createEngine>): Promise<string[]> {
  const out: string[] = [];
  for (const query of QUERIES) {
    const r = await engine.search({ query, limit: 5 });
    out.push(r.ok ? r.text : r.message);
  }
  return out;
}

describe("index merge", () => {
  test("an explicit settle merges each index into one segment; searches show the same", async () => {
    const { path, engine } = await fragmentedStore("merge");
    const db = openDatabase(path);
    const before = [segmentsOf(db, "chunks_words"), segmentsOf(db, "chunk_idents")];
    expect(Math.max(...before)).toBeGreaterThanOrEqual(4);
    const shown = await answers(engine);
    expect(shown[1]).toContain("needle-7");
    await engine.settle();
    expect([segmentsOf(db, "chunks_words"), segmentsOf(db, "chunk_idents")]).toEqual([1, 1]);
    expect(await answers(engine)).toEqual(shown);
    db.close();
    await engine.close();
  });

  test("a page budget leaves the rest for the next settle, and new text to index stops the merge", async () => {
    const { path, engine } = await fragmentedStore("budget");
    await engine.close();
    const db = openDatabase(path);
    const words = segmentsOf(db, "chunks_words");
    expect(words).toBeGreaterThanOrEqual(4);
    expect(mergeIndexes(db, MERGE_SLICE, () => true)).toEqual({ pages: 0, more: true });
    const part = await settle(db, () => 0, { merge: MERGE_SLICE });
    expect(part.merging).toBe(true);
    expect(Math.max(segmentsOf(db, "chunks_words"), segmentsOf(db, "chunk_idents"))).toBeGreaterThan(1);
    const rest = await settle(db, () => 0, { merge: Number.POSITIVE_INFINITY });
    expect(rest.merging).toBeUndefined();
    expect([segmentsOf(db, "chunks_words"), segmentsOf(db, "chunk_idents")]).toEqual([1, 1]);
    // Nothing left to merge: a settle with a budget does no merge work.
    expect(mergeIndexes(db, MERGE_SLICE, () => false)).toEqual({ pages: 0, more: false });
    db.close();
  });

  test("a settle merges again only after the index grew by a quarter: a hook's settle after each capture does not rewrite it every few commands", async () => {
    const { path, engine } = await fragmentedStore("growth");
    await engine.settle();
    const db = openDatabase(path);
    expect(segmentsOf(db, "chunks_words")).toBe(1);
    // A few small captures: new segments, far less than a quarter more index.
    for (let i = 0; i < 5; i++) {
      await engine.capture({ text: noisyLog(20, 100 + i), tool: "bash", force: true, label: `small ${i}` });
      await engine.search({ query: "warmup" });
    }
    const pieces = segmentsOf(db, "chunks_words");
    expect(pieces).toBeGreaterThanOrEqual(4);
    await engine.settle();
    expect(segmentsOf(db, "chunks_words")).toBe(pieces);
    // Once it has grown by more than a quarter, the next settle merges it.
    for (let i = 0; i < 12; i++) {
      await engine.capture({ text: noisyLog(400, 200 + i), tool: "bash", force: true, label: `big ${i}` });
      await engine.search({ query: "warmup" });
    }
    await engine.settle();
    expect(segmentsOf(db, "chunks_words")).toBe(1);
    db.close();
    await engine.close();
  });

  test("after a purge of everything the index grows from what is left: the next merge does not wait for the old size", async () => {
    const { path, engine } = await fragmentedStore("purged");
    await engine.settle();
    const purged = await engine.purge({ all: true });
    expect(purged.sources).toBe(24);
    const db = openDatabase(path);
    // Far less text than before the purge, but many times what is left: fragments, then one settle merges them.
    for (let i = 0; i < 8; i++) {
      await engine.capture({ text: noisyLog(120, 300 + i), tool: "bash", force: true, label: `after ${i}` });
      await engine.search({ query: "warmup" });
    }
    expect(segmentsOf(db, "chunks_words")).toBeGreaterThanOrEqual(4);
    await engine.settle();
    expect(segmentsOf(db, "chunks_words")).toBe(1);
    const r = await engine.search({ query: "timeout", limit: 1 });
    expect(r.ok).toBe(true);
    db.close();
    await engine.close();
  });
});
