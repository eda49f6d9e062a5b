/**
 * A rare name one statement says only in passing (supersede.ts): a short note of change that
 * shares that one word with an older statement, and nothing else, does not replace it unless the
 * older statement is about that name.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { supersession } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("a name said in passing", () => {
  test("a note of change sharing one word the older statement says in passing replaces nothing", async () => {
    const { supersedes } = await supersession(
      ["prompt", "the nightly export runs at 3am, after that the report script pings the vendor channel"],
      ["note", "vendor sync moved to thursday"],
    );
    expect(supersedes).toEqual([]);
  });

  test("the same note replaces an older statement that is about that name", async () => {
    const { old, supersedes } = await supersession(
      ["prompt", "vendor sync is every monday at 10, in the small room"],
      ["note", "vendor sync moved to thursday"],
    );
    expect(supersedes).toEqual([old]);
  });
});
