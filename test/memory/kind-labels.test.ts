/**
 * A label naming the kind of record ("note: ...") is no word of what a record is about
 * (supersede.ts): two notes that share nothing else are not linked by it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { supersession } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("a kind label", () => {
  test("shared by two notes links neither to the other", async () => {
    const { supersedes } = await supersession(
      ["note", "note: builds run on the spare box, agents in the basement rack"],
      ["note", "note: ferry deck capacity moved to lane metres per crossing"],
    );
    expect(supersedes).toEqual([]);
  });

  test("two notes about one thing are still linked", async () => {
    const { old, supersedes } = await supersession(
      ["note", "note: ferry deck capacity is counted in cars per crossing"],
      ["note", "note: ferry deck capacity moved to lane metres per crossing"],
    );
    expect(supersedes).toEqual([old]);
  });
});
