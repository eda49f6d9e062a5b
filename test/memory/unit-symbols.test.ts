/**
 * Amounts of time written with a unit symbol are found by the unit's name (unit-symbols.ts).
 * Texts written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { tokenKeys } from "../../src/memory/classify.ts";
import { extraTerms } from "../../src/memory/identifiers.ts";
import { unitNames } from "../../src/memory/unit-symbols.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("amounts of time in symbols", () => {
  test("a statement's keys hold a unit of time by its name, whether written by symbol or in full", () => {
    const minutes = [...tokenKeys("minutes")][0]!;
    expect(tokenKeys("lease renewal window bumped to 45 min").has(minutes)).toBe(true);
    expect(tokenKeys("lease renewals open 20 minutes before expiry").has(minutes)).toBe(true);
    expect([...tokenKeys("polls every 3 hrs")].some((k) => tokenKeys("3 hours").has(k))).toBe(true);
    // A one-letter symbol is no word of a statement: "3 h" adds no key for hours.
    expect(tokenKeys("polls every 3 h").has([...tokenKeys("hours")][0]!)).toBe(false);
  });

  test("symbols attached or after a space, each unit once; symbols inside words or hex are not amounts", () => {
    expect(unitNames("retry after 30s, give up at 2 h; cache 7d, timeout 250ms, again 45s")).toEqual([
      "seconds",
      "hours",
      "days",
      "milliseconds",
    ]);
    expect(unitNames("commit a5d3f1, the 3ds file, md5sum, v2h2")).toEqual([]);
    expect(extraTerms("window is 36h")).toBe("hours");
    expect(extraTerms("rate_limiter 10s")).toBe("seconds ratelimiter");
  });

  test("the space between number and symbol is one on the same line: a number ending a line and a letter starting the next are not an amount", () => {
    expect(unitNames("replicas: 5\nd-pool: on\nworkers 3\r\ns3 bucket")).toEqual([]);
    expect(unitNames("timeout 30\u00a0s, tab 2\th")).toEqual(["seconds", "hours"]);
  });

  test("a question asking how many hours finds the statement that writes them as a symbol", async () => {
    const m = testMemory();
    for (let i = 0; i < 6; i++) {
      await m.add("prompt", `a customer asked for a refund on order ${i}`, `c${i}`);
      await m.add("answer", `Refund for order ${i} issued from the admin page.`, `c${i}`);
    }
    // The memory knows the word: a "how many hours" question is then about it (answer-type.ts).
    await m.add("prompt", "support answers within office hours only", "c9");
    const rule = await m.add("decision", "refund requests accepted up to 72h after delivery, later ones go to support", "s1");
    const hits = (
      await m.ok({ type: "search", project: PROJECT, query: "how many hours after delivery can a refund be requested", limit: 5 }, "search")
    ).hits;
    expect(hits.map((h) => h.id)).toContain(rule);
  });
});
