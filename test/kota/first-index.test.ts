import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import schemaSql from "../../src/db/migrations/004-code-index.sql" with { type: "text" };
import { openDatabase } from "../../src/db/open.ts";
import { createBuiltinIndex } from "../../src/kota/builtin/backend.ts";
import { startFirstIndex } from "../../src/kota/builtin/first-index.ts";
import { AHEAD_BATCHES, batchBounds } from "../../src/kota/builtin/indexer.ts";
import { createParsePool } from "../../src/kota/builtin/parse/parse-pool.ts";
import { createCodeStore } from "../../src/kota/builtin/store.ts";
import { createKotaService } from "../../src/kota/service.ts";
import { cleanupTempDirs, ok, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

/** 260 files in a chain of imports (more than the batches sent ahead), one of them broken. */
function chainRepo(): string {
  const files: Record<string, string> = { "package.json": '{"name":"chain"}\n' };
  for (let i = 0; i < 260; i++) {
    const prev = i === 0 ? "" : `import { step${i - 1} } from "./step${i - 1}";\n`;
    files[`src/step${i}.ts`] =
      `${prev}/** Step ${i}. */\nexport function step${i}(n: number): number {\n  return ${i === 0 ? "n" : `step${i - 1}(n)`} + ${i};\n}\n`;
  }
  files["src/step130.ts"] = 'import { step129 } from "./step129";\nexport function step130( {\n';
  return writeRepo(files);
}

const TABLES = ["code_files", "code_symbols", "code_imports", "code_exports", "code_refs"];
const dump = (db: ReturnType<typeof openDatabase>) =>
  Object.fromEntries(TABLES.map((t) => [t, db.query(`SELECT * FROM ${t} ORDER BY rowid`).all()]));

describe("kota first index", () => {
  test("the listing and the first batches' parses made before the database exists are taken by the first run: the same index", async () => {
    const root = chainRepo();
    const pool = createParsePool();
    try {
      // No database anywhere yet: the parser already has the first batches.
      const early = startFirstIndex(root, [], pool)!;
      expect(early.scan.sources).toHaveLength(260);
      expect(early.parsed.size).toBe(batchBounds(260)[AHEAD_BATCHES - 1]![1]);
      expect(early.parsed.size).toBeLessThan(260);
      expect(pool.stats().inFlight).toBeGreaterThan(0);
      const db = openDatabase(join(tempDir("kota-db-"), "sidecar.db"), { migrations: [schemaSql] });
      const r = ok(await createBuiltinIndex({ db, root, parser: pool, firstIndex: early, watch: false }).index());
      expect(r.files).toBe(260);
      expect(r.errors?.map((e) => e.file)).toEqual(["src/step130.ts"]);
      expect(early.parsed.size).toBe(0); // every one taken, none parsed twice

      const plain = openDatabase(join(tempDir("kota-db-"), "sidecar.db"), { migrations: [schemaSql] });
      ok(await createBuiltinIndex({ db: plain, root, parser: pool, watch: false }).index());
      expect(dump(db)).toEqual(dump(plain));
      db.close();
      plain.close();
    } finally {
      await pool.close();
    }
  });

  test("a first index answers the totals it counted as it wrote: the same as counting the stored rows", async () => {
    const files: Record<string, string> = { "package.json": '{"name":"counted"}\n' };
    for (let i = 0; i < 150; i++)
      files[`src/c${i}.ts`] =
        `import { helper } from "./shared";\nexport class C${i} {\n  n = 0;\n  bump() { this.n++; return helper(this.n) + helper(${i}); }\n}\n` +
        `const local${i} = () => new C${i}().bump();\nexport const v${i} = local${i}() + local${i}();\n`;
    files["src/shared.ts"] = "export function helper(n: number): number {\n  return n * 2;\n}\n";
    files["src/broken.ts"] = "export const = (;\n";
    const root = writeRepo(files);
    const pool = createParsePool();
    try {
      const db = openDatabase(join(tempDir("kota-db-"), "sidecar.db"), { migrations: [schemaSql] });
      const r = ok(
        await createBuiltinIndex({ db, root, parser: pool, firstIndex: startFirstIndex(root, [], pool)!, watch: false }).index(),
      );
      const counted = createCodeStore(db).totals(1);
      expect(counted.references).toBeGreaterThan(600);
      expect(counted.errors).toBe(1);
      expect({ files: r.files, symbols: r.symbols, references: r.references, errors: r.errors?.length }).toEqual(counted);
      db.close();
    } finally {
      await pool.close();
    }
  });

  test("a start made for another root, or once files are indexed, is not taken", async () => {
    const root = chainRepo();
    const other = writeRepo({ "package.json": "{}\n", "x.ts": "export const x = 1;\n" });
    const pool = createParsePool();
    try {
      const db = openDatabase(join(tempDir("kota-db-"), "sidecar.db"), { migrations: [schemaSql] });
      const early = startFirstIndex(other, [], pool)!;
      const r = ok(await createBuiltinIndex({ db, root, parser: pool, firstIndex: early, watch: false }).index());
      expect(r.files).toBe(260);
      expect(early.parsed.size).toBe(1); // left alone: it lists another repository
      // The same root, once its files are indexed (by another process, say): a full walk and parse as usual.
      const late = startFirstIndex(root, [], pool)!;
      const again = ok(await createBuiltinIndex({ db, root, parser: pool, firstIndex: late, watch: false }).index({ full: true }));
      expect(again.files).toBe(260);
      expect(late.parsed.size).toBe(batchBounds(260)[AHEAD_BATCHES - 1]![1]); // not taken
    } finally {
      await pool.close();
    }
  });

  test("the service indexes into a database that does not exist yet, and a later full run stores the same totals", async () => {
    const root = chainRepo();
    const dbPath = join(tempDir("kota-svc-"), "sidecar.db");
    const svc = createKotaService({ dbPath, config: { kota: defaultConfig({ HOME: tempDir() }).kota }, freshnessMs: 0, watch: false });
    try {
      expect(existsSync(dbPath)).toBe(false);
      const first = ok(await svc.handle({ op: "index", repo: root }));
      expect(existsSync(dbPath)).toBe(true);
      const again = ok(await svc.handle({ op: "index", repo: root, full: true }));
      if (first.op !== "index" || again.op !== "index") throw new Error("not an index answer");
      expect(first.result.files).toBe(260);
      expect({ ...again.result, ms: 0, changed: 0 }).toEqual({ ...first.result, ms: 0, changed: 0 });
      const deps = ok(await svc.handle({ op: "deps", repo: root, file: "src/step5.ts" }));
      expect(JSON.stringify(deps)).toContain("src/step4.ts");
    } finally {
      await svc.close();
    }
  });
});
