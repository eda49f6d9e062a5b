/**
 * A minified stylesheet written for these tests: one line of many chunks, its custom properties
 * defined in a `:root` rule at its start and used in rules far along it. The same use, repeated
 * in rule after rule (in chunks read as regions of their own), is one place, not three hits; and
 * the definition the uses name is read and shown even though its chunk lacks a word of the query.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

const USE = "transition:opacity var(--ui-fade)";

/** `:root` with 3,000 custom properties (one is `--ui-fade:150ms`), then 8,000 rules, every 400th using `--ui-fade` (chunks apart). */
function stylesheet(): string {
  const root: string[] = [];
  for (let i = 0; i < 3000; i++) root.push(i === 1700 ? "--ui-fade:150ms" : `--ui-v${i}:${i % 97}px`);
  const rules: string[] = [];
  for (let i = 0; i < 8000; i++) {
    const colour = `#${(0x100000 + i * 37).toString(16)}`;
    rules.push(i % 400 === 3 ? `.w${i}{color:${colour};${USE}}` : `.w${i}{color:${colour};margin:${i % 13}px}`);
  }
  return `@charset "UTF-8";\n:root{${root.join(";")}}${rules.join("")}\n`;
}

describe("a name used on a long line of many chunks", () => {
  test("the same use in several chunks is shown once", async () => {
    const { store, source } = await stored(stylesheet());
    const hits = top3(store, source, "ui fade transition");
    expect(hits.filter((h) => h.lines.some((l) => l.text.includes(USE))).length).toBe(1);
  });

  test("its definition, in a chunk without every word of the query, is among the hits", async () => {
    const { store, source } = await stored(stylesheet());
    const hits = top3(store, source, "ui fade transition");
    expect(hits.some((h) => h.lines.some((l) => l.text.includes("--ui-fade:150ms")))).toBe(true);
  });
});
