/**
 * The one contract, run against both backends: the built-in index and the real KotaDB (the
 * vendored snapshot, installed once under .bench/kotadb/). The same requests through the service,
 * the same shapes and answers on a small repository, the same failure codes for the same bad input.
 * KotaDB's part is skipped, saying why, when the snapshot is not there.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import type { KotaBackendName } from "../../src/kota/contract.ts";
import { ask, type KotaOp, type KotaRequest } from "../../src/kota/request.ts";
import { createKotaService, type KotaService } from "../../src/kota/service.ts";
import { cleanupTempDirs, tempDir, writeRepo } from "./fixture-repo.ts";
import { installKotaDb } from "./kotadb-install.ts";

afterAll(cleanupTempDirs);

const install = installKotaDb();
const kotadbSkip = "skip" in install ? install.skip : null;
if (kotadbSkip) console.log(`contract tests for kotadb skipped: ${kotadbSkip}`);

const REPO = {
  "src/a.ts": 'import { b } from "./b";\nexport function a() {\n  return b() + 1;\n}\n',
  "src/b.ts": "export function b() {\n  return 1;\n}\n",
  "src/c.ts": 'import { a } from "./a";\nexport const c = a();\n',
  "src/a.test.ts": 'import { a } from "./a";\nconsole.log(a());\n',
};

function configFor(backend: KotaBackendName) {
  const base = defaultConfig({ HOME: tempDir() }).kota;
  if (backend === "builtin") return { kota: { ...base, backend } };
  const cli = "cli" in install ? install.cli : "";
  return { kota: { ...base, backend, command: process.execPath, args: [cli, "--stdio", "--toolset", "core"] } };
}

const BACKENDS: { name: KotaBackendName; skip: string | null }[] = [
  { name: "builtin", skip: null },
  { name: "kotadb", skip: kotadbSkip },
];

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== null)(`the contract: ${backend.name}`, () => {
    let svc: KotaService;
    let root: string;
    const get = async <O extends KotaOp>(request: KotaRequest<O>) => {
      const r = await ask({ kota: (req, o) => svc.handle(req, o) }, request);
      if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
      expect(r.backend).toBe(backend.name);
      expect(r.repository).toBe(root);
      return r.result;
    };

    beforeAll(() => {
      root = writeRepo(REPO);
      svc = createKotaService({ dbPath: join(tempDir("kota-contract-"), "sidecar.db"), config: configFor(backend.name), freshnessMs: 0 });
    });
    afterAll(() => svc.close());

    test("before the first index: REPO_NOT_INDEXED, and status says not indexed", async () => {
      const r = await svc.handle({ op: "deps", repo: root, file: "src/a.ts" });
      expect(r.ok ? "" : r.code).toBe("REPO_NOT_INDEXED");
      expect((await get({ op: "status", repo: root })).indexed).toBe(false);
    }, 60_000);

    test("index: every file, then status agrees", async () => {
      const idx = await get({ op: "index", repo: root });
      expect(idx).toMatchObject({ repository: root, files: 4 });
      expect(idx.symbols).toBe(3);
      expect(await get({ op: "status", repo: root })).toMatchObject({ backend: backend.name, repository: root, indexed: true, files: 4 });
    }, 120_000);

    test("deps: dependencies and dependents by distance, only the direction asked for", async () => {
      expect(await get({ op: "deps", repo: root, file: "src/a.ts", direction: "both", depth: 2 })).toEqual({
        file: "src/a.ts",
        direction: "both",
        dependencies: { direct: ["src/b.ts"], indirect: {} },
        dependents: { direct: ["src/a.test.ts", "src/c.ts"], indirect: {} },
        unresolved: [],
      });
      const up = await get({ op: "deps", repo: root, file: "src/b.ts", direction: "dependents", depth: 2 });
      expect(up.dependents).toEqual({ direct: ["src/a.ts"], indirect: { "2": ["src/a.test.ts", "src/c.ts"] } });
      expect(up.dependencies).toEqual({ direct: [], indirect: {} });
    }, 60_000);

    test("usages: every use with its place and kind; the definition named", async () => {
      const u = await get({ op: "usages", repo: root, symbol: "b", file: "src/b.ts" });
      expect(u.definedIn).toEqual([{ file: "src/b.ts", line: 1 }]);
      expect(u.usages.map((x) => `${x.file}:${x.line}:${x.column}`)).toEqual(["src/a.ts:1:10", "src/a.ts:3:10"]);
      expect(u.usages.every((x) => x.context.length > 0)).toBe(true);
    }, 60_000);

    test("search: matching lines in code and the symbol's definition", async () => {
      const s = await get({ op: "search", repo: root, query: "return", output: "compact" });
      expect([...new Set(s.code.map((c) => c.path))].sort()).toEqual(["src/a.ts", "src/b.ts"]);
      const sym = await get({ op: "search", repo: root, query: "b", output: "paths", scope: ["symbols"] });
      expect(sym.symbols.some((x) => x.name === "b" && x.file === "src/b.ts" && x.kind === "function")).toBe(true);
    }, 60_000);

    test("impact and task context: what a change reaches and the tests to run", async () => {
      const i = await get({ op: "impact", repo: root, modify: ["src/b.ts"] });
      expect(i.affected.map((x) => x.file).sort()).toEqual(["src/a.test.ts", "src/a.ts", "src/b.ts", "src/c.ts"]);
      expect(i.tests).toEqual(["src/a.test.ts"]);
      const t = await get({ op: "taskContext", repo: root, files: ["src/a.ts"] });
      const f = t.files[0]!;
      expect([f.file, f.dependencies, f.dependents, f.tests]).toEqual([
        "src/a.ts",
        ["src/b.ts"],
        ["src/a.test.ts", "src/c.ts"],
        ["src/a.test.ts"],
      ]);
    }, 60_000);

    test("the same failure for the same bad input", async () => {
      const cases: [KotaRequest, string][] = [
        [{ op: "deps", repo: root, file: "/etc/hostname" }, "FILE_OUTSIDE_REPO"],
        [{ op: "deps", repo: root, file: "src/missing.ts" }, "NOT_INDEXED"],
        [{ op: "deps", repo: root, file: "src/a.ts", depth: 4 }, "BAD_INPUT"],
        [{ op: "usages", repo: root, symbol: "noSuchThing" }, "NO_SUCH_SYMBOL"],
        [{ op: "search", repo: root, query: "  " }, "BAD_INPUT"],
        [{ op: "impact", repo: root }, "BAD_INPUT"],
      ];
      for (const [request, code] of cases) {
        const r = await svc.handle(request);
        expect({ request, code: r.ok ? "ok" : r.code }).toEqual({ request, code });
      }
    }, 60_000);
  });
}
