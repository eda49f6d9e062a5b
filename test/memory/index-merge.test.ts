import { describe, expect, test } from "bun:test";
import { PROJECT, testMemory } from "./helpers.ts";

const segments = (m: ReturnType<typeof testMemory>, fts: string) =>
  m.db.query<{ n: number }, []>(`SELECT count(DISTINCT segid) AS n FROM ${fts}_idx`).get()!.n;

describe("word index segments after single adds", () => {
  test("a run of single adds leaves the word indexes in a few segments, and every event is still found", async () => {
    const m = testMemory();
    const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
    // Each add is its own transaction: a segment of its own before any merge (FTS5 alone kept up to three per level).
    for (let i = 0; i < 120; i++) await m.add("note", `note ${i}: the ${words[i % words.length]} service listens on port ${4000 + i}`);
    expect(segments(m, "memory_events_fts")).toBeLessThanOrEqual(3);
    expect(segments(m, "memory_summaries_fts")).toBeLessThanOrEqual(3);
    // Merging moved index entries, never lost one: each port is found, and the index checks out.
    for (const i of [0, 37, 64, 119]) {
      const hits = await m.ok({ type: "search", project: PROJECT, query: `port ${4000 + i}`, limit: 5 }, "search");
      expect(hits.hits.some((h) => h.text.includes(`port ${4000 + i}`))).toBe(true);
    }
    // Both indexes against their rows.
    m.db.exec("INSERT INTO memory_events_fts (memory_events_fts, rank) VALUES ('integrity-check', 1)");
    m.db.exec("INSERT INTO memory_summaries_fts (memory_summaries_fts, rank) VALUES ('integrity-check', 1)");
    m.db.close();
  });
});
