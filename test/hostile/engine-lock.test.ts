/**
 * A long-lived engine (pi, mcp) answering while another process holds the write lock: a search
 * records itself before it answers, but never by stalling the event loop; when the lock outlasts
 * the short wait, the answer goes out and its record is written once the lock is free. Nothing is lost.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { createEngine } from "../../src/engine.ts";
import { TOOL_CALLS } from "../../src/store/next-calls.ts";
import { cleanupTempDirs, noisyLog, tempDir, testConfig, waitFor } from "../helpers.ts";

afterAll(cleanupTempDirs);

const retrievals = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.query("SELECT count(*) AS n FROM retrievals WHERE kind = 'search'").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

test("a search under another process's lock: the loop keeps turning, the answer comes, the record follows", async () => {
  const path = join(tempDir(), "sidecar.db");
  const engine = createEngine({ config: testConfig(path), calls: TOOL_CALLS });
  try {
    await engine.capture({ text: noisyLog(900, 3, { line: 500, text: "checksum mismatch in shard 12" }), tool: "bash", force: true });
    await engine.settle();
    const holder = Bun.spawn([process.execPath, join(import.meta.dir, "../web/hold-lock.ts"), path, "6000"], { stdout: "pipe" });
    expect(new TextDecoder().decode((await holder.stdout.getReader().read()).value)).toContain("locked");
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const answer = await engine.search({ query: "checksum mismatch" });
    clearInterval(ticker);
    expect(answer.ok).toBe(true);
    // The wait for the lock was async: the loop turned many times while the search waited.
    expect(ticks).toBeGreaterThan(20);
    expect(holder.exitCode).toBeNull(); // answered while the lock was still held
    expect(retrievals(path)).toBe(0);
    await holder.exited;
    await waitFor(() => retrievals(path) === 1, "the record written once the lock was free");
  } finally {
    await engine.close();
  }
}, 60_000);
