import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { AppError } from "../../src/errors.ts";
import { BUN, cleanupTempDirs, ROOT, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

function openError(path: string): AppError {
  try {
    openDatabase(path).close();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected openDatabase to fail");
}

describe("openDatabase", () => {
  test("creates the file and folders, in WAL mode, migrated, with owner-only permissions", () => {
    const path = join(tempDir(), "deep", "er", "sidecar.db");
    const db = openDatabase(path);
    expect(db.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
    expect(db.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
    expect((db.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout).toBeGreaterThanOrEqual(5000);
    expect(db.query("PRAGMA auto_vacuum").get()).toEqual({ auto_vacuum: 2 });
    db.close();
    expect(Bun.file(path).size).toBeGreaterThan(0);
    const mode = require("node:fs").statSync(path).mode & 0o777;
    expect(mode).toBe(0o600);
    // Opening again is a no-op migration.
    openDatabase(path).close();
  });

  test("a corrupt file gives a clear error naming the path and what to do", () => {
    const path = join(tempDir(), "sidecar.db");
    writeFileSync(path, Buffer.alloc(8192, "this is not sqlite "));
    const error = openError(path);
    expect(error.code).toBe("DB_CORRUPT");
    expect(error.message).toContain(path);
    expect(error.message).toContain("Move it aside");
    expect(error.message).toContain("PI_SIDECAR_DB");
  });

  test("a database from a newer pi-sidecar is refused, not damaged", () => {
    const path = join(tempDir(), "sidecar.db");
    const db = openDatabase(path);
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length + 5}`);
    db.close();
    const error = openError(path);
    expect(error.code).toBe("DB_TOO_NEW");
    expect(error.message).toContain("Upgrade pi-sidecar");
  });

  test("a path whose parent is a file gives a clear error", () => {
    const file = join(tempDir(), "not-a-dir");
    writeFileSync(file, "x");
    const error = openError(join(file, "sidecar.db"));
    expect(error.code).toBe("DB_UNREADABLE");
    expect(error.message).toContain(file);
  });
});

describe("several processes on one database", () => {
  test("concurrent writers lose nothing and never fail with 'database is locked'", async () => {
    const path = join(tempDir(), "shared.db");
    const workers = 3;
    const each = 25;
    const script = join(ROOT, "test/db/writer-process.ts");
    const procs = Array.from({ length: workers }, (_, w) =>
      Bun.spawn([BUN, script, path, String(w), String(each)], { stdout: "pipe", stderr: "pipe" }),
    );
    const results = await Promise.all(
      procs.map(async (p) => ({
        code: await p.exited,
        out: await new Response(p.stdout).text(),
        err: await new Response(p.stderr).text(),
      })),
    );
    for (const r of results) {
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
    }
    const ids = results.flatMap((r) => r.out.trim().split("\n"));
    expect(new Set(ids).size).toBe(workers * each);
    const db = openDatabase(path);
    expect(db.query("SELECT count(*) AS n FROM sources").get()).toEqual({ n: workers * each });
    expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    db.exec("INSERT INTO chunks_words (chunks_words) VALUES ('integrity-check')");
    db.exec("INSERT INTO chunk_idents (chunk_idents) VALUES ('integrity-check')");
    // Every worker's last capture is searchable.
    for (let w = 0; w < workers; w++) {
      expect(db.query("SELECT count(*) AS n FROM chunks_words WHERE chunks_words MATCH ?").get(`"worker${w}marker${each - 1}"`)).toEqual({
        n: 1,
      });
    }
    db.close();
  }, 120_000);
});

describe("an engine inside a host process (pi on Bun)", () => {
  test("waits for another process's write lock without blocking its event loop, and loses nothing", async () => {
    const { createEngine } = await import("../../src/engine.ts");
    const { testConfig, noisyLog } = await import("../helpers.ts");
    const path = join(tempDir(), "busy.db");
    openDatabase(path).close();
    // Another process takes the write lock for 1.5 s.
    const holder = Bun.spawn(
      [
        BUN,
        "-e",
        `const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(path)});
      db.exec("BEGIN IMMEDIATE"); console.log("locked"); Bun.sleepSync(1500); db.exec("COMMIT"); db.close();`,
      ],
      { stdout: "pipe" },
    );
    const reader = holder.stdout.getReader();
    await reader.read(); // "locked"
    const engine = createEngine({ config: testConfig(path), busyTimeoutMs: 50 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 50);
    const started = performance.now();
    const r = await engine.capture({ text: noisyLog(500, 5), tool: "bash" });
    const waited = performance.now() - started;
    clearInterval(timer);
    await holder.exited;
    expect(r.stored).toBe(true);
    expect(waited).toBeGreaterThan(1000);
    expect(ticks).toBeGreaterThan(10); // the event loop kept running while it waited
    expect((await engine.list({}, 5)).length).toBe(1);
    await engine.close();
  }, 30_000);
});
