/**
 * workspace-gaps.ts asks on every usages, impact and deps call: its queries must not cost in
 * proportion to the repository's files. Checked by the plan SQLite chooses for each query it runs,
 * on a database of our own making with many files and few unresolved workspace imports.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type Db, openDatabase } from "../../src/db/open.ts";
import { buildGraph } from "../../src/kota/builtin/graph.ts";
import type { QueryEnv } from "../../src/kota/builtin/query/env.ts";
import { gapsReaching, unresolvedImporters } from "../../src/kota/builtin/query/workspace-gaps.ts";
import { cleanupTempDirs, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

/** A database of 400 files, 4 imports each, two files importing the unresolved workspace package `@x/gone`, and one file of that package. */
function generated(): Db {
  const db = openDatabase(join(tempDir(), "gaps.db"));
  db.exec("INSERT INTO code_repos (id, root) VALUES (1, '/r')");
  db.exec("INSERT INTO code_watch (repo_id, path, is_dir, mtime_ms) VALUES (1, 'packages/gone/package.json', 0, 1)");
  const file = db.query<{ id: number }, [string]>(
    "INSERT INTO code_files (repo_id, path, size, mtime_ms, hash) VALUES (1, ?, 1, 1, 'h') RETURNING id",
  );
  const imp = db.query("INSERT INTO code_imports (file_id, specifier, kind, line, status) VALUES (?, ?, 'import', 1, ?)");
  db.transaction(() => {
    file.get("packages/gone/a.ts");
    for (let k = 0; k < 400; k++) {
      const id = file.get(`src/f${k}.ts`)!.id;
      for (let j = 0; j < 4; j++) imp.run(id, j === 0 && k < 2 ? "@x/gone" : `./f${j}`, j === 0 && k < 2 ? 4 : 1);
    }
  })();
  db.exec("ANALYZE");
  return db;
}

/** The db, recording every statement the code under test prepares. */
function recording(db: Db, sqls: string[]): Db {
  return new Proxy(db, {
    get(target, key) {
      if (key === "query" || key === "prepare")
        return (sql: string) => {
          sqls.push(sql);
          return target.query(sql);
        };
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

describe("kota workspace gaps: the caveat's queries read the imports once, not each file's", () => {
  test("no query probes code_imports once per file of the repository", () => {
    const db = generated();
    const root = writeRepo({ "packages/gone/package.json": JSON.stringify({ name: "@x/gone" }), "packages/gone/a.ts": "" });
    const sqls: string[] = [];
    const env: QueryEnv = { db: recording(db, sqls), root, repoId: 1, graph: buildGraph(db, 1, 1) };
    expect(gapsReaching(env, ["packages/gone/a.ts"])).toEqual({ files: 2, specifiers: ["@x/gone"], example: "src/f0.ts" });
    expect(gapsReaching(env, ["src/f9.ts"])).toBeNull();
    expect(unresolvedImporters(env, "packages/gone/a.ts")).toEqual({ name: "@x/gone", files: 2 });
    const gapQueries = sqls.filter((s) => s.includes("code_imports"));
    expect(gapQueries.length).toBe(4);
    for (const sql of gapQueries) {
      const plan = db
        .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((r) => r.detail)
        .filter((d) => /^(SCAN|SEARCH) /.test(d));
      // The outer loop is over the imports (`i`); the file (`f`) is looked up by its id.
      expect(plan[0]).toMatch(/^SCAN i\b/);
      expect(plan[1]).toMatch(/^SEARCH f USING INTEGER PRIMARY KEY/);
    }
  });
});
