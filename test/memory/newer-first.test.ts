/**
 * Recency breaks near ties among the hits that answer (rank.ts newerWeights): of two statements
 * matching a question about as well, the one said weeks later is shown first; said at the same
 * time, the better match stays first. Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { NEWER_SPREAD, newerWeights } from "../../src/memory/rank.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { hitIds, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const DAY = 86_400_000;

describe("newer weights", () => {
  test("1 for the oldest sitting, 1 + NEWER_SPREAD for the newest, the same within one sitting", () => {
    const HOUR = 3_600_000;
    const w = newerWeights(["a", "b", "c", "d"], (x) => ({ a: 0, b: 2 * HOUR, c: 2 * HOUR + 10, d: 5 * HOUR })[x]!);
    expect(w.get("a")).toBe(1);
    expect(w.get("b")).toBe(w.get("c")!);
    expect(w.get("b")).toBe(1 + NEWER_SPREAD / 2);
    expect(w.get("d")).toBe(1 + NEWER_SPREAD);
    // One after another, less than an hour apart each: one sitting, however long it lasts.
    const chain = newerWeights(
      [0, 40, 80, 120].map((m) => m * 60_000),
      (t) => t,
    );
    expect(new Set(chain.values())).toEqual(new Set([1]));
    expect(newerWeights(["x"], () => 5).get("x")).toBe(1);
  });
});

describe("a later statement matching about as well", () => {
  const history = async (m: TestMemory, weeksBetween: number) => {
    for (let i = 0; i < 10; i++) {
      await m.add("prompt", `the label printer jammed on batch ${i}, can you reprint`, "s1");
      await m.add("answer", `Reprinted batch ${i}; the roll was loose.`, "s1");
    }
    const older = await m.add("answer", "Label sheets reach the printer from the pdf worker over ipp.", "s2");
    m.clock.t += weeksBetween * 7 * DAY;
    for (let i = 0; i < 6; i++) await m.add("prompt", `bump the changelog for ${i}`, "s3");
    const later = await m.add("prompt", "the printer takes label sheets off the pdf worker via cups", "s4");
    return { older, later };
  };

  test("is shown above the earlier one when said weeks later", async () => {
    const m = testMemory();
    const { older, later } = await history(m, 6);
    const found = await hitIds(m, "how do label sheets reach the printer");
    expect(found.slice(0, 2)).toEqual([later, older]);
  });

  test("said at the same time, the better match stays first", async () => {
    const m = testMemory();
    const { older, later } = await history(m, 0);
    const found = await hitIds(m, "how do label sheets reach the printer");
    expect(found.slice(0, 2)).toEqual([older, later]);
  });
});
