/**
 * On outputs written for these tests (none comes from a benchmark set): a word the output never
 * writes out is found as the clipping a tool prints for it (`sched` for "scheduler"), as a whole
 * part of an identifier only; where the output writes the word, its clipping is not looked for
 * (`java` is not "javadoc"); a word typed with its last letter twice is corrected; "total" and
 * "number of" ask for a count as "how many" does.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { prefixForms } from "../../src/store/search/abbreviations.ts";
import { parseQuery } from "../../src/store/search/query.ts";
import { search } from "../../src/store/search/search.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** A device dump: blocks of 130 keys each, the scheduler key near each block's end, far from its name. */
function deviceDump(): { text: string; answer: number } {
  const lines: string[] = [];
  const scheds = ["none", "mq-deadline", "kyber", "bfq"];
  let answer = 0;
  for (let d = 0; d < 12; d++) {
    const name = `disk${d}`;
    lines.push(`[${name}]`, `  name = ${name}`, `  path = /dev/${name}`);
    for (let k = 0; k < 124; k++) lines.push(`  attr_${k}_${"abcdefgh"[k % 8]} = ${(k * 37 + d) % 1000}`);
    if (name === "disk7") answer = lines.length + 1;
    lines.push(`  sched = ${scheds[d % 4]}-${d}`, `  rota = ${d % 2}`, "");
  }
  return { text: lines.join("\n"), answer };
}

describe("a word the output only prints clipped", () => {
  test("finds the key that clips it in the record the query names", async () => {
    const { text, answer } = deviceDump();
    const { store, source } = await stored(text);
    const hits = top3(store, source, "disk7 io scheduler");
    expect(shows(hits, answer, "sched = bfq-7")).toBe(true);
  });

  test("does not take a clipping inside a longer word (`schedx` is not `sched`)", async () => {
    const lines = ["[cfg]", ...Array.from({ length: 30 }, (_, i) => `  schedx_${i} = ${i}`), "  sched = fifo", ""];
    const { store, source } = await stored(lines.join("\n"));
    const hits = top3(store, source, "cfg scheduler");
    expect(shows(hits, 32, "sched = fifo")).toBe(true);
    expect(hits[0]!.lines.some((l) => l.line === 32)).toBe(true);
  });

  test("is not looked for where the output writes the word: `java` of javadoc", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 60; i++) lines.push(`./src/Thing${i}.java:${i + 3}: error: cannot find symbol in Thing${i}`);
    lines.push("javadoc: error - 2 errors reported while running javadoc");
    for (let i = 0; i < 20; i++) lines.push(`Generating ./apidocs/Thing${i}.html...`);
    const { store, source } = await stored(lines.join("\n"));
    const hits = top3(store, source, "javadoc errors");
    expect(shows(hits.slice(0, 1), 61, "javadoc: error - 2 errors")).toBe(true);
  });
});

describe("a word typed with its last letter twice", () => {
  test('is corrected to the word of the text it is a prefix of (`interval` for "intervall")', async () => {
    const lines = Array.from({ length: 80 }, (_, i) => `optionname${i} value${i % 7}`);
    lines.splice(40, 0, "keepaliveinterval 45");
    const { store, source } = await stored(lines.join("\n"));
    const r = search(store, { query: "keepaliveintervall", source, limit: 3 });
    if (!r.ok) throw new Error(r.message);
    expect(r.corrections).toEqual({ keepaliveintervall: "keepaliveinterval" });
    expect(shows(r.hits, 41, "keepaliveinterval 45")).toBe(true);
  });
});

describe("a question that asks for a total", () => {
  test('asks how many, as "how many" does (a count next to its words is the answer)', () => {
    expect(parseQuery("lint warnings total").quantity).toBe(true);
    expect(parseQuery("number of open files").quantity).toBe(true);
    expect(parseQuery("how many tests failed").quantity).toBe(true);
    expect(parseQuery("totally unrelated words").quantity).toBeUndefined();
  });
});

describe("prefixForms", () => {
  test("clips a word to its first 3 to 5 letters, at least two letters short of it", () => {
    expect(prefixForms("scheduler")).toEqual(["sch", "sche", "sched"]);
    expect(prefixForms("argument")).toEqual(["arg", "argu", "argum"]);
    expect(prefixForms("files")).toEqual(["fil"]);
    expect(prefixForms("file")).toEqual([]);
    expect(prefixForms("x86")).toEqual([]);
  });
});
