/**
 * "X seems dead", "Y looks gone": a copula of perception says how a thing appears, not that it
 * left the project (change-cues.ts): no correction, and nothing rejected.
 */
import { describe, expect, test } from "bun:test";
import { isCorrection } from "../../src/memory/change-cues.ts";
import { rejectedOf } from "../../src/memory/classify.ts";

describe("gone after a copula of perception", () => {
  test("is how a thing appears", () => {
    expect(isCorrection("is the vm still up? my cache seems dead", "prompt")).toBe(false);
    expect([...rejectedOf("the job queue looks gone after a restart")]).toEqual([]);
  });

  test("said with a plain copula it is gone", () => {
    expect(isCorrection("the cache is dead, reads go straight to the store now", "prompt")).toBe(true);
    expect([...rejectedOf("the job queue is gone after the rewrite")]).toContain("queu");
  });
});
