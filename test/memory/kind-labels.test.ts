/**
 * A label naming the kind of record ("note: ...") is no word of what a record is about
 * (supersede.ts): two notes that share nothing else are not linked by it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { chatter, PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("a kind label", () => {
  test("shared by two notes links neither to the other", async () => {
    const m = testMemory();
    await chatter(m, 30);
    await m.add("note", "note: builds run on the spare box, agents in the basement rack", "s1");
    await chatter(m, 30);
    const text = "note: ferry deck capacity moved to lane metres per crossing";
    const added = await m.ok({ type: "add", project: PROJECT, session: "s2", kind: "note", text }, "add");
    expect(added.supersedes).toEqual([]);
  });

  test("two notes about one thing are still linked", async () => {
    const m = testMemory();
    await chatter(m, 30);
    const old = await m.add("note", "note: ferry deck capacity is counted in cars per crossing", "s1");
    await chatter(m, 30);
    const text = "note: ferry deck capacity moved to lane metres per crossing";
    const added = await m.ok({ type: "add", project: PROJECT, session: "s2", kind: "note", text }, "add");
    expect(added.supersedes).toEqual([old]);
  });
});
