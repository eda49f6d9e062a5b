/**
 * Speech reported of others ("a tenant says the intercom is gone", "ops told us the relay moved")
 * is their report, not what the speaker states holds (mood.ts, change-cues.ts): no correction,
 * and it replaces nothing. The speaker's own words and a thing that "now says" something are not.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { isCorrection } from "../../src/memory/change-cues.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { supersession } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("speech reported of others", () => {
  test("is no correction", () => {
    expect(isCorrection("a tenant says the intercom panel is gone", "prompt")).toBe(false);
    expect(isCorrection("the intercom panel is gone", "prompt")).toBe(true);
    expect(isCorrection("the banner now says the old address is gone", "prompt")).toBe(true);
  });

  test("replaces nothing", async () => {
    const { supersedes } = await supersession(
      ["note", "intercom: lobby panel dials the flat, door opens with 9"],
      ["prompt", "a tenant says the intercom panel is gone, anything we can check"],
      20,
    );
    expect(supersedes).toEqual([]);
  });
});
