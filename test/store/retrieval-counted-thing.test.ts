/**
 * A question that asks how many of a thing, with words that say where ("how many warnings in the
 * lint pass"): the line that writes a count of the thing (`warnings=60`) answers it, though it
 * lacks the other words, over the many lines that are each one of the things and hold those words.
 * The output is made up for the test.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { parseQuery } from "../../src/store/search/query.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** A linter's log: each warning with the pass that raised it, then a summary of counts. */
function lintLog(): string {
  const lines = ["lint: 3 passes over 120 files", ""];
  const passes = ["syntax", "style", "types"];
  for (let i = 1; i <= 60; i++) {
    lines.push(`WARNING: lint pass ${passes[i % 3]} flagged src/mod_${i}.c:${10 * i}`);
    lines.push(`    unused variable 'tmp_${i}' (rule W${100 + i})`);
    lines.push(`    lint pass ${passes[i % 3]} suggests removing it`);
    lines.push("");
  }
  for (let i = 1; i <= 40; i++) lines.push(`  wrote cache entry ${i}`);
  lines.push("", "SUMMARY (files=120, warnings=60, notes=2)");
  return lines.join("\n");
}

describe("a question that asks how many of a thing", () => {
  test("the thing counted is the word after 'how many' or 'number of'", () => {
    expect(parseQuery("how many warnings in the lint pass").counted).toBe("warnings");
    expect(parseQuery("number of retries per host").counted).toBe("retries");
    expect(parseQuery("total bytes").counted).toBeUndefined();
  });

  test("the line that counts it answers, over the lines that are each one of them", async () => {
    const text = lintLog();
    const { store, source } = await stored(text);
    const answer = text.split("\n").findIndex((l) => l.startsWith("SUMMARY")) + 1;
    expect(shows(top3(store, source, "how many warnings in lint pass"), answer, "warnings=60")).toBe(true);
  });

  test("a number after the word inside a path is a place in a file, not a count", async () => {
    // `warnings:12` is a line of the file warnings.c, in every frame.
    const lines = ["run started", ""];
    for (let i = 1; i <= 60; i++) lines.push(`WARNING lint pass p${i}`, `    at check (lib/lint/warnings:${10 + i}:4)`, "");
    for (let i = 1; i <= 40; i++) lines.push(`  wrote cache entry ${i}`);
    lines.push("", "result: 3 warnings");
    const text = lines.join("\n");
    const { store, source } = await stored(text);
    const answer = lines.indexOf("result: 3 warnings") + 1;
    expect(shows(top3(store, source, "how many warnings in lint pass"), answer, "3 warnings")).toBe(true);
  });
});
