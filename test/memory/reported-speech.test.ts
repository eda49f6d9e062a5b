/**
 * Speech reported of others ("a tenant says the intercom is gone", "ops told us the relay moved")
 * is their report, not what the speaker states holds (mood.ts, change-cues.ts): no correction,
 * and it replaces nothing. The speaker's own words and a thing that "now says" something are not.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { isCorrection } from "../../src/memory/change-cues.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { chatter, PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("speech reported of others", () => {
  test("is no correction", () => {
    expect(isCorrection("a tenant says the intercom panel is gone", "prompt")).toBe(false);
    expect(isCorrection("the intercom panel is gone", "prompt")).toBe(true);
    expect(isCorrection("the banner now says the old address is gone", "prompt")).toBe(true);
  });

  test("replaces nothing", async () => {
    const m = testMemory();
    await chatter(m, 20);
    await m.add("note", "intercom: lobby panel dials the flat, door opens with 9", "s1");
    await chatter(m, 20);
    const text = "a tenant says the intercom panel is gone, anything we can check";
    const added = await m.ok({ type: "add", project: PROJECT, session: "s2", kind: "prompt", text }, "add");
    expect(added.supersedes).toEqual([]);
  });
});
