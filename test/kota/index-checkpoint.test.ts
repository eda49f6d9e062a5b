/**
 * A run of several batches folds the WAL into the database file while the parser works on the last
 * batches, so that the checkpoint left for the end (the service's, when it closes) has only those
 * batches' pages to copy. Seen from outside: the database file grows before the run ends.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import schemaSql from "../../src/db/migrations/004-code-index.sql" with { type: "text" };
import { openDatabase } from "../../src/db/open.ts";
import { createBuiltinIndex } from "../../src/kota/builtin/backend.ts";
import { batchBounds, INDEXES_BACK_AT } from "../../src/kota/builtin/indexer.ts";
import { createParsePool } from "../../src/kota/builtin/parse/parse-pool.ts";
import { cleanupTempDirs, ok, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

describe("kota index checkpoints", () => {
  test("the database file takes the WAL before the last batches are written, not only at the end", async () => {
    const files: Record<string, string> = { "package.json": '{"name":"chain"}\n' };
    for (let i = 0; i < 240; i++)
      files[`src/m${i}.ts`] = `import { m${(i + 1) % 240} } from "./m${(i + 1) % 240}";\nexport const m${i} = 1;\n`;
    const root = writeRepo(files);
    const path = join(tempDir("kota-db-"), "sidecar.db");
    const db = openDatabase(path, { migrations: [schemaSql] });
    // As the service runs it: no automatic checkpoint along the way (kota/checkpoint.ts).
    db.exec("PRAGMA wal_autocheckpoint = 0");
    const bounds = batchBounds(240);
    // The batch written while INDEXES_BACK_AT batches are left is not the first one.
    expect(bounds.length).toBeGreaterThanOrEqual(INDEXES_BACK_AT + 2);
    const pool = createParsePool();
    try {
      const sizes = new Map<number, number>();
      const kota = createBuiltinIndex({ db, root, parser: pool, watch: false });
      ok(await kota.index({ onProgress: (done) => sizes.set(done, statSync(path).size) }));
      const first = sizes.get(bounds[0]![1])!;
      const early = sizes.get(bounds[bounds.length - 1 - INDEXES_BACK_AT]![1])!;
      expect(early).toBeGreaterThan(first);
    } finally {
      db.close();
      await pool.close();
    }
  });
});
