/**
 * Purged means gone from the file: after a purge (by source, by session, from the CLI, from the web
 * page, everything) none of the purged texts' words can be read from the database file, its WAL or
 * its shared-memory file, while every kept text still can (so the search of the bytes works).
 * The store is filled the way pi fills it: captures indexed on a worker thread, searches and gets
 * logged, then purged while another connection reads.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createEngine, type Engine } from "../../src/engine.ts";
import { TOOL_CALLS } from "../../src/store/next-calls.ts";
import { createWebViewer, createWebWriter } from "../../src/web-viewer.ts";
import { cleanupTempDirs, databaseFileTexts, noisyLog, rng, runCli, tempDir, testConfig, testSeed, waitingDb } from "../helpers.ts";

afterAll(() => cleanupTempDirs());

type Planted = { sourceId: string; words: string[]; session: string };

/** Made-up words no noise line contains: 12 random letters after a fixed start. */
function wordsFor(r: () => number, n: number): string[] {
  return Array.from({ length: n }, () => `zq${Array.from({ length: 12 }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join("")}`);
}

/** Every place in the three files where one of `words` can be read (as written, or lower-cased as the index keeps it). */
function readable(path: string, words: readonly string[]): string[] {
  const found: string[] = [];
  for (const w of words)
    for (const { name, text: b } of databaseFileTexts(path))
      if (b.includes(w) || b.includes(w.toLowerCase())) found.push(`${w} in ${name}`);
  return found;
}

async function fill(engine: Engine, seed: number, count: number, sessions: number): Promise<Planted[]> {
  const r = rng(seed);
  const planted: Planted[] = [];
  for (let i = 0; i < count; i++) {
    const words = wordsFor(r, 3);
    const session = `session-${i % sessions}`;
    const text = noisyLog(150 + Math.floor(r() * 900), seed + i, {
      line: 40,
      text: `ERROR ${words[0]} failed near ${words[1]}: ${words[2]}`,
    });
    const c = await engine.capture({ text, tool: "bash", session, project: "/repo/x", label: `make ${words[0]}`, force: true });
    if (!c.stored) throw new Error(`not stored: ${c.reason}`);
    planted.push({ sourceId: c.sourceId, words, session });
    // Searched for and read back, as a model does: the retrieval log keeps the question and a copy of the answer.
    if (i % 3 === 0) {
      const s = await engine.search({ query: words[1]! });
      if (!s.ok) throw new Error(s.message);
      await engine.get({ source: c.sourceId, lines: { from: 38, to: 42 } });
    }
  }
  await engine.settle();
  return planted;
}

describe("purge leaves no readable copy", () => {
  const seed = testSeed("hostile purge");

  test("by source and by session (engine), from the CLI and from the web page; kept text stays", async () => {
    const path = join(tempDir(), "sidecar.db");
    const config = testConfig(path);
    const engine = createEngine({ config, calls: TOOL_CALLS });
    const planted = await fill(engine, seed, 48, 4);
    const gone: string[] = [];
    // By source, in the running engine (as /sidecar purge does), with its worker's connection open.
    for (const p of planted.filter((_, i) => i % 8 === 1)) {
      expect((await engine.purge({ source: p.sourceId })).sources).toBe(1);
      gone.push(...p.words);
    }
    // By session.
    expect((await engine.purge({ session: "session-2" })).sources).toBeGreaterThan(0);
    for (const p of planted.filter((x) => x.session === "session-2")) gone.push(...p.words);
    await engine.close();

    // From the CLI, as a user types it.
    const cli = planted.filter((_, i) => i % 8 === 3);
    for (const p of cli) {
      const r = runCli(["--db", path, "purge", "--source", p.sourceId, "--json"]);
      expect(r.code).toBe(0);
      gone.push(...p.words);
    }

    // From the web page's writer while its viewer has the file open for reading.
    const viewer = createWebViewer({ config });
    expect((await viewer.stats()).totals.captures).toBeGreaterThan(0);
    const writer = createWebWriter(config);
    const web = planted.filter((_, i) => i % 8 === 0);
    for (const p of web) {
      expect((await writer.purge({ source: p.sourceId })).sources).toBe(1);
      gone.push(...p.words);
    }
    await writer.close();
    await viewer.close();

    const kept = planted.flatMap((p) => p.words).filter((w) => !gone.includes(w));
    expect(gone.length).toBeGreaterThan(30);
    expect(kept.length).toBeGreaterThan(30);
    expect(readable(path, gone)).toEqual([]);
    // The bytes are searched correctly: every kept word is there.
    expect(readable(path, kept).length).toBeGreaterThanOrEqual(kept.length);
  }, 120_000);

  test("purge --all leaves none of any text, the read cache's copies of files included", async () => {
    const path = join(tempDir(), "sidecar.db");
    const engine = createEngine({ config: testConfig(path), calls: TOOL_CALLS });
    const planted = await fill(engine, seed + 1000, 20, 2);
    // A file read through the read cache: its text is kept as the base for later reads.
    const file = wordsFor(rng(seed + 2000), 3);
    const text = `${Array.from({ length: 40 }, (_, i) => `const v${i} = "${file[i % 3]}";`).join("\n")}\n`;
    const read = await engine.readcache({ path: "/repo/x/src/a.ts", text, shown: [1, 40], wholeFile: true, builtIn: text, versions: [] });
    expect(read.record.trusted).toEqual([[1, 40]]);
    await engine.close();
    // The read cache kept the file's text as a base for later reads.
    const db = waitingDb(path);
    expect((db.query("SELECT count(*) AS n FROM objects WHERE content LIKE ?").get(`%${file[0]}%`) as { n: number }).n).toBe(1);
    db.close();
    expect(runCli(["--db", path, "purge", "--all"]).code).toBe(0);
    expect(readable(path, [...planted.flatMap((p) => p.words), ...file])).toEqual([]);
  }, 120_000);
});
