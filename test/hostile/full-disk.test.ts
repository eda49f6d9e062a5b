/**
 * A full disk: reads still answer. A small tmpfs is filled to the last byte, then `stats` (and a
 * search) run as a user runs them: with the database closed cleanly before (no WAL, no shared
 * memory: SQLite cannot even start a read), and with another process holding it open with work
 * still queued (the read's own bookkeeping cannot be written). A capture says the disk is full.
 * Mounting needs root: elsewhere the test is skipped with the reason printed (it fails under CI=true).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.ts";
import { createEngine } from "../../src/engine.ts";
import { noisyLog, runCli, tempDir, testConfig } from "../helpers.ts";

const mount = join(tempDir("pi-sidecar-full-disk-"), "disk");
mkdirSync(mount);
const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", mount], { stderr: "pipe" });
const skip = mounted.exitCode === 0 ? null : `cannot mount a tmpfs here (${mounted.stderr.toString().trim() || "not root"})`;
if (skip) {
  if (process.env.CI === "true") throw new Error(`the full-disk test must run under CI=true, but: ${skip}`);
  console.log(`full-disk tests skipped: ${skip}`);
}
const run = skip ? describe.skip : describe;

afterAll(() => {
  if (!skip) Bun.spawnSync(["umount", mount]);
});

/** Fills what is left of the disk. */
function fill(): void {
  try {
    writeFileSync(join(mount, "filler"), Buffer.alloc(16 * 1024 * 1024));
  } catch {
    // ENOSPC: full, as wanted
  }
}

function empty(): void {
  for (const f of ["filler", "a.db", "a.db-wal", "a.db-shm"]) rmSync(join(mount, f), { force: true });
}

const stats = (db: string) => runCli(["--db", db, "stats", "--json"]);

run("a full disk", () => {
  beforeAll(() => empty());

  test("closed cleanly before: stats and search read it as it is; a capture says the disk is full", async () => {
    const db = join(mount, "a.db");
    const engine = createEngine({ config: testConfig(db), background: "inline" });
    for (let i = 0; i < 3; i++)
      await engine.capture({ text: noisyLog(800, i, { line: 9, text: "FATAL quorum lost" }), tool: "bash", force: true });
    await engine.close();
    fill();
    const r = stats(db);
    expect(r.stderr).toContain("is full");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).totals.captures).toBe(3);
    const s = runCli(["--db", db, "search", "quorum lost"]);
    expect(s.code).toBe(0);
    expect(s.stdout).toContain("FATAL quorum lost");
    const c = runCli(["--db", db, "capture", "--tool", "bash", "--force"], { stdin: noisyLog(300, 7) });
    expect(c.code).toBe(1);
    expect(c.stderr).toContain("is full. Free some space");
    empty();
  }, 60_000);

  test("held open elsewhere with work queued: stats reads what is there", async () => {
    const db = join(mount, "a.db");
    const engine = createEngine({ config: testConfig(db), background: "inline", leaveQueued: true });
    for (let i = 0; i < 3; i++) await engine.capture({ text: noisyLog(800, i), tool: "bash", force: true });
    const other = openDatabase(db);
    try {
      fill();
      const r = stats(db);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).totals.captures).toBe(3);
    } finally {
      other.close();
      await engine.close();
      empty();
    }
  }, 60_000);
});
