/**
 * A change in a modal passive ("the cache should be bumped", "it could get dropped") says what
 * ought to or may happen, and one in a progressive passive ("X is being retired") what is under
 * way, not what was done (mood.ts, change-cues.ts): no correction, and it replaces nothing.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { isCorrection } from "../../src/memory/change-cues.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { supersession } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("a change in a modal passive", () => {
  test("is no change said as done", () => {
    expect(isCorrection("the nightly window should be moved on holidays", "prompt")).toBe(false);
    expect(isCorrection("the legacy fonts could get dropped soon", "note")).toBe(false);
    expect(isCorrection("the nightly window was moved to 2am", "prompt")).toBe(true);
  });

  test("a change in a progressive passive is under way, not done", () => {
    expect(isCorrection("infra: the build mirror is being retired", "prompt")).toBe(false);
    expect(isCorrection("infra: the build mirror was retired", "prompt")).toBe(true);
  });

  test("replaces nothing", async () => {
    const { supersedes } = await supersession(
      ["note", "maintenance: nightly window runs 1am to 3am, all regions"],
      ["prompt", "maintenance: nightly window should be moved on public holidays"],
      20,
    );
    expect(supersedes).toEqual([]);
  });
});
