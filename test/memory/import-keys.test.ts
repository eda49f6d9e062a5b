/**
 * Import keys kept in two tables (import-keys.ts): an event imported again is stored once whether
 * its key is still in the small table, was moved into the big one, or was stored by a build that
 * had only the big one; a key is never in both.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { foldRecentKeys } from "../../src/memory/import-keys.ts";
import { importKeys, type NewEvent } from "../../src/memory/types.ts";
import { cleanupTempDirs, tempDir } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

function history(from: number, n: number): NewEvent[] {
  const keyOf = importKeys();
  return Array.from({ length: n }, (_, i) => {
    const e = {
      kind: "note" as const,
      text: `note ${from + i}: the cache holds ${from + i} entries`,
      session: "s1",
      ts: 1_700_000_000_000 + (from + i) * 1000,
    };
    return { ...e, key: keyOf(e) };
  });
}

const count = (m: Pick<TestMemory, "db">, table: string) => m.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;

async function importAll(m: TestMemory, events: NewEvent[]) {
  return m.ok({ type: "addMany", project: PROJECT, events }, "addMany");
}

describe("import keys", () => {
  test("an import run again stores nothing, before and after its keys move to the big table; a key is in one table only", async () => {
    const m = testMemory();
    const first = history(0, 300);
    expect((await importAll(m, first)).added).toBe(300);
    expect(count(m, "memory_import_keys_recent")).toBe(300);
    // Again while the keys are in the small table, with new events mixed in.
    const again = await importAll(m, [...first.slice(100, 200), ...history(300, 50)]);
    expect([again.added, again.duplicates]).toEqual([50, 100]);
    foldRecentKeys(m, true);
    expect([count(m, "memory_import_keys"), count(m, "memory_import_keys_recent")]).toEqual([350, 0]);
    // Again after the move, and the same key twice in one batch: the first is stored once.
    const third = await importAll(m, [...first, ...history(300, 50), ...history(350, 2), ...history(350, 1)]);
    expect([third.added, third.duplicates]).toEqual([2, 351]);
    expect(count(m, "memory_events")).toBe(352);
    expect(
      m.db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_import_keys_recent r JOIN memory_import_keys k USING (key)").get()!.n,
    ).toBe(0);
    m.db.close();
  });

  test("keys stored by a build with one table still mark their events as imported after the upgrade", async () => {
    // The same keys as the build before this one stored them: in the big table only.
    const before = testMemory();
    await importAll(before, history(0, 40));
    foldRecentKeys(before, true);
    const keys = before.db.query<{ key: number }, []>("SELECT key FROM memory_import_keys").all();
    before.db.close();
    const path = join(tempDir("memory-"), "sidecar.db");
    const legacy = openDatabase(path, { migrations: MIGRATIONS.slice(0, 11) });
    expect(legacy.query("SELECT name FROM sqlite_master WHERE name = 'memory_import_keys_recent'").get()).toBeNull();
    const put = legacy.query("INSERT INTO memory_import_keys (key) VALUES (?)");
    for (const k of keys) put.run(k.key);
    legacy.close();
    const upgraded = testMemory(() => {}, path);
    const r = await importAll(upgraded, history(0, 45));
    expect([r.added, r.duplicates]).toEqual([5, 40]);
    upgraded.db.close();
  });
});
