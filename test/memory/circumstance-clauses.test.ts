/**
 * A verb of change in an adverbial clause of time or reason with its own subject ("after we
 * renamed the key") gives the circumstances of what the main clause reports ("the app can't find
 * its settings"): no correction, and it replaces nothing (mood.ts, change-cues.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { isCorrection } from "../../src/memory/change-cues.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { supersession } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("a change in a clause of circumstance", () => {
  test("is no correction; the same change in the main clause is", () => {
    expect(isCorrection("the app cant find its settings file after we renamed the config key", "prompt")).toBe(false);
    expect(isCorrection("we renamed the config key after they dropped the old loader", "prompt")).toBe(true);
  });

  test("replaces nothing", async () => {
    const { supersedes } = await supersession(
      ["answer", "The settings file is read from the config key APP_SETTINGS at start-up, then cached."],
      ["prompt", "the app cant find its settings file after we renamed the config key"],
      20,
    );
    expect(supersedes).toEqual([]);
  });
});
