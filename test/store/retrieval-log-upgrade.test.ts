/**
 * A store whose retrieval log was written before the log lost its index on time (schema 12)
 * upgrades in place: the index goes, every row and counter stays, the log still reads newest
 * first and pages on, and new answers are logged after the old ones.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createEngine } from "../../src/engine.ts";
import { createRetrievalLog } from "../../src/store/retrieval-log.ts";
import { cleanupTempDirs, noisyLog, tempDir, testConfig } from "../helpers.ts";

afterAll(cleanupTempDirs);

const BEFORE = MIGRATIONS.findIndex((m) => m.includes("DROP INDEX IF EXISTS retrievals_at"));

function indexes(path: string, migrate = true): string[] {
  const db = migrate ? openDatabase(path) : new Database(path, { readonly: true });
  try {
    return db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'retrievals'")
      .all()
      .map((r) => r.name);
  } finally {
    db.close();
  }
}

describe("the retrieval log without its index on time", () => {
  test("an older store upgrades in place and keeps its log and counters", async () => {
    expect(BEFORE).toBeGreaterThan(0);
    const path = join(tempDir(), "old.db");
    // The store as the older schema had it, with a capture and three logged answers.
    const engine = createEngine({ config: testConfig(path), background: "inline" });
    const cap = await engine.capture({ text: noisyLog(400, 3, { line: 120, text: "orbitwhistle handshake" }), tool: "bash" });
    if (!cap.stored) throw new Error("not stored");
    await engine.close();
    const old = openDatabase(path, { migrations: MIGRATIONS });
    old.exec(`CREATE INDEX retrievals_at ON retrievals (at); PRAGMA user_version = ${BEFORE}`);
    const log = createRetrievalLog(old, () => 1000);
    for (const q of ["first", "second", "third"])
      log.add({ kind: "search", query: q, mode: "words", hits: 1, parts: [{ sourceId: cap.sourceId, text: `${q} answer` }] });
    log.flush();
    old.close();
    expect(indexes(path, false)).toContain("retrievals_at");
    expect(indexes(path)).not.toContain("retrievals_at");

    const again = createEngine({ config: testConfig(path), background: "inline" });
    try {
      const page = await again.retrievalLog({ limit: 2 });
      expect(page.entries.map((e) => e.query)).toEqual(["third", "second"]);
      const rest = await again.retrievalLog({ limit: 2, before: page.next! });
      expect(rest.entries.map((e) => e.query)).toEqual(["first"]);
      expect(rest.next).toBeNull();
      await again.search({ query: "orbitwhistle" });
      const stats = await again.stats({});
      expect(stats.totals.retrievals).toBe(4);
      const now = await again.retrievalLog({});
      expect(now.entries.map((e) => e.query)).toEqual(["orbitwhistle", "third", "second", "first"]);
      expect(now.summary.uncounted).toBe(0);
    } finally {
      await again.close();
    }
    // Running the migration again (a build that numbered it otherwise) changes nothing.
    const twice = openDatabase(path, { migrations: [...MIGRATIONS, MIGRATIONS[BEFORE]!] });
    expect(twice.query("SELECT count(*) AS n FROM retrievals").get()).toEqual({ n: 4 });
    twice.close();
  });
});
