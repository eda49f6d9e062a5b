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

/** A daemon's --help: options described in words, then a table of every variable and its value, chunks apart. */
function helpWithTable(): string {
  const lines: string[] = ["Usage: stashd [OPTIONS]", ""];
  const options = ["spool-dir", "queue-limit", "flush-interval", "peer-timeout", "log-format", "max-peers", "retry-budget"];
  for (const o of options) {
    lines.push(`  --${o}=#`, `                      Sets ${o.replace("-", " ")}. The default value is printed below;`);
    lines.push("                      a value of 0 disables it. Changing the default needs a restart.");
  }
  for (let i = 0; i < 120; i++) lines.push(`  --plugin-${i}-enable   Enable or disable plugin ${i}. One of: ON, OFF, FORCE`);
  lines.push("", "Variables (--variable-name=...)", "--------------------------------  -----------");
  for (let i = 0; i < 80; i++) lines.push(`plugin-${i}-enable`.padEnd(34) + (i % 3 ? "ON" : "OFF"));
  lines.push(`${"queue-limit".padEnd(34)}500`);
  for (let i = 80; i < 400; i++) lines.push(`${`plugin-${i}-enable`.padEnd(34)}ON`);
  return lines.join("\n");
}

describe("an identifier whose row lacks the words that describe it", () => {
  test("the identifier's row in a later table is among the hits", async () => {
    const text = helpWithTable();
    const { store, source } = await stored(text);
    const answer = text.split("\n").findIndex((l) => l.startsWith("queue-limit ")) + 1;
    expect(shows(top3(store, source, "queue-limit value"), answer, "500")).toBe(true);
  });
});
