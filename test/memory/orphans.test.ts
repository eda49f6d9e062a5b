/**
 * A statement kept in a search only because an older one it replaced was a hit falls with it
 * (orphans.ts): when the older one, a thin summary line far below the best hit, is left out, the
 * newer one, which holds too little of the query on its own, is left out too. History written for
 * this test.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const DAY = 86_400_000;

describe("a newer statement shown for an older one it replaced", () => {
  test("goes when the older one is left out as a thin line; stays beside it when it is shown", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 10;
      c.memory.keepDays = 30;
    });
    await m.add("note", "note: default retry count is 3 for the mailer", "s1");
    for (let i = 0; i < 9; i++) await m.add("answer", `Checked the signup form ${i}, it validates fine.`, "s1");
    m.clock.t += 31 * DAY;
    const newer = await m.add("correction", "the designers asked for more retries, so the mailer's default retry count is 5 now", "s2");
    for (let i = 0; i < 4; i++) await m.add("prompt", `the webhook for order ${i} fired twice, can you look`, "s2");
    for (let i = 0; i < 4; i++) await m.add("prompt", `the timeout page ${i} shows the wrong text`, "s2");
    // "default" is said often: a statement holding only it holds little of the question.
    for (let i = 0; i < 3; i++) await m.add("prompt", `the default theme on settings page ${i} looks off`, "s2");
    const answer = await m.add("decision", "decision: the webhook default timeout is 10 s for every receiver", "s3");
    await m.ok({ type: "retention" }, "retention");
    const search = (query: string) => m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search");
    const olderShown = (hits: { type: string; text: string }[]) =>
      hits.some((h) => h.type === "summary" && h.text.includes("retry count is 3"));
    const asked = await search("what's the default timeout for a webhook");
    expect(asked.hits[0]!.id).toBe(answer);
    expect(olderShown(asked.hits)).toBe(false);
    expect(asked.hits.map((h) => h.id)).not.toContain(newer);
    // Asked about the retries, both are shown: the newer first.
    const retries = await search("mailer default retry count");
    expect(retries.hits[0]!.id).toBe(newer);
  });
});
