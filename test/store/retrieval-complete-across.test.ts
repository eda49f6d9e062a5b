/**
 * A place that has every word of the query outranks places that have some, wherever they are:
 * not only in its own stretch of the text (windows.ts). A coverage report's functions: the
 * record named as asked, with its count, over the records of other functions whose count has
 * the same key. The output is made up for the test.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

const VERBS = ["read", "scan", "emit", "wrap", "pack", "fold", "sort", "trim"];
const TAILS = ["ab", "cd", "ef", "gh", "ij"];

/** Per file, its line records, then its functions: `{ "call_total": n, "lineno": l, "name": "foldcd" }`. */
function coverage(): string {
  const files = [];
  for (let f = 0; f < 5; f++) {
    const lines = Array.from({ length: 90 }, (_, i) => ({ branches: [], count: (i * 7) % 5, line_number: i + 1, noncode: i % 3 === 0 }));
    const functions = Array.from({ length: 8 }, (_, i) => ({
      call_total: f === 1 && i === 5 ? 4321 : i + 1,
      lineno: 10 * i + 3,
      name: `${VERBS[i]}${TAILS[f]}`,
    }));
    files.push({ file: `src/unit${f}.c`, lines, functions });
  }
  return `${JSON.stringify({ root: "/src", files }, null, 4)}\n`;
}

describe("a place with the whole query, against places with some of it elsewhere", () => {
  test("the function named as asked shows its count", async () => {
    const text = coverage();
    const { store, source } = await stored(text);
    const row = text.split("\n").findIndex((l) => l.includes('"call_total": 4321')) + 1;
    expect(shows(top3(store, source, "foldcd call_total"), row, "4321")).toBe(true);
  });
});
