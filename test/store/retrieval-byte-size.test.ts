/**
 * On an output written for this test (none from a benchmark set): "size" in a query asks for a
 * size in bytes, and one on a line with another word of the query (`left-pad/index.js ── 7.7kb`)
 * says it where the output never writes the word.
 */
import { afterAll, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

test("a size in bytes on the line says the word size", async () => {
  const lines: string[] = [];
  for (let i = 0; i < 60; i++)
    lines.push(`resolve left-pad ${i % 3}.${i}.0 from cache (${i} ms)`, `resolve pkg${i} 2.${i}.1 from cache (${i} ms)`);
  lines.splice(70, 0, "packed left-pad 7.7kB in 3 files");
  const { store, source } = await stored(lines.join("\n"));
  const hits = top3(store, source, "left-pad size");
  expect(shows(hits.slice(0, 1), 71, "packed left-pad 7.7kB")).toBe(true);
  // The line with the size leads the hit, not one of the lines that only name the package.
  expect(hits[0]!.lines.find((l) => l.match)?.line).toBe(71);
});
