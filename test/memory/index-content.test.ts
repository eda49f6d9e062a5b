/**
 * The word indexes read their rows as they index them: an event's or summary's text with its extra
 * terms (identifiers.ts). FTS5's own checks and a rebuild from the rows then agree with what the
 * triggers wrote, through adds, corrections, summaries, forgets and retention, and on a database
 * made before the indexes read their rows that way.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { cleanupTempDirs, tempDir } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const INDEXES = ["memory_events_fts", "memory_summaries_fts"] as const;

/** FTS5's integrity-check against the rows (rank 1): throws when the index holds other words than its rows give. */
function checkAgainstRows(m: Pick<TestMemory, "db">): void {
  for (const fts of INDEXES) m.db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('integrity-check', 1)`);
}

const found = async (m: TestMemory, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 10 }, "search")).hits.map((h) => h.text).join("\n");

describe("word indexes against their rows", () => {
  test("integrity-check passes after adds, corrections, summaries, forgets and retention; a rebuild keeps the extra terms", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 10;
    });
    for (let i = 0; i < 24; i++) await m.add("note", `note ${i}: the rateLimiter in api_gateway${i} listens on port ${4000 + i}`);
    const fix = await m.add("correction", "no, the rateLimiter listens on port 5999 now, not 4003");
    await m.add("decision", "we use the HTTPServer from node_http for the checkoutFlow");
    await m.ok({ type: "summarize", project: PROJECT, steps: 100, force: true }, "summarize");
    expect(m.db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_summaries WHERE terms IS NOT NULL").get()!.n).toBeGreaterThan(0);
    expect(m.db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_events WHERE terms IS NOT NULL").get()!.n).toBeGreaterThan(20);
    checkAgainstRows(m);

    // Forgetting rewrites the summaries that named what went (their text and terms change).
    await m.ok({ type: "forget", project: PROJECT, id: fix }, "forget");
    await m.ok({ type: "forget", project: PROJECT, query: "checkoutFlow" }, "forget");
    checkAgainstRows(m);
    m.clock.t += 40 * 86_400_000;
    m.config.memory.keepDays = 30;
    await m.ok({ type: "retention" }, "retention");
    await m.add("note", "the sessionCache keeps entries for 30m");
    checkAgainstRows(m);

    // A rebuild from the rows (FTS5's repair) indexes the extra terms again: "rate limiter" still finds rateLimiter.
    const before = await found(m, "session cache");
    expect(before).toContain("sessionCache");
    for (const fts of INDEXES) m.db.exec(`INSERT INTO ${fts} (${fts}) VALUES ('rebuild')`);
    checkAgainstRows(m);
    expect(await found(m, "session cache")).toBe(before);
    m.db.close();
  });

  test("a database made before the indexes read their rows this way is checked clean after the upgrade, and finds what it found", async () => {
    const path = join(tempDir("memory-"), "sidecar.db");
    const old = openDatabase(path, { migrations: MIGRATIONS.slice(0, 11) });
    old.exec("INSERT INTO memory_projects (path) VALUES ('/p'); INSERT INTO memory_sessions (project_id, name) VALUES (1, 's')");
    const add = old.query(
      "INSERT INTO memory_events (project_id, session_id, ts, kind, content, tokens, terms) VALUES (1, 1, ?, 'note', ?, 5, ?)",
    );
    add.run(1, "the rateLimiter allows 20 requests a second", "rate limiter");
    add.run(2, "deploys go through api_gateway", "apigateway");
    add.run(3, "plain words only here", null);
    expect(() => old.exec("INSERT INTO memory_events_fts (memory_events_fts, rank) VALUES ('integrity-check', 1)")).toThrow();
    old.close();

    const db = openDatabase(path, { migrations: MIGRATIONS });
    checkAgainstRows({ db });
    const match = (q: string) =>
      db
        .query<{ id: number }, [string]>("SELECT rowid AS id FROM memory_events_fts WHERE memory_events_fts MATCH ? ORDER BY rowid")
        .all(q)
        .map((r) => r.id);
    expect(match('"limiter"')).toEqual([1]);
    expect(match('"apigateway"')).toEqual([2]);
    expect(match('"plain"')).toEqual([3]);
    // Writes after the upgrade go through the same triggers and stay consistent.
    db.exec("DELETE FROM memory_events WHERE id = 1");
    checkAgainstRows({ db });
    expect(match('"limiter"')).toEqual([]);
    db.close();
  });
});
