/**
 * Corrections linked to what they replace by the subject both name (supersede.ts): a rare name
 * (a tool, a service) shared with an older statement, even when the change is said in another
 * sentence than the name, and commit subjects under a Conventional Commits header.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** Everyday chatter so the words of the statements are not all rare. */
async function chatter(m: TestMemory, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await m.add("prompt", `can you run the level ${i} tests again`, "s1");
    await m.add("answer", `Ran the level ${i} tests: all green, the rewarded screen loads in ${i + 20} ms.`, "s1");
  }
}

const search = (m: TestMemory, query: string) => m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search");

describe("corrections linked by their subject", () => {
  test("a rare name in one sentence, the change in the next: the older statement naming it is replaced", async () => {
    const m = testMemory();
    await chatter(m, 30);
    const old = await m.add("prompt", "so we're doing Quokkads for rewarded ads, hook it up to the continue screen", "s1");
    await chatter(m, 30);
    const text = "Quokkads got our account flagged lol. moved all the rewarded placements to Zebramax yesterday";
    const added = await m.ok({ type: "add", project: PROJECT, session: "s2", kind: "prompt", text }, "add");
    const fix = added.id;
    expect(added.supersedes).toEqual([old]);
    // A query the old statement's words match best still shows the correction first.
    const found = await search(m, "rewarded ads");
    expect(found.hits[0]!.id).toBe(fix);
    expect(found.hits.find((h) => h.id === old)?.supersededBy).toBe(fix);
  });

  test("a statement sharing only common words with the change is left alone", async () => {
    const m = testMemory();
    await chatter(m, 30);
    const other = await m.add("prompt", "the rewarded screen should fade in, not pop", "s1");
    await chatter(m, 30);
    await m.add("prompt", "Quokkads got our account flagged lol. moved all the rewarded placements to Zebramax yesterday", "s2");
    const found = await search(m, "rewarded screen fade");
    expect(found.hits.find((h) => h.id === other)?.supersededBy).toBeNull();
  });

  test("a commit subject under a type(scope) header that says a tool is out replaces the commit that chose it", async () => {
    const m = testMemory();
    await chatter(m, 30);
    const old = await m.add("prompt", "feat(time): timestamps parsed with chrono, always normalised to UTC on ingest", "s1");
    await chatter(m, 30);
    const fix = await m.add("prompt", "refactor(time): chrono is out, everything is jiff now", "s2");
    const found = await search(m, "timestamp parsing library");
    expect(found.hits[0]!.id).toBe(fix);
    expect(found.hits.find((h) => h.id === old)?.supersededBy).toBe(fix);
  });
});
