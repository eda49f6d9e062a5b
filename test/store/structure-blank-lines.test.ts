/**
 * Records across an empty line: a row indented under another still belongs to it after a blank
 * (or whitespace-only) line inside the block, so a window grows from the matched row to the end
 * of what it owns; but a table's header is looked for in the row's own block only. The TAP report
 * is real (test/store/fixtures/retrieval/README.md).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { headersOf, recordOf, structureOf } from "../../src/store/search/structure.ts";

const tap = readFileSync(join(import.meta.dir, "fixtures/retrieval/node-test-tap-config.txt"), "utf8").split("\n");
const rowOf = (rows: string[], text: string, from = 0) => rows.findIndex((r, i) => i >= from && r.includes(text));

describe("a block with a whitespace-only line inside it", () => {
  const s = structureOf(tap, true);
  const failed = rowOf(tap, "not ok 3 - canary config loads the same zone");
  const error = rowOf(tap, "  error: |-", failed);
  const actual = rowOf(tap, "+   zone: 'us-east-7'", failed);
  const blank = rowOf(tap, "+ actual - expected", failed) + 1;

  test("the fixture has the empty line between the error and its diff", () => {
    expect(tap[blank]!.trim()).toBe("");
    expect(blank).toBeGreaterThan(error);
    expect(actual).toBeGreaterThan(blank);
  });

  test("the diff line after it is still owned by the error and the failed test", () => {
    const headers = headersOf(s, actual, tap);
    expect(headers).toContain(error);
    expect(headers).toContain(failed);
  });

  test("the error owns its lines to the end of the diff, across the empty line", () => {
    expect(s.childEnd[error]!).toBeGreaterThanOrEqual(actual + 2);
    expect(tap[s.childEnd[error]!]!.trim()).toBe("}");
    // The smallest record of the error's first line is the error with its whole diff.
    const record = recordOf(s, error + 1)!;
    expect(record[0]).toBe(error);
    expect(record[1]).toBeGreaterThanOrEqual(actual);
  });
});

describe("members separated by empty lines", () => {
  // A class listing (javap's shape): one member per block, all under the class's `{`.
  const rows = [
    "public class Cache {",
    "  private static final long serialVersionUID;",
    "    descriptor: J",
    "",
    "  transient int size;",
    "    descriptor: I",
    "",
    "  int threshold;",
    "    descriptor: I",
    "}",
  ];
  const s = structureOf(rows, true);

  test("each member is owned by the class", () => {
    expect(s.owner[4]).toBe(0);
    expect(s.owner[7]).toBe(0);
  });

  test("the first member is not a header of the members in later blocks", () => {
    expect(headersOf(s, 7, rows)).not.toContain(1);
    expect(headersOf(s, 8, rows)).toContain(7);
  });
});
