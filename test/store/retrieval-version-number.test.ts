/**
 * On outputs written for these tests (none from a benchmark set): "version" in a query asks for a
 * version number, and one written right after another word of the query (`Frobnicate-4.2.1`,
 * `frobnicate: 4.2.1`) says it where the output never writes the word; a number elsewhere does not.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

describe("a version number for the word version", () => {
  test("is the one written right after the name the query gives", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 80; i++) lines.push(`==77== Frobnicate checked frob_${i} at 0x${(4096 + i).toString(16)} in lib${i}.so.1.${i}`);
    lines.splice(50, 0, "==77== Using Frobnicate-4.2.1 and LibQ; rerun with -h for info");
    const { store, source } = await stored(lines.join("\n"));
    const hits = top3(store, source, "frobnicate version");
    expect(shows(hits.slice(0, 1), 51, "Frobnicate-4.2.1")).toBe(true);
  });

  test("is a key's value (`spec: 3.1.0`) over the lines that mention the name", async () => {
    const lines = ["paths:"];
    for (let i = 0; i < 60; i++) lines.push(`  /items/${i}:`, `    spec: items-${i}.md, section ${i}.2`);
    lines.splice(61, 0, "meta:", "  spec: 3.1.0", "  title: Shop");
    const { store, source } = await stored(lines.join("\n"));
    const hits = top3(store, source, "spec version");
    expect(shows(hits.slice(0, 1), 63, "spec: 3.1.0")).toBe(true);
  });
});
