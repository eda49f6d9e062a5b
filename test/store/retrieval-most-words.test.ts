/**
 * Few chunks have every word of the query, and the answer's chunk lacks one (a word that
 * describes what is asked, not a word of the answer's line): the chunks with all words but one
 * are read too. Outputs written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** A cache daemon's counters, one `counter name value` per line, over several chunks; a notes section mentions the words apart. */
function countersDump(): string {
  const lines: string[] = ["# notes", "spilled entries are written to the overflow file", "total counts are since start"];
  lines.push("buffers are recycled in the pool", "");
  const names = ["hits", "misses", "evictions", "expirations", "inserts", "updates", "deletes", "scans", "flushes", "reloads"];
  for (let block = 0; block < 60; block++) {
    for (const n of names) lines.push(`counter shard${block}_${n} ${block * 131 + n.length * 17}`);
    if (block === 41) lines.push("counter total_spilled 77124");
    lines.push("");
  }
  return lines.join("\n");
}

describe("a query word the answer's chunk lacks", () => {
  test("the line with the other words, as a key, is among the hits", async () => {
    const text = countersDump();
    const { store, source } = await stored(text);
    const answer = text.split("\n").indexOf("counter total_spilled 77124") + 1;
    expect(shows(top3(store, source, "total spilled buffers"), answer, "total_spilled 77124")).toBe(true);
  });
});
