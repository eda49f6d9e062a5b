/**
 * A superlative ("which file has the most warnings", "the fewest") asks for a listing's extreme
 * row, and listings are seldom sorted by the column asked about: the row with the largest (or
 * smallest) number under the header's matching word is shown, right after the header. Outputs
 * written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { parseQuery } from "../../src/store/search/query.ts";
import { termsFor } from "../../src/store/search/score.ts";
import { superlativeOf } from "../../src/store/search/superlatives.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** A linter's run: one message per problem, then a per-file count table sorted by file name (the largest count in the middle). */
function lintRun(): { text: string; most: number; fewest: number } {
  const lines: string[] = [];
  const files = Array.from({ length: 60 }, (_, i) => `lib/mod${String(i).padStart(2, "0")}/index.ts`);
  const counts = files.map((_, i) => (i === 37 ? 412 : i === 11 ? 1 : 5 + ((i * 13) % 40)));
  for (let i = 0; i < 60; i++) {
    for (let k = 0; k < 3; k++) lines.push(`${files[i]}:${10 + k}:4 - warning W${100 + k}: unused value in this file`, "");
  }
  lines.push(`Found ${counts.reduce((a, b) => a + b, 0)} warnings in ${files.length} files.`, "", "Warnings  Files");
  let most = 0;
  let fewest = 0;
  for (let i = 0; i < files.length; i++) {
    lines.push(`${String(counts[i]).padStart(8)}  ${files[i]}:10`);
    if (i === 37) most = lines.length;
    if (i === 11) fewest = lines.length;
  }
  return { text: lines.join("\n"), most, fewest };
}

describe("a superlative", () => {
  test("is a word of its own of the query, not a part of a name", () => {
    expect(superlativeOf(termsFor(parseQuery("which file has the most warnings")))).toBe("largest");
    expect(superlativeOf(termsFor(parseQuery("file with the fewest warnings")))).toBe("smallest");
    expect(superlativeOf(termsFor(parseQuery("BIGGEST_ALIGN value")))).toBe(null);
    expect(superlativeOf(termsFor(parseQuery("max-connections setting")))).toBe(null);
    expect(superlativeOf(termsFor(parseQuery("warnings per file")))).toBe(null);
  });

  test("shows the listing's row with the largest number under the header's word", async () => {
    const { text, most } = lintRun();
    const { store, source } = await stored(text);
    expect(shows(top3(store, source, "which file has the most warnings"), most, "lib/mod37/index.ts")).toBe(true);
  });

  test("or the smallest, for a superlative of the other direction", async () => {
    const { text, fewest } = lintRun();
    const { store, source } = await stored(text);
    expect(shows(top3(store, source, "file with the fewest warnings"), fewest, "lib/mod11/index.ts")).toBe(true);
  });
});
