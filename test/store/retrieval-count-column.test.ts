/**
 * A count in a column of counts, aligned before a column of names (a linter's statistics:
 * `20      C901 function is too complex`): it counts what follows it, however many spaces align
 * it. The output is made up for the test.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

const CODES = [
  "W605 invalid escape sequence",
  "W291 trailing whitespace",
  "E111 indentation is not a multiple of four",
  "E225 missing whitespace around operator",
  "E303 too many blank lines",
  "E402 module level import not at top of file",
  "C901 function is too complex",
  "E711 comparison to None",
  "E722 do not use bare except",
  "W391 blank line at end of file",
  "E128 continuation line under-indented",
  "F841 local variable is assigned to but never used",
];

/** Each finding with its source line and a caret; then, per code, how many there were. */
function lintWithStatistics(): string {
  const lines: string[] = [];
  for (let i = 0; i < 240; i++) {
    lines.push(`pkg/mod${i % 5}.py:${10 + i}:1: ${CODES[i % CODES.length]}`);
    lines.push(`    value = compute(${i}, "\\d")`);
    lines.push("    ^");
  }
  for (const code of CODES) lines.push(`20      ${code}`);
  return `${lines.join("\n")}\n`;
}

describe("a count aligned in a column before its name", () => {
  test("answers how many of that name, over the lines that are each one of them", async () => {
    const text = lintWithStatistics();
    const { store, source } = await stored(text);
    const row = text.split("\n").findIndex((l) => l.startsWith("20      C901")) + 1;
    expect(shows(top3(store, source, "how many C901 function is too complex"), row, "20      C901")).toBe(true);
  });
});
