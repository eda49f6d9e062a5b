/**
 * A change that sets only numbers ("bump quokka to 2.1.14") is about a setting: an older statement
 * with no number at all ("we picked quokka over the raw driver") has no place for that value, and
 * a shared name is no link to it (supersede.ts). One that holds a number of it still is replaced.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { supersession } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("a change that sets only numbers", () => {
  test("replaces no statement that holds no number", async () => {
    const { supersedes } = await supersession(
      ["note", "store: quokka client over the raw driver, pooled connections, no ORM"],
      ["note", "chore(deps): bump quokka to 2.1.14"],
    );
    expect(supersedes).toEqual([]);
  });

  test("replaces the statement that holds the old number", async () => {
    const { old, supersedes } = await supersession(
      ["note", "store: quokka client pinned at 2.0.3, pooled connections"],
      ["note", "chore(deps): bump quokka to 2.1.14"],
    );
    expect(supersedes).toEqual([old]);
  });
});
