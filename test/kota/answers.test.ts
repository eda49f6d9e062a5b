import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, ok, openIndex, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

function appRepo(): string {
  return writeRepo({
    "src/util/format.ts": "export function formatName(n: string) { return n.trim() }\nexport const SEPARATOR = ', '\n",
    "src/user.ts":
      'import { formatName } from "./util/format";\nexport class User { constructor(public name: string) {}\n  display() { return formatName(this.name) } }\n',
    "src/team.ts":
      'import { User } from "./user";\nimport { SEPARATOR } from "./util/format";\nexport const names = (us: User[]) => us.map((u) => u.display()).join(SEPARATOR);\n',
    "src/app.ts": 'import { names } from "./team";\nimport { User } from "./user";\nconsole.log(names([new User("ada")]));\n',
    "src/util/format.test.ts": 'import { formatName } from "./format";\ntest("trims", () => formatName(" a "));\n',
    "test/team.spec.ts": 'import { names } from "../src/team";\nnames([]);\n',
  });
}

describe("kota builtin: impact, task context, search, status", () => {
  test("impact: dependents with the reason, existing tests, risk and a summary", async () => {
    const { kota } = openIndex(appRepo());
    ok(await kota.index());
    const r = ok(await kota.impact({ modify: ["src/util/format.ts"] }));
    expect(r.affected[0]).toEqual({
      file: "src/util/format.ts",
      why: "modified; 3 files import it directly, 2 more through them",
      direct: 3,
      indirect: 2,
    });
    const why = Object.fromEntries(r.affected.map((a) => [a.file, a.why]));
    expect(why["src/team.ts"]).toBe("imports src/util/format.ts");
    expect(why["src/app.ts"]).toBe("depends on src/util/format.ts through src/team.ts");
    expect(r.tests.sort()).toEqual(["src/util/format.test.ts", "test/team.spec.ts"]);
    expect(r.counts).toEqual({ affected: 6, direct: 3, indirect: 2, tests: 2 });
    expect(r.risk).toBe("medium");
    expect(r.summary).toStartWith("Risk medium");

    const del = ok(await kota.impact({ delete: ["src/user.ts"], create: ["src/new.ts"] }));
    expect(del.risk).toBe("high");
    expect(del.warnings.join(" ")).toContain("import(s) of deleted files");
    expect(del.affected.find((a) => a.file === "src/team.ts")?.why).toBe("imports src/user.ts, which is deleted: this import breaks");
  });

  test("task context: dependencies, top dependents, tests and symbols per file", async () => {
    const { kota } = openIndex(appRepo());
    ok(await kota.index());
    const r = ok(await kota.taskContext({ files: ["src/user.ts", "src/nope.ts"] }));
    expect(r.files).toEqual([
      {
        file: "src/user.ts",
        dependencies: ["src/util/format.ts"],
        dependents: ["src/team.ts", "src/app.ts"], // team.ts has dependents of its own: first
        dependentCount: 2,
        tests: [],
        symbols: [
          { name: "User", kind: "class", line: 2, exported: true },
          { name: "name", kind: "property", line: 2, exported: true, parent: "User" },
          { name: "display", kind: "method", line: 3, exported: true, parent: "User" },
        ],
      },
    ]);
    expect(r.warnings[0]).toContain("src/nope.ts does not exist");
  });

  test("search: code lines (compact, snippet, paths) and symbols", async () => {
    const { kota } = openIndex(appRepo());
    ok(await kota.index());
    const compact = ok(await kota.search({ query: "formatName" }));
    expect(compact.code[0]).toEqual({
      path: "src/util/format.ts",
      line: 1,
      context: "export function formatName(n: string) { return n.trim() }",
    });
    expect(compact.symbols.map((s) => `${s.name}:${s.kind}:${s.file}`)).toEqual(["formatName:function:src/util/format.ts"]);
    const snippet = ok(await kota.search({ query: "display()", output: "snippet", contextLines: 1, scope: ["code"] }));
    expect(snippet.code.map((c) => `${c.path}:${c.line}`).sort()).toEqual(["src/team.ts:3", "src/user.ts:3"]);
    const team = snippet.code.find((c) => c.path === "src/team.ts")!;
    expect(team.before).toEqual(['import { SEPARATOR } from "./util/format";']);
    expect(team.after).toEqual([]);
    // Inside a word ("ormatNa"): the word index cannot find it, the fallback scan does.
    const inner = ok(await kota.search({ query: "ormatNa", output: "paths" }));
    expect(inner.paths.map((p) => p.path).sort()).toEqual(["src/user.ts", "src/util/format.test.ts", "src/util/format.ts"]);
    expect(ok(await kota.search({ query: "separator", output: "paths", limit: 1 })).total.files).toBe(2);
  });

  test("status before and after indexing; stale files counted", async () => {
    const { kota, root } = openIndex(appRepo());
    const before = ok(await kota.status());
    expect(before).toMatchObject({ backend: "builtin", indexed: false, files: 0, indexedAt: null });
    ok(await kota.index());
    writeFileSync(join(root, "src/extra.ts"), "export const e = 1\n");
    const after = ok(await kota.status());
    expect(after).toMatchObject({ indexed: true, files: 6, stale: 1, errors: 0 });
    expect(after.symbols).toBeGreaterThan(5);
    expect(Date.parse(after.indexedAt!)).toBeGreaterThan(0);
  });
});

describe("kota builtin: bad input gets a clear answer", () => {
  test("paths outside the repository, not indexed, unknown symbols, bad options", async () => {
    const { kota, root } = openIndex(appRepo());
    const early = await kota.deps({ file: "src/app.ts" });
    expect(early.ok === false && early.code).toBe("REPO_NOT_INDEXED");
    ok(await kota.index());
    const outside = await kota.deps({ file: "../etc/passwd" });
    expect(outside.ok === false && outside.code).toBe("FILE_OUTSIDE_REPO");
    const absOutside = await kota.usages({ symbol: "x", file: "/etc/hosts" });
    expect(absOutside.ok === false && absOutside.code).toBe("FILE_OUTSIDE_REPO");
    // Absolute paths inside the repository work.
    expect(ok(await kota.deps({ file: join(root, "src/app.ts") })).file).toBe("src/app.ts");
    const missing = await kota.deps({ file: "src/nope.ts" });
    expect(missing.ok === false && missing.message).toContain("src/nope.ts does not exist");
    writeFileSync(join(root, "README.md"), "# app\n");
    const prose = await kota.deps({ file: "README.md" });
    expect(prose.ok === false && prose.message).toContain("not a TypeScript/JavaScript file");
    const nosym = await kota.usages({ symbol: "formatNam" });
    expect(nosym.ok === false && nosym.code).toBe("NO_SUCH_SYMBOL");
    expect(nosym.ok === false && nosym.message).toContain("Similar: formatName (src/util/format.ts)");
    const wrongFile = await kota.usages({ symbol: "formatName", file: "src/team.ts" });
    expect(wrongFile.ok === false && wrongFile.message).toContain("is defined in src/util/format.ts");
    const depth = await kota.deps({ file: "src/app.ts", depth: 7 });
    expect(depth.ok === false && depth.code).toBe("BAD_INPUT");
    const empty = await kota.search({ query: "  " });
    expect(empty.ok === false && empty.code).toBe("BAD_INPUT");
    const none = await kota.impact({});
    expect(none.ok === false && none.code).toBe("BAD_INPUT");
  });

  test("a missing repository folder", async () => {
    const { kota } = openIndex(join(tempDir(), "no-such-repo"));
    const r = await kota.index();
    expect(r.ok === false && r.message).toContain("does not exist");
  });

  test("many files: progress, cancel part way, and the next run finishes without losing any", async () => {
    const root = tempDir("kota-many-");
    const n = 2000;
    for (let d = 0; d < 20; d++) {
      mkdirSync(join(root, `m${d}`));
      for (let i = 0; i < n / 20; i++) {
        const prev = i === 0 ? "" : `import { f${d}_${i - 1} } from "./f${i - 1}";\n`;
        writeFileSync(join(root, `m${d}/f${i}.ts`), `${prev}export function f${d}_${i}() { return ${i} }\n`);
      }
    }
    const { kota, db } = openIndex(root);
    const controller = new AbortController();
    const progress: [number, number][] = [];
    const first = await kota.index({
      signal: controller.signal,
      onProgress: (done, total) => {
        progress.push([done, total]);
        if (done >= 500) controller.abort();
      },
    });
    expect(first.ok === false && first.code).toBe("CANCELLED");
    expect(first.ok === false && first.message).toContain("those are kept");
    expect(progress[0]).toEqual([0, n]);
    const kept = (db.query("SELECT count(*) AS n FROM code_files").get() as { n: number }).n;
    expect(kept).toBeGreaterThanOrEqual(500);
    expect(kept).toBeLessThan(n);
    // A query after the cancel finishes the index before it answers.
    const deps = ok(await kota.deps({ file: "m19/f99.ts", depth: 3 }));
    expect(deps.dependencies.direct).toEqual(["m19/f98.ts"]);
    expect(deps.dependencies.indirect).toEqual({ "2": ["m19/f97.ts"], "3": ["m19/f96.ts"] });
    const status = ok(await kota.status());
    expect(status).toMatchObject({ files: n, symbols: n, stale: 0, indexed: true });
  });
});
