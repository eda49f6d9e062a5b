/**
 * What a hit shows around its match, and how hits share the answer (issues 20 and 24), on
 * outputs made here: hits that overlap never show a line twice and the freed slot goes to the
 * next place; the answer a dozen lines past the match, or at the far end of a long one-line
 * record, is shown while the answer is short; a query of repeated numbers is a phrase; an
 * identifier found without the words describing it still wins; two words the text writes as one.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { EngineDeps } from "../../src/store/engine-deps.ts";
import { type Hit, search } from "../../src/store/search/search.ts";
import { captureIndexed, cleanupTempDirs, noisyLog, runCli, tempDir, testStore } from "../helpers.ts";

afterAll(cleanupTempDirs);

/** A noisy log (no blank lines, no indentation: no records) with some lines replaced. */
function logWith(lines: number, seed: number, put: Record<number, string>): string {
  const rows = noisyLog(lines, seed).split("\n");
  for (const [n, text] of Object.entries(put)) rows[Number(n) - 1] = text;
  return rows.join("\n");
}

async function stored(text: string): Promise<{ store: EngineDeps; source: string }> {
  const store = testStore();
  const r = await captureIndexed(store, { text, tool: "bash", force: true });
  if (!r.stored) throw new Error("not stored");
  return { store, source: r.sourceId };
}

function hits(store: EngineDeps, source: string, query: string, limit = 3): Hit[] {
  const r = search(store, { query, source, limit });
  if (!r.ok) throw new Error(r.message);
  return r.hits;
}

const showsLine = (hs: Hit[], line: number, text: string) => hs.some((h) => h.lines.some((l) => l.line === line && l.text.includes(text)));

/** The line numbers a CLI answer shows (`917: text`, `918- text`). */
function shownNumbers(text: string): number[] {
  return [...text.matchAll(/^ *(\d+)[:-] /gm)].map((m) => Number(m[1]));
}

describe("hits that overlap or touch", () => {
  test("two places shown with the same record head are one hit, the head shown once (CLI)", () => {
    const home = tempDir();
    const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
    // One block too long to show whole, named by its first line; two places in it far apart,
    // each shown with that first line.
    const rows = ["the harbor:"];
    for (let k = 1; k <= 70; k++) rows.push(k === 5 || k === 60 ? `  walrus probe ${k} failed` : `  item ${k} ok`);
    const log = `${noisyLog(200, 3)}\n${rows.join("\n")}\n\n${noisyLog(200, 4)}`;
    const cap = runCli(["--json", "capture", "--tool", "bash"], { env, stdin: log });
    expect(cap.code).toBe(0);
    const id: string = JSON.parse(cap.stdout).sourceId;
    const at = (text: string) => log.split("\n").indexOf(text) + 1;
    const r = runCli(["search", "harbor walrus", "--source", id, "--limit", "3"], { env });
    expect(r.code).toBe(0);
    const numbers = shownNumbers(r.stdout);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(r.stdout).toContain(`${at("the harbor:")}- the harbor:`);
    for (const text of ["  walrus probe 5 failed", "  walrus probe 60 failed"]) expect(r.stdout).toContain(`${at(text)}: ${text}`);
    // The same through --json: one hit holds both places, and no line number is shown twice.
    const json = JSON.parse(runCli(["search", "harbor walrus", "--source", id, "--limit", "3", "--json"], { env }).stdout);
    const all: number[] = json.hits.flatMap((h: Hit) => h.lines.map((l) => l.line));
    expect(new Set(all).size).toBe(all.length);
    const both = json.hits.find((h: Hit) => h.lines.filter((l) => l.match).length === 2);
    expect(both.lines.filter((l: { match: boolean }) => l.match).map((l: { line: number }) => l.line)).toEqual([
      at("  walrus probe 5 failed"),
      at("  walrus probe 60 failed"),
    ]);
  });

  test("hits whose context would meet are trimmed, not repeated", async () => {
    const marker = (n: number) => `checkpoint walrus reached stage=${n}`;
    // Nine lines apart: two hits, whose lines around the places would run into each other.
    const { store, source } = await stored(logWith(900, 7, { 300: marker(1), 309: marker(2) }));
    const hs = hits(store, source, "checkpoint walrus", 2);
    const all = hs.flatMap((h) => h.lines.map((l) => l.line));
    expect(new Set(all).size).toBe(all.length);
    expect(showsLine(hs, 300, marker(1)) && showsLine(hs, 309, marker(2))).toBe(true);
  });

  test("a run of matching lines longer than a hit may show is split, never repeated", async () => {
    const rows = Array.from({ length: 400 }, (_, i) => `job ${i} finished with status pelican-${i % 7}`);
    const { store, source } = await stored(`${rows.join("\n")}\n`);
    const hs = hits(store, source, "pelican", 10);
    const all = hs.flatMap((h) => h.lines.map((l) => l.line));
    expect(hs.length).toBeGreaterThan(1);
    expect(new Set(all).size).toBe(all.length);
    for (const h of hs) expect(h.lines.filter((l) => l.match).length).toBeLessThanOrEqual(6);
  });
});

describe("spending the answer's budget", () => {
  test("the answer twelve lines past the matched line, in flat output with no record around it", async () => {
    const rows = Array.from({ length: 700 }, (_, i) => `tick ${i} ok`);
    rows[399] = "begin upload batch marmoset";
    rows[411] = "upload result code=0x5e1f bytes=88123";
    const { store, source } = await stored(`${rows.join("\n")}\n`);
    expect(showsLine(hits(store, source, "upload batch marmoset"), 412, "0x5e1f")).toBe(true);
  });

  test("a long one-line record is shown to its far end when the answer is short", async () => {
    const stack = Array.from({ length: 12 }, (_, k) => `    at frame${k} (/srv/app/module${k}.js:${k + 10}:5)`).join("\\n");
    const record = `{"level":50,"msg":"ledger rebalance aborted","stack":"Error: ledger rebalance aborted\\n${stack}","shard":"east-4","batchRef":"BR-77120"}`;
    expect(record.length).toBeGreaterThan(600);
    const lines = Array.from({ length: 300 }, (_, i) => `{"level":30,"msg":"request served","reqId":"r-${i}","ms":${i % 17}}`);
    lines[150] = record;
    const { store, source } = await stored(`${lines.join("\n")}\n`);
    expect(showsLine(hits(store, source, "ledger rebalance aborted"), 151, "BR-77120")).toBe(true);
  });
});

describe("what the query names", () => {
  test("a query of repeated numbers is a phrase: `2 != -2` finds that line, not every 2", async () => {
    const rows = Array.from({ length: 500 }, (_, i) => `2: -2 offset ${i % 9}, 2 of 2 took ${i % 4} ms`);
    rows[321] = "    assertion: 2 != -2";
    const { store, source } = await stored(`${rows.join("\n")}\n`);
    const [first] = hits(store, source, "2 != -2");
    expect(first?.lines.filter((l) => l.match).map((l) => l.line)).toEqual([322]);
  });

  test("an identifier found alone wins over the describing words found elsewhere without it", async () => {
    const rows = noisyLog(1200, 5).split("\n");
    rows[100] = "fetch signature notes: the retry budget is described in the manual";
    rows[1000] = "  fetch(url, *, retry_budget=3, jitter_ms=250, **opts)";
    const { store, source } = await stored(rows.join("\n"));
    expect(showsLine(hits(store, source, "fetch retry_budget signature"), 1001, "retry_budget=3")).toBe(true);
  });

  test("two words the text writes as one: 'ld flags' finds ldflags", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `opt_${i}='value ${i}';`);
    rows[200] = "ldflags=' -fstack-protector-strong -L/usr/local/lib';";
    const { store, source } = await stored(`${rows.join("\n")}\n`);
    expect(showsLine(hits(store, source, "ld flags"), 201, "fstack-protector-strong")).toBe(true);
  });
});
