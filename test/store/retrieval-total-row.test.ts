/**
 * "How many in total": a tool asked to count ends its output with the total alone on a line, under
 * no word of the question (total-row.ts). The outputs are made up for the test.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { endsWithLoneNumber } from "../../src/store/search/total-row.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** A spell checker's findings, one per line, and the count it prints last. */
function findings(n: number, last: string): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`docs/page${i % 40}.md:${3 * i + 1}: recieve ==> receive`);
  lines.push(last);
  return `${lines.join("\n")}\n`;
}

describe("an output's total as a lone number on its last line", () => {
  test("a count asked for with words the output never writes shows it", async () => {
    const text = findings(300, "300");
    const { store, source } = await stored(text);
    expect(shows(top3(store, source, "speller total typos count"), 301, "300")).toBe(true);
  });

  test("beside the few places that match, when the count is asked for", async () => {
    const text = findings(300, "300").replace("docs/page7.md:22: recieve", "docs/page7.md:22: occured");
    const { store, source } = await stored(text);
    const hits = top3(store, source, "how many occured findings");
    expect(shows(hits, 8, "occured")).toBe(true);
    expect(shows(hits, 301, "300")).toBe(true);
  });

  test("a hex offset ending a dump is its length", async () => {
    const rows: string[] = [];
    for (let i = 0; i < 677; i++)
      rows.push(`${(16 * i).toString(16).padStart(8, "0")}  1f 8b 08 00 00 00 00 00  00 03 ed 5d 6b 73 db 36  |...........]ks.6|`);
    rows.push("00002a50");
    const { store, source } = await stored(`${rows.join("\n")}\n`);
    expect(shows(top3(store, source, "total length of the dump"), 678, "00002a50")).toBe(true);
  });

  test("not when the query does not ask how many", async () => {
    const text = findings(300, "300");
    const { store, source } = await stored(text);
    const r = top3(store, source, "speller typos");
    expect(shows(r, 301, "300")).toBe(false);
  });

  test("not when only the last line's end is a number (a digest longer than the bytes first read)", async () => {
    const digest = "4c1e0b7d9a33f2e8c6b5a4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3";
    const { store, source } = await stored(findings(300, `bundle digest sha256 ${digest}`));
    expect(top3(store, source, "how many zebras")).toEqual([]);
    expect(endsWithLoneNumber(`digest ${digest}`.slice(-64), false)).toBe(false);
    expect(endsWithLoneNumber(`x\n${"9".repeat(70)}`.slice(-64), false)).toBe(false);
    expect(endsWithLoneNumber("findings: 12\n300\n\n", false)).toBe(true);
    expect(endsWithLoneNumber("300\n", true)).toBe(true);
  });

  test("not when the last line is more than a number", async () => {
    const text = findings(300, "300 findings in 40 files");
    const { store, source } = await stored(text);
    expect(top3(store, source, "speller total typos count")).toEqual([]);
  });
});
