/**
 * Search on outputs written for these tests (none comes from a benchmark set): an identifier the
 * query names found although the words around it are not; the lines after a match shown before
 * the lines above it (a value, a result, an outcome follows what it belongs to); a count written
 * next to the query's words when it asks how many.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { search } from "../../src/store/search/search.ts";
import { captureIndexed, cleanupTempDirs, testStore } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

describe("an identifier the query names", () => {
  test("is found verbatim when the words that describe it are elsewhere together", async () => {
    // A build trace: the describing words ("value", "expand") meet near the top; the identifier is deep in.
    const lines = ["trace: expanded values are printed as each value is read; expand depth 2", ""];
    for (let i = 0; i < 3000; i++)
      lines.push(`/src/tree/mod${i % 97}.build(${i}):  set_option(widget_${i} ON CACHE BOOL toggles widget number ${i})`);
    lines.push("/src/tree/Main.build(8):  add_definitions(lib PUBLIC QUEUE_DEPTH_LIMIT=4096 )");
    for (let i = 0; i < 200; i++) lines.push(`/src/tree/tail.build(${i}):  message(STATUS done step ${i})`);
    const { store, source } = await stored(lines.join("\n"));
    const hits = top3(store, source, "what value did QUEUE_DEPTH_LIMIT expand to");
    expect(shows(hits, 3003, "QUEUE_DEPTH_LIMIT=4096")).toBe(true);
  });
});

describe("the lines after a match", () => {
  test("come before the lines above it: the note closing an option's description", async () => {
    // A rendered manual: options of 20-line descriptions, each closing with the version that added it.
    const lines: string[] = [];
    const words = ["alpha", "bravo", "delta", "gamma", "kilo", "lima", "oscar", "papa", "romeo", "sierra", "tango", "victor"];
    words.forEach((w, k) => {
      lines.push(`  --${w}-limit <count>`);
      if (w === "oscar") lines.push("    Parallel streams towards a mirror host.");
      else lines.push(`    Sets the ${w} limit of the engine.`);
      for (let i = 0; i < 18; i++) lines.push(`    Line ${i} of the ${w} text, case ${i}.`);
      lines.push("");
      lines.push(`    Added in 3.${k}.0.`);
      lines.push("");
    });
    const text = lines.join("\n");
    const { store, source } = await stored(text);
    const answer = text.split("\n").findIndex((l) => l.includes("Added in 3.6.0")) + 1;
    const hits = top3(store, source, "parallel streams mirror host added");
    expect(shows(hits, answer, "Added in 3.6.0")).toBe(true);
  });
});

describe("a question that asks how many", () => {
  test("finds the line that writes a count next to its words over runs of lines that only use them", async () => {
    // A check runner: its failed checks (each with its failure), the summary between other lines.
    const lines: string[] = [];
    for (let i = 1; i <= 40; i++) {
      const bad = i % 10 === 0;
      lines.push(`check ${i}: probe_${i} ${bad ? "FAILED" : "ok"} in ${i * 3} ms`);
      if (bad) lines.push(`  probe_${i}: assertion failed: expected ready, got waiting (checks failed before: ${i / 10 - 1})`);
    }
    for (let i = 1; i <= 12; i++) lines.push(`teardown step ${i} done`);
    lines.push("summary: 36 checks passed, 4 checks failed, 0 skipped");
    for (let i = 1; i <= 12; i++) lines.push(`report part ${i} written`);
    const text = lines.join("\n");
    const { store, source } = await stored(text);
    const answer = text.split("\n").findIndex((l) => l.startsWith("summary:")) + 1;
    const hits = top3(store, source, "how many checks failed");
    expect(shows(hits.slice(0, 1), answer, "4 checks failed")).toBe(true);
  });
});

describe("typo correction", () => {
  test("leaves a file name whose words are each in the text alone (walk.js is not a typo of walks)", async () => {
    const lines = ["lint report", "lib/walk.js: 3 problems (2 errors, 1 warning)", "lib/tree.js: 0 problems", "the walker walks the tree"];
    for (let i = 0; i < 50; i++) lines.push(`lib/mod${i}.js: 0 problems`);
    const { store, source } = await stored(lines.join("\n"));
    const r = search(store, { query: "how many problems in walk.js", source, limit: 3 });
    if (!r.ok) throw new Error(r.message);
    expect(r.corrections).not.toHaveProperty("walkjs");
    expect(shows(r.hits, 2, "lib/walk.js: 3 problems")).toBe(true);
  });
});

describe("a long word inside a longer token", () => {
  test("is a match on the line (a library file named after it), after a typo is corrected", async () => {
    const store = testStore();
    // Another output in the store names the allocator on its own (the vocabulary has the word).
    await captureIndexed(store, {
      text: ["# Memory", "mem_allocator:quuxalloc-5.3.0", "used_memory:1024"].join("\n"),
      tool: "bash",
      force: true,
    });
    const lines = ["COMMAND   PID  FD   TYPE NAME"];
    const libs = ["libc.so.6", "libm.so.6", "libz.so.1", "libssl.so.3", "libcrypto.so.3", "libsystemd.so.0", "liblz4.so.1", "libzstd.so.1"];
    for (let p = 0; p < 4; p++) for (const l of libs) lines.push(`daemon-x ${100 + p}  mem  REG  /usr/lib/x86_64-linux-gnu/${l}`);
    lines.splice(12, 0, "daemon-x 101  mem  REG  /usr/lib/x86_64-linux-gnu/libquuxalloc.so.2");
    const text = lines.join("\n");
    const r = await captureIndexed(store, { text, tool: "bash", force: true });
    if (!r.stored) throw new Error("not stored");
    const hits = top3(store, r.sourceId, "quuxaloc mapped daemon");
    expect(shows(hits, 13, "libquuxalloc.so.2")).toBe(true);
    expect(hits[0]!.lines.find((l) => l.line === 13)?.match).toBe(true);
  });
});
