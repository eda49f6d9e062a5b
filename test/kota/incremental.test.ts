import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createBuiltinIndex } from "../../src/kota/builtin/backend.ts";
import { batchBounds } from "../../src/kota/builtin/indexer.ts";
import { cleanupTempDirs, ok, openIndex, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

function baseRepo(): string {
  return writeRepo({
    ".gitignore": "generated/\n*.gen.ts\n!keep.gen.ts\n/build-out\n",
    "src/a.ts": 'import { b } from "./b";\nexport const a = () => b();\n',
    "src/b.ts": "export function b() { return 1 }\n",
    "src/c.ts": 'import { a } from "./a";\nexport const c = a();\n',
    "src/skip.gen.ts": "export const skipped = 1\n",
    "src/keep.gen.ts": "export const kept = 1\n",
    "generated/x.ts": "export const x = 1\n",
    "build-out/y.ts": "export const y = 1\n",
    "node_modules/dep/index.ts": "export const dep = 1\n",
    "dist/index.js": "export const built = 1\n",
    "vendor/huge.js": `export const big = "${"x".repeat(1024 * 1024)}"\n`,
    "src/broken.ts": 'import { b } from "./b";\nexport function ok() { return b() }\nexport function broken( {\n',
  });
}

/** Writes a file and moves its mtime, so a change within the same clock tick is still seen. */
function edit(root: string, path: string, text: string, bump = 5000): void {
  writeFileSync(join(root, path), text);
  const t = new Date(Date.now() + bump);
  utimesSync(join(root, path), t, t);
}

describe("kota builtin: which files, and keeping current", () => {
  test(".gitignore (patterns, negation, folders), node_modules, dist and files over 1 MiB are left out", async () => {
    const { kota } = openIndex(baseRepo());
    const r = ok(await kota.index());
    const status = ok(await kota.status());
    expect(status.files).toBe(r.files);
    const files = ok(await kota.search({ query: "export", output: "paths", limit: 100 })).paths.map((p) => p.path);
    expect(files.sort()).toEqual(["src/a.ts", "src/b.ts", "src/broken.ts", "src/c.ts", "src/keep.gen.ts"]);
    const huge = await kota.deps({ file: "vendor/huge.js" });
    expect(huge.ok).toBe(false);
    if (!huge.ok) expect(huge.message).toContain("larger than 1 MiB");
    const ignored = await kota.deps({ file: "src/skip.gen.ts" });
    if (!ignored.ok) expect(ignored.message).toContain("ignored by .gitignore");
    const dep = await kota.deps({ file: "node_modules/dep/index.ts" });
    if (!dep.ok) expect(dep.message).toContain("never indexed");
    expect(ignored.ok || dep.ok).toBe(false);
  });

  test("a syntax error: the rest is indexed, the error reported, the broken file's imports kept", async () => {
    const { kota } = openIndex(baseRepo());
    const r = ok(await kota.index());
    expect(r.errors?.map((e) => e.file)).toEqual(["src/broken.ts"]);
    expect(r.errors?.[0]?.line).toBe(4);
    expect(ok(await kota.status()).errors).toBe(1);
    const b = ok(await kota.deps({ file: "src/b.ts", direction: "dependents" }));
    expect(b.dependents.direct).toEqual(["src/a.ts", "src/broken.ts"]);
  });

  test("one changed file: only it is re-parsed; the next query sees the change without an index call", async () => {
    const { kota, root } = openIndex(baseRepo());
    ok(await kota.index());
    edit(root, "src/c.ts", 'import { b } from "./b";\nexport const c = b();\n');
    const deps = ok(await kota.deps({ file: "src/c.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual(["src/b.ts"]);
    const usages = ok(await kota.usages({ symbol: "a", file: "src/a.ts" }));
    expect(usages.usages).toEqual([]);
    // An explicit run now has nothing left to do.
    const again = ok(await kota.index());
    expect(again.changed).toBe(0);
    // Touching a file without changing it costs a hash, not a parse.
    edit(root, "src/b.ts", "export function b() { return 1 }\n", 9000);
    expect(ok(await kota.index()).changed).toBe(0);
  });

  test("new and deleted files are noticed by the next query", async () => {
    const { kota, root } = openIndex(baseRepo());
    ok(await kota.index());
    mkdirSync(join(root, "src/feature"));
    writeFileSync(join(root, "src/feature/new.ts"), 'import { c } from "../c";\nexport const n = c;\n');
    rmSync(join(root, "src/a.ts"));
    const c = ok(await kota.deps({ file: "src/c.ts", direction: "both" }));
    expect(c.dependents.direct).toEqual(["src/feature/new.ts"]);
    expect(c.dependencies.direct).toEqual([]);
    expect(c.unresolved).toEqual(["./a"]);
    const gone = await kota.deps({ file: "src/a.ts" });
    expect(gone.ok).toBe(false);
    if (!gone.ok) expect(gone.code).toBe("NOT_INDEXED");
    // The file comes back: the unresolved import resolves again.
    writeFileSync(join(root, "src/a.ts"), "export const a = () => 1\n");
    expect(ok(await kota.deps({ file: "src/c.ts" })).dependencies.direct).toEqual(["src/a.ts"]);
  });

  test("a changed file's old words and facts go, a deleted file's too; a full re-index keeps the same rows", async () => {
    const { kota, root, db } = openIndex(baseRepo());
    ok(await kota.index());
    const words = (word: string) =>
      db
        .query<{ path: string }, [string]>(
          "SELECT f.path FROM code_text t JOIN code_files f ON f.id = t.rowid WHERE code_text MATCH ? ORDER BY f.path",
        )
        .all(`"${word}"`)
        .map((r) => r.path);
    const rows = () =>
      db
        .query<{ n: number }, []>(
          "SELECT (SELECT count(*) FROM code_symbols) + (SELECT count(*) FROM code_imports) + (SELECT count(*) FROM code_refs) + (SELECT count(*) FROM code_exports) AS n",
        )
        .get()!.n;
    expect(words("b")).toEqual(["src/a.ts", "src/b.ts", "src/broken.ts"]);
    const before = rows();
    edit(root, "src/b.ts", "export function renamedThing() { return 1 }\n");
    rmSync(join(root, "src/c.ts"));
    ok(await kota.index());
    expect(words("b")).toEqual(["src/a.ts", "src/broken.ts"]);
    expect(words("renamed")).toEqual(["src/b.ts"]);
    expect(words("c")).toEqual([]);
    expect(ok(await kota.usages({ symbol: "renamedThing", file: "src/b.ts" })).definedIn).toEqual([{ file: "src/b.ts", line: 1 }]);
    // Every file parsed again over the stored ones: nothing doubled, nothing left behind.
    const after = rows();
    ok(await kota.index({ full: true }));
    expect(rows()).toBe(after);
    expect(after).toBeLessThan(before);
    expect(words("renamed")).toEqual(["src/b.ts"]);
  });

  test("files are stored in batches of 100, the last (written after the last parse) of 25 at most", () => {
    expect(batchBounds(0)).toEqual([]);
    expect(batchBounds(3)).toEqual([[0, 3]]);
    expect(batchBounds(26)).toEqual([
      [0, 1],
      [1, 26],
    ]);
    expect(batchBounds(489).map(([from, to]) => to - from)).toEqual([100, 100, 100, 100, 64, 25]);
    for (let total = 1; total < 700; total++) {
      const b = batchBounds(total);
      expect(b[0]![0]).toBe(0);
      expect(b.at(-1)![1]).toBe(total);
      for (let i = 1; i < b.length; i++) expect(b[i]![0]).toBe(b[i - 1]![1]);
      expect(b.every(([from, to]) => to > from && to - from <= 100)).toBe(true);
      expect(b.at(-1)![1] - b.at(-1)![0]).toBeLessThanOrEqual(25);
    }
  });

  test("a changed .gitignore re-walks the tree", async () => {
    const { kota, root } = openIndex(baseRepo());
    ok(await kota.index());
    edit(root, ".gitignore", "*.gen.ts\n");
    const gen = ok(await kota.deps({ file: "generated/x.ts" }));
    expect(gen.file).toBe("generated/x.ts");
    expect((await kota.deps({ file: "src/keep.gen.ts" })).ok).toBe(false);
  });

  test("one database holds several repositories apart", async () => {
    const first = openIndex(baseRepo());
    const secondRoot = writeRepo({ "lib/only.ts": "export const only = 1\n" });
    const second = createBuiltinIndex({ db: first.db, root: secondRoot, freshnessMs: 0 });
    ok(await first.kota.index());
    ok(await second.index());
    expect(ok(await second.status()).files).toBe(1);
    expect(ok(await first.kota.status()).files).toBe(5);
    expect((await second.deps({ file: "src/a.ts" })).ok).toBe(false);
  });
});
