/**
 * The receipt comes back before indexing: a process killed with SIGKILL right after its receipt
 * loses nothing. The next process to open the database finishes the index (a search waits for
 * it), and finds the same as a store indexed at once.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.ts";
import { createEngine } from "../../src/engine.ts";
import { BUN, cleanupTempDirs, noisyLog, ROOT, tempDir, testConfig } from "../helpers.ts";

afterAll(cleanupTempDirs);

describe("deferred indexing", () => {
  test("kill -9 between receipt and index completion loses nothing; the next open completes the index", async () => {
    const dir = tempDir();
    const path = join(dir, "killed.db");
    const file = join(dir, "big.log");
    const needle = "quasar-needle-77f1";
    writeFileSync(file, noisyLog(120_000, 5, { line: 100_000, text: `ERROR ${needle} at shard 12` })); // ~10 MB
    const child = Bun.spawn([BUN, join(ROOT, "test/store/capture-process.ts"), path, file], { stdout: "pipe", stderr: "pipe" });
    const reader = child.stdout.getReader();
    const first = await reader.read();
    child.kill("SIGKILL");
    await child.exited;
    const sourceId = new TextDecoder().decode(first.value).trim();
    expect(sourceId).toMatch(/^ctx_/);

    // The receipt was acknowledged with the index still queued.
    const peek = openDatabase(path, { readonly: true });
    const queued = (peek.query("SELECT count(*) AS n FROM index_queue").get() as { n: number }).n;
    peek.close();
    expect(queued).toBe(1);

    const engine = createEngine({ config: testConfig(path), background: "inline" });
    const found = await engine.search({ query: needle });
    expect(found.ok && found.hits[0]?.sourceId).toBe(sourceId);
    expect(found.ok && found.hits[0]?.text).toContain(`100000: ERROR ${needle} at shard 12`);
    const substring = await engine.search({ query: "needle-77f" });
    expect(substring.ok && substring.hits[0]?.sourceId).toBe(sourceId);
    await engine.close();

    // The same text indexed at once answers the same.
    const reference = createEngine({ config: testConfig(join(dir, "reference.db")), background: "inline" });
    await reference.capture({ file, tool: "bash", force: true });
    await reference.settle();
    const again = createEngine({ config: testConfig(path), background: "inline" });
    for (const q of [needle, "needle-77f", "shard 12", "ERROR"]) {
      const a = await again.search({ query: q, limit: 3 });
      const b = await reference.search({ query: q, limit: 3 });
      expect(a.ok && a.hits.map((h) => [h.lineStart, h.lineEnd])).toEqual(b.ok && b.hits.map((h) => [h.lineStart, h.lineEnd]));
    }
    await again.close();
    await reference.close();
  }, 120_000);
});
