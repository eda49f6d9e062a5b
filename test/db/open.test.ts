import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
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

  test("a migration that ran under an earlier number is not run twice, and the one it displaced runs", () => {
    const path = join(tempDir(), "sidecar.db");
    const last = MIGRATIONS.findIndex((m) => m.includes("-- creates table: memory_import_keys"));
    expect(last).toBeGreaterThan(0);
    const keys = MIGRATIONS[last]!;
    // A build that numbered the memory keys right after the first migrations...
    openDatabase(path, { migrations: [...MIGRATIONS.slice(0, last), keys] }).close();
    // ...then one that has another migration before it and one after.
    const merged = [...MIGRATIONS.slice(0, last), "CREATE TABLE displaced (x);", keys, "CREATE TABLE later (y);"];
    const db = openDatabase(path, { migrations: merged });
    const tables = (db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    expect(tables).toContain("displaced");
    expect(tables).toContain("later");
    expect(tables).toContain("memory_import_keys");
    expect(db.query("PRAGMA user_version").get()).toEqual({ user_version: merged.length });
    db.close();
    // Opening again runs nothing.
    openDatabase(path, { migrations: merged }).close();
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

  test("another program's SQLite file is refused and left exactly as it was", () => {
    const path = join(tempDir(), "notes.db");
    const { Database } = require("bun:sqlite");
    const other = new Database(path);
    other.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')");
    other.close();
    const before = readFileSync(path);
    const error = openError(path);
    expect(error.code).toBe("DB_FOREIGN");
    expect(error.message).toContain("another program");
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  test("a newer schema is refused before anything changes (no WAL switch, no migration)", () => {
    const path = join(tempDir(), "future.db");
    const { Database } = require("bun:sqlite");
    const future = new Database(path);
    future.exec("CREATE TABLE sources (id INTEGER); PRAGMA user_version = 999");
    future.close();
    const before = readFileSync(path);
    expect(openError(path).code).toBe("DB_TOO_NEW");
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  test("a database other users can read is made owner-only, and says so", () => {
    const path = join(tempDir(), "loose.db");
    openDatabase(path).close();
    chmodSync(path, 0o644);
    const notices: string[] = [];
    openDatabase(path, { notice: (t) => notices.push(t) }).close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(notices.join("\n")).toContain("was 644");
    // Already tight: nothing to say.
    notices.length = 0;
    openDatabase(path, { notice: (t) => notices.push(t) }).close();
    expect(notices).toEqual([]);
  });

  test("a path whose parent is a file gives a clear error", () => {
    const file = join(tempDir(), "not-a-dir");
    writeFileSync(file, "x");
    const error = openError(join(file, "sidecar.db"));
    expect(error.code).toBe("DB_UNREADABLE");
    expect(error.message).toContain(file);
  });
});

describe("a read-only database", () => {
  test("searches, gets and lists work; storing fails with what to do; nothing is written", async () => {
    const { createEngine } = await import("../../src/engine.ts");
    const { testConfig, noisyLog } = await import("../helpers.ts");
    const path = join(tempDir(), "ro.db");
    const writer = createEngine({ config: testConfig(path), background: "inline" });
    const stored = await writer.capture({
      text: noisyLog(400, 7, { line: 200, text: "fatal: unable to resolve quixotic-widget" }),
      tool: "bash",
    });
    await writer.close();
    const before = readFileSync(path);
    const db = openDatabase(path, { readonly: true });
    const reader = createEngine({ config: testConfig(path), db, background: "inline" });
    const found = await reader.search({ query: "quixotic widget" });
    expect(found.ok && found.hits.length).toBeGreaterThan(0);
    const got = await reader.get({ source: (stored as { sourceId: string }).sourceId, lines: { from: 1, to: 3 } });
    expect(got.ok).toBe(true);
    expect((await reader.list({}, 5)).length).toBe(1);
    const error = await reader.capture({ text: noisyLog(400, 8), tool: "bash" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("DB_READONLY");
    expect((error as AppError).message).toContain("chmod u+w");
    await reader.close();
    db.close();
    expect(readFileSync(path).equals(before)).toBe(true);
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
