/**
 * "undo" opens a correction as an imperative ("undo that", "undo the rename"), not as a noun
 * before a preposition ("undo after a long paste restores one line at a time"): a report of how
 * the feature behaves (change-cues.ts).
 */
import { describe, expect, test } from "bun:test";
import { isCorrection } from "../../src/memory/change-cues.ts";

describe("undo at the start", () => {
  test("as a noun it opens no correction", () => {
    expect(isCorrection("undo after a long paste restores one line at a time", "prompt")).toBe(false);
  });

  test("as an imperative it does", () => {
    expect(isCorrection("undo that, keep the first name", "prompt")).toBe(true);
    expect(isCorrection("undo the rename", "prompt")).toBe(true);
    expect(isCorrection("undo. keep it as it was", "prompt")).toBe(true);
  });
});
