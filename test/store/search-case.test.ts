/**
 * Lines are matched case-blind as they are lower-cased, also where lower-casing is not plain
 * ASCII: characters that lower-case to ASCII letters (the Kelvin sign to k, a dotted capital I to
 * i and a dot), letters outside ASCII in the query, and a row of other scripts between them. The
 * rows looked at are found without lower-casing the whole text, so these check they are the same.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { EngineDeps } from "../../src/store/engine-deps.ts";
import { search } from "../../src/store/search/search.ts";
import { captureIndexed, cleanupTempDirs, noisyLog, testStore } from "../helpers.ts";

afterAll(cleanupTempDirs);

function logWith(put: Record<number, string>): string {
  const rows = noisyLog(300, 7).split("\n");
  for (const [n, text] of Object.entries(put)) rows[Number(n) - 1] = text;
  return rows.join("\n");
}

async function matched(text: string, query: string): Promise<number[]> {
  const store: EngineDeps = testStore();
  const r = await captureIndexed(store, { text, tool: "bash", force: true });
  if (!r.stored) throw new Error("not stored");
  const found = search(store, { query, source: r.sourceId, limit: 5 });
  if (!found.ok) throw new Error(found.message);
  return found.hits.flatMap((h) => h.lines.filter((l) => l.match).map((l) => l.line)).sort((a, b) => a - b);
}

describe("case-blind line matching", () => {
  test("ASCII query words on rows written in capitals, with other scripts around", async () => {
    const text = logWith({ 40: "PRELOADER FAILED: Ünïcödé path", 41: "Ошибка: preloader failed again", 150: "preloader Failed 3 times" });
    expect(await matched(text, "preloader failed")).toEqual([40, 41, 150]);
  });

  test("a row with the Kelvin sign or a dotted capital I is matched as it lower-cases", async () => {
    // "\u212a" lower-cases to "k", "\u0130" to "i" and a combining dot.
    const text = logWith({
      60: "sensor kelvin reading 300 \u212aELVIN",
      61: "city \u0130stanbul sensor kelvin",
      200: "plain kelvin sensor",
    });
    expect(await matched(text, "kelvin sensor")).toEqual([60, 61, 200]);
  });

  test("a query with letters outside ASCII", async () => {
    const text = logWith({ 80: "Größe der Datei überschritten", 81: "GRÖSSE", 220: "größe überschritten erneut" });
    expect(await matched(text, "größe überschritten")).toEqual([80, 220]);
  });
});
