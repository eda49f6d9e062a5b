import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import schemaSql from "../../src/db/migrations/004-code-index.sql" with { type: "text" };
import { type Db, openDatabase } from "../../src/db/open.ts";
import { createBuiltinIndex } from "../../src/kota/builtin/backend.ts";
import { FACT_INDEXES } from "../../src/kota/builtin/bulk-indexes.ts";
import { startFirstIndex } from "../../src/kota/builtin/first-index.ts";
import { createParsePool } from "../../src/kota/builtin/parse/parse-pool.ts";
import { cleanupTempDirs, ok, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

/** 240 small files that import their neighbour (three batches of parses). */
function ringRepo(): string {
  const files: Record<string, string> = { "package.json": '{"name":"ring"}\n' };
  for (let i = 0; i < 240; i++)
    files[`lib/part${i}.ts`] =
      `import { part${(i + 1) % 240} } from "./part${(i + 1) % 240}";\nexport const part${i} = () => part${(i + 1) % 240};\n`;
  return writeRepo(files);
}

const indexes = (db: Db) =>
  db
    .query<{ name: string; sql: string }, []>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
    .all();
const freshDb = () => openDatabase(join(tempDir("kota-db-"), "sidecar.db"), { migrations: [schemaSql] });

describe("kota secondary indexes during a first index", () => {
  test("are the schema's nine, set aside while a first index writes, and back once it is done", async () => {
    expect(FACT_INDEXES.map((d) => d.name).sort()).toEqual([...schemaSql.matchAll(/CREATE INDEX (\w+)/g)].map((m) => m[1]!).sort());
    expect(FACT_INDEXES).toHaveLength(9);
    const root = ringRepo();
    const pool = createParsePool();
    try {
      const db = freshDb();
      const before = indexes(db);
      const during: number[] = [];
      const early = startFirstIndex(root, [], pool)!;
      const backend = createBuiltinIndex({ db, root, parser: pool, firstIndex: early, watch: false });
      ok(await backend.index({ onProgress: () => during.push(indexes(db).length) }));
      expect(Math.min(...during)).toBe(before.length - 9);
      expect(indexes(db)).toEqual(before);
      const deps = ok(await backend.deps({ file: "lib/part7.ts" }));
      expect(JSON.stringify(deps)).toContain("lib/part6.ts");
      // Not a first index (files stored): every index stays.
      const seen: number[] = [];
      ok(await backend.index({ full: true, onProgress: () => seen.push(indexes(db).length) }));
      expect(Math.min(...seen)).toBe(before.length);
      db.close();
    } finally {
      await pool.close();
    }
  });

  test("set aside too in a database made before without any code index (the engine's); not beside another repository's index", async () => {
    const pool = createParsePool();
    try {
      const db = freshDb();
      const before = indexes(db);
      const during: number[] = [];
      const first = createBuiltinIndex({ db, root: ringRepo(), parser: pool, watch: false });
      ok(await first.index({ onProgress: () => during.push(indexes(db).length) }));
      expect(Math.min(...during)).toBe(before.length - 9);
      expect(indexes(db)).toEqual(before);
      // A second repository's first index: the first one's queries keep their indexes.
      const seen: number[] = [];
      const second = createBuiltinIndex({ db, root: ringRepo(), parser: pool, watch: false });
      ok(await second.index({ onProgress: () => seen.push(indexes(db).length) }));
      expect(Math.min(...seen)).toBe(before.length);
      expect(JSON.stringify(ok(await second.deps({ file: "lib/part7.ts" })))).toContain("lib/part6.ts");
      db.close();
    } finally {
      await pool.close();
    }
  });

  test("a first index stopped on the way puts them back; one left missing is put back when the index opens", async () => {
    const root = ringRepo();
    const pool = createParsePool();
    try {
      const db = freshDb();
      const before = indexes(db);
      const stop = new AbortController();
      const early = startFirstIndex(root, [], pool)!;
      const r = await createBuiltinIndex({ db, root, parser: pool, firstIndex: early, watch: false }).index({
        signal: stop.signal,
        onProgress: (done) => {
          if (done > 0) stop.abort();
        },
      });
      expect(JSON.stringify(r)).toMatch(/cancel/i);
      expect(indexes(db)).toEqual(before);
      // As a killed process leaves them:
      db.exec("DROP INDEX code_refs_file; DROP INDEX code_imports_target");
      expect(indexes(db)).toHaveLength(before.length - 2);
      createBuiltinIndex({ db, root, parser: pool, watch: false });
      expect(indexes(db).map((i) => i.name)).toEqual(before.map((i) => i.name));
      db.close();
    } finally {
      await pool.close();
    }
  });
});
