/**
 * A reply is read with the prompt it replies to (exchange.ts): the prompt names the subject, the
 * record that follows it in the same session says only the value. Histories written for these
 * tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { CONTEXT, withPromptWords } from "../../src/memory/exchange.ts";
import type { TextScore } from "../../src/memory/rank.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const search = async (m: TestMemory, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.id);

/** Work that names the audit log and the database, each item a little different. */
async function chatter(m: TestMemory, from: number) {
  for (let i = from; i < from + 8; i++) {
    await m.add("prompt", `the audit log page times out for tenant ${i}`, `c${i}`);
    await m.add("answer", `Added an index for tenant ${i}; the audit page loads in 80 ms now.`, `c${i}`);
    await m.add("prompt", `database migration ${i} fails on the staging copy`, `c${i}`);
    await m.add("answer", `Migration ${i} fixed: a column default was missing.`, `c${i}`);
  }
}

describe("a reply is read with the prompt it replies to", () => {
  test("the record that settles a prompt's question is found by the prompt's words", async () => {
    const m = testMemory();
    await chatter(m, 0);
    await m.add("prompt", "where should the audit trail be stored? which database, compliance wants to know", "s1");
    const reply = await m.add(
      "decision",
      "append-only table in the ledger schema for the audit rows, writes through a trigger, no updates",
      "s1",
    );
    await chatter(m, 10);
    expect(await search(m, "which database holds the audit trail")).toContain(reply);
  });

  test("the same record after a prompt on something else is not lifted", async () => {
    const m = testMemory();
    await chatter(m, 0);
    await m.add("prompt", "the nightly export is slow again", "s1");
    const reply = await m.add(
      "decision",
      "append-only table in the ledger schema for the audit rows, writes through a trigger, no updates",
      "s1",
    );
    await chatter(m, 10);
    expect(await search(m, "which database holds the audit trail")).not.toContain(reply);
  });

  test("a prompt in another session lends nothing", async () => {
    const m = testMemory();
    await chatter(m, 0);
    await m.add("prompt", "the audit trail needs a home in a database, compliance wants to know which", "s1");
    const reply = await m.add(
      "decision",
      "append-only table in the ledger schema for the audit rows, writes through a trigger, no updates",
      "s2",
    );
    await chatter(m, 10);
    expect(await search(m, "which database holds the audit trail")).not.toContain(reply);
  });
});

describe("withPromptWords", () => {
  const score = (groups: [number, number][], held: number, matched: number, total: number, s: number): TextScore => ({
    score: s,
    matched,
    groups: new Map(groups),
    held,
    total,
    forms: new Map(groups.map(([g]) => [g, 1])),
  });

  test("the prompt's words the reply lacks count at CONTEXT of their weight, its own groups unchanged", () => {
    const own = score([[0, 2]], 2, 1, 8, 1);
    const prompt = score(
      [
        [0, 2],
        [1, 4],
      ],
      6,
      2,
      8,
      3,
    );
    const read = withPromptWords(own, prompt, 3);
    expect(read.held).toBeCloseTo(2 + CONTEXT * 4);
    expect(read.matched).toBe(2);
    expect([...read.groups.keys()]).toEqual([0]);
    expect(read.score).toBeGreaterThan(own.score);
  });

  test("a reply holding none of the query's words borrows nothing", () => {
    const own = score([], 0, 0, 8, 0);
    const prompt = score([[1, 4]], 4, 1, 8, 3);
    expect(withPromptWords(own, prompt, 3)).toBe(own);
  });
});
