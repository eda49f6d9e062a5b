/**
 * A full index of many files resolves its imports with a resolver built from the listing and warmed
 * up while the parsers work: what it stores is what a resolver built afterwards from the database
 * stores, and it is taken only when the stored files and configs are the ones it was built from.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { answerKey, resolveContext, resolveImports, warmResolver } from "../../src/kota/builtin/resolve/resolve-imports.ts";
import { cleanupTempDirs, ok, openIndex, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

/** 150 files (more than one batch): a workspace package, tsconfig paths, relative and missing imports. */
function bigRepo(): string {
  const files: Record<string, string> = {
    "package.json": `{ "name": "root", "private": true, "workspaces": ["packages/*"] }`,
    "tsconfig.json": `{ "compilerOptions": { "baseUrl": ".", "paths": { "@app/*": ["src/*"] } } }`,
    "packages/core/package.json": `{ "name": "@acme/core", "exports": { ".": { "types": "./dist/index.d.ts", "import": "./dist/index.js" } } }`,
    "packages/core/src/index.ts": "export const core = 1\n",
  };
  for (let i = 0; i < 150; i++) {
    files[`src/m${i}.ts`] = [
      `import { core } from "@acme/core";`,
      i > 0 ? `import { v${i - 1} } from "./m${i - 1}";` : `import { nothing } from "./missing";`,
      i > 1 ? `import { v${i - 2} } from "@app/m${i - 2}";` : "",
      `export const v${i} = core + ${i};`,
    ].join("\n");
  }
  return writeRepo(files);
}

type Row = { file: string; specifier: string; status: number; target: string | null };
const rows = (db: ReturnType<typeof openIndex>["db"]): Row[] =>
  db
    .query<Row, []>(
      `SELECT f.path AS file, i.specifier, i.status, t.path AS target FROM code_imports i
       JOIN code_files f ON f.id = i.file_id LEFT JOIN code_files t ON t.id = i.target_id ORDER BY f.path, i.specifier`,
    )
    .all();

describe("kota builtin: the resolver warmed up during a full index", () => {
  test("stores the same answers as a resolver built from the database afterwards", async () => {
    const { kota, db, root } = openIndex(bigRepo());
    expect(ok(await kota.index()).files).toBe(151);
    const stored = rows(db);
    expect(stored.find((r) => r.file === "src/m5.ts" && r.specifier === "@acme/core")?.target).toBe("packages/core/src/index.ts");
    expect(stored.find((r) => r.file === "src/m5.ts" && r.specifier === "@app/m3")?.target).toBe("src/m3.ts");
    expect(stored.find((r) => r.specifier === "./missing")?.status).toBe(0);
    const repoId = db.query<{ id: number }, []>("SELECT id FROM code_repos").get()!.id;
    db.run("UPDATE code_imports SET target_id = NULL, status = 0");
    resolveImports(db, root, repoId);
    expect(rows(db)).toEqual(stored);
  });

  test("fits only the files and configs it was built from", () => {
    const root = writeRepo({ "tsconfig.json": "{}", "a.ts": "export const a = 1\n" });
    const configs = [{ path: "tsconfig.json", mtime_ms: 5 }];
    const warm = warmResolver(root, ["a.ts", "b.ts"], configs, new Map());
    expect(warm.fits(["b.ts", "a.ts"], configs)).toBe(true);
    expect(warm.fits(["a.ts"], configs)).toBe(false);
    expect(warm.fits(["a.ts", "b.ts", "c.ts"], configs)).toBe(false);
    expect(warm.fits(["a.ts", "b.ts"], [{ path: "tsconfig.json", mtime_ms: 6 }])).toBe(false);
    expect(warm.fits(["a.ts", "b.ts"], [...configs, { path: "package.json", mtime_ms: 1 }])).toBe(false);
  });

  test("its answers are taken at the end of the run only when it fits, and only by that run", async () => {
    const { kota, db, root } = openIndex(
      writeRepo({ "tsconfig.json": "{}", "a.ts": 'import { b } from "./b";\n', "b.ts": "export const b = 1\n" }),
    );
    ok(await kota.index());
    const repoId = db.query<{ id: number }, []>("SELECT id FROM code_repos").get()!.id;
    const watched = [
      {
        path: "tsconfig.json",
        mtime_ms: db.query<{ m: number }, []>("SELECT mtime_ms AS m FROM code_watch WHERE path = 'tsconfig.json'").get()!.m,
      },
    ];
    const target = () => db.query<{ t: number | null }, []>("SELECT target_id AS t FROM code_imports").get()!.t;
    const resolved = target();
    expect(resolved).not.toBeNull();

    // Fits: the answer it gave during the run is what is stored (here, deliberately, "unresolved").
    const warm = warmResolver(root, new Set(["a.ts", "b.ts"]), watched, new Map());
    warm.warmUp("a.ts", "./b", "import");
    expect(warm.answers.get(answerKey("a.ts", "./b", "import"))).toEqual({ status: "resolved", path: "b.ts" });
    (warm.answers as Map<string, unknown>).set(answerKey("a.ts", "./b", "import"), { status: "unresolved" });
    const context = resolveContext(db, root, repoId, new Map(), warm);
    expect(warm.taken).toBe(true);
    resolveImports(db, root, repoId, undefined, new Map(), context, warm.answers);
    expect(target()).toBeNull();
    // A later run with the same context asks again.
    resolveImports(db, root, repoId, undefined, new Map(), context);
    expect(target()).toBe(resolved);

    // Does not fit (another file set): not taken.
    const other = warmResolver(root, new Set(["a.ts"]), watched, new Map());
    resolveContext(db, root, repoId, new Map(), other);
    expect(other.taken).toBe(false);
  });
});
