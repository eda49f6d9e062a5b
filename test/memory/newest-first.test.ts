/**
 * The newest statement of a subject first (subjects.ts): a later record that restates a subject
 * another way, with no word saying it changes anything (so no correction link is made), still
 * ranks above the earlier record; neither is marked replaced; statements about another subject
 * keep their own order.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

async function chatter(m: TestMemory, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await m.add("prompt", `please rerun shard ${i} of the nightly suite`, "s1");
    await m.add("answer", `Shard ${i} passed in ${i + 40} s; nothing flaky this time.`, "s1");
  }
}

const search = (m: TestMemory, query: string) => m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search");

describe("newest statement of a subject first", () => {
  test("a later decision on the same subject, said without a cue of change, ranks above the earlier one", async () => {
    const m = testMemory();
    await chatter(m, 20);
    const old = await m.add("decision", "warehouse snapshots kept as gzip csv dumps, one folder per week", "s1");
    await chatter(m, 20);
    const later = await m.add(
      "decision",
      "csv dumps were too slow to scan; warehouse snapshots written as zstd arrow files, one folder per week",
      "s2",
    );
    const found = await search(m, "format of warehouse snapshots");
    const ids = found.hits.map((h) => h.id);
    expect(ids).toContain(old);
    expect(ids.indexOf(later)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(later)).toBeLessThan(ids.indexOf(old));
    // No link was made: the earlier statement is not marked replaced.
    expect(found.hits.find((h) => h.id === old)?.supersededBy).toBeNull();
  });

  test("a later statement about another subject that shares one word keeps its rank below a better match", async () => {
    const m = testMemory();
    await chatter(m, 20);
    const answer = await m.add("decision", "warehouse snapshots kept as gzip csv dumps, one folder per week", "s1");
    await chatter(m, 20);
    const other = await m.add("note", "the warehouse badge reader at the office door is broken again", "s2");
    const found = await search(m, "format of warehouse snapshots");
    const ids = found.hits.map((h) => h.id);
    expect(ids[0]).toBe(answer);
    if (ids.includes(other)) expect(ids.indexOf(other)).toBeGreaterThan(ids.indexOf(answer));
  });
});
