/**
 * Two query words in a row match the one word a note writes them as (query.ts): "type check" finds
 * "typecheck", "memory map" finds "memmap" (a clipped first word joined to the second); words
 * that are not next to each other in the query are not joined.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

async function chatter(m: TestMemory, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await m.add("prompt", `please look at flaky spec ${i} in the parser suite`, "s1");
    await m.add("answer", `Spec ${i} depended on test order; made it independent.`, "s1");
  }
}

const search = (m: TestMemory, query: string) => m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search");

describe("compound words", () => {
  test("two words in a row find the word they are joined into, whole or with the first clipped", async () => {
    const m = testMemory();
    await chatter(m, 15);
    const joined = await m.add("note", "CI blocks merges until `bun typecheck` is green", "s1");
    const clipped = await m.add("decision", "large inputs are opened with memmap=True, small ones read whole", "s1");
    await chatter(m, 15);
    expect((await search(m, "type check")).hits.map((h) => h.id)).toContain(joined);
    expect((await search(m, "when do we memory map")).hits.map((h) => h.id)).toContain(clipped);
  });

  test("words apart in the query are not joined", async () => {
    const m = testMemory();
    await chatter(m, 15);
    const clipped = await m.add("decision", "large inputs are opened with memmap=True, small ones read whole", "s1");
    await chatter(m, 15);
    expect((await search(m, "memory of the map")).hits.map((h) => h.id)).not.toContain(clipped);
  });
});
