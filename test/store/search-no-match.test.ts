/**
 * The quick "no" for a word no stored text holds (search/infix.ts): asked of the vocabulary
 * instead of reading every chunk whose trigrams match. It must never say "no" for a word that is
 * there: inside a longer token, or across the edge of a letter run's 32-letter pieces.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createRetrievalLog } from "../../src/store/retrieval-log.ts";
import { inVocabulary, mayHoldAll } from "../../src/store/search/infix.ts";
import { search } from "../../src/store/search/search.ts";
import { captureIndexed, cleanupTempDirs, testStore } from "../helpers.ts";

afterAll(cleanupTempDirs);

/** 40 letters: the vocabulary keeps the first 32 and the last 8 as two words. */
const LONG_RUN = "abcdefghijklmnopqrstuvwxyzqwertzuiopasdf";

describe("whether a word can be in the store, from its vocabulary", () => {
  test("yes inside a longer word and across a long run's piece edge; no for a word that is nowhere", async () => {
    const store = testStore();
    await captureIndexed(store, { text: `loaded libwebpmux3.so\nblob ${LONG_RUN}=1\n`, tool: "bash", force: true });
    expect(inVocabulary(store.db, "webpmux")).toBe(true);
    // Letters 29-36 of the run: the end of its first 32-letter piece and the start of the next.
    expect(inVocabulary(store.db, LONG_RUN.slice(28, 36))).toBe(true);
    expect(LONG_RUN.slice(28, 36)).toBe("ertzuiop");
    expect(inVocabulary(store.db, "webpmuxx")).toBe(false);
    expect(inVocabulary(store.db, "quokka")).toBe(false);
    // A word that a piece ends with the start of ("z" ends the first piece) cannot be ruled out.
    expect(inVocabulary(store.db, "zqwerty")).toBe(true);
    // What the vocabulary cannot tell (digits, longer than a piece) is a "maybe".
    expect(inVocabulary(store.db, "mux3")).toBe(true);
    expect(inVocabulary(store.db, "x".repeat(40))).toBe(true);
  });
});

describe("a word inside longer identifiers, among many chunks whose trigrams match", () => {
  // Each decoy line has every trigram of "webpmux" (webp_1bpmux) but not the word: the identifier
  // index hands over hundreds of chunks, and the vocabulary is asked first.
  const decoys = Array.from({ length: 6000 }, (_, i) => `worker ${i} mapped webp_${i}bpmux_${i}.so`);

  test("is still found inside a longer token, and across a long run's piece edge", async () => {
    const store = testStore((c) => {
      c.capture.chunkBytes = 512;
    });
    const lines = [...decoys];
    lines.splice(3000, 0, "worker x mapped /usr/lib/libwebpmux3.so.3");
    lines.splice(4500, 0, `worker y blob ${LONG_RUN}_9`);
    const r = await captureIndexed(store, { text: lines.join("\n"), tool: "bash", force: true });
    if (!r.stored) throw new Error("not stored");
    expect(mayHoldAll(store.db, ["webpmux"])).toBe(true);
    const inside = search(store, { query: "webpmux", limit: 3 });
    if (!inside.ok) throw new Error(inside.message);
    expect(inside.mode).toBe("word starts");
    expect(inside.hits[0]!.lines.some((l) => l.match && l.text.includes("libwebpmux3.so.3"))).toBe(true);
    const across = search(store, { query: LONG_RUN.slice(28, 36), limit: 3 });
    if (!across.ok) throw new Error(across.message);
    expect(across.mode).toBe("word starts");
    expect(across.hits[0]!.lines.some((l) => l.match && l.text.includes(LONG_RUN))).toBe(true);
  });

  test("a word nowhere is told without reading the chunks: no match, as before", async () => {
    const store = testStore((c) => {
      c.capture.chunkBytes = 512;
    });
    const r = await captureIndexed(store, { text: decoys.join("\n"), tool: "bash", force: true });
    if (!r.stored) throw new Error("not stored");
    expect(mayHoldAll(store.db, ["webpmux"])).toBe(false);
    const none = search(store, { query: "webpmux", limit: 3 });
    if (!none.ok) throw new Error(none.message);
    expect(none.mode).toBe("no match");
    expect(none.hits).toEqual([]);
  });
});

describe("the retrieval log's commit", () => {
  test("never checkpoints the WAL into the file (that waits for the next other write)", async () => {
    const store = testStore();
    const r = await captureIndexed(store, { text: "line one\nline two\n", tool: "bash", force: true });
    if (!r.stored) throw new Error("not stored");
    // Every commit would checkpoint: the file itself changes with each write.
    store.db.exec("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA wal_autocheckpoint = 1");
    const file = () => readFileSync(store.path).toString("base64");
    const before = file();
    const log = createRetrievalLog(store.db, () => 1);
    log.add({ kind: "search", query: "line", mode: "all words", hits: 1, parts: [{ sourceId: r.sourceId, text: "1: line one" }] });
    await log.flushAsync(1000);
    expect(file()).toBe(before);
    expect(store.db.query("SELECT count(*) AS n FROM retrievals").get()).toEqual({ n: 1 });
    expect(store.db.query("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: 1 });
    // Another write does checkpoint, and the record is in the file.
    store.db.exec("INSERT INTO meta (key, value) VALUES ('test', '1')");
    expect(file()).not.toBe(before);
  });
});
