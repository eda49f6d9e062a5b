import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import { findRepoRoot } from "../../src/kota/repo-root.ts";
import { createKotaService, type KotaService } from "../../src/kota/service.ts";
import { cleanupTempDirs, ok, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

function service(over: Partial<ReturnType<typeof defaultConfig>["kota"]> = {}): { svc: KotaService; dbPath: string } {
  const dbPath = join(tempDir("kota-svc-"), "sidecar.db");
  const base = defaultConfig({ HOME: tempDir() });
  return { svc: createKotaService({ dbPath, config: { kota: { ...base.kota, ...over } }, freshnessMs: 0 }), dbPath };
}

const REPO = {
  "package.json": '{"name":"demo"}\n',
  "src/a.ts": 'import { b } from "./b";\nexport function a() { return b() + 1 }\n',
  "src/b.ts": "export function b() { return 1 }\n",
  "src/c.ts": 'import { a } from "./a";\nexport const c = a();\n',
  "src/broken.ts": 'import { b } from "./b";\nexport function broken( {\n',
  "src/a.test.ts": 'import { a } from "./a";\nconsole.log(a());\n',
};

describe("kota service", () => {
  test("the repository root is found from any path inside it, by .git, workspace, package.json or an indexed root", () => {
    const mono = writeRepo({
      "package.json": '{"workspaces":["packages/*"]}\n',
      "packages/x/package.json": '{"name":"x"}\n',
      "packages/x/src/i.ts": "export const i = 1\n",
    });
    expect(ok(findRepoRoot(join(mono, "packages/x/src/i.ts"))).root).toBe(mono);
    const git = writeRepo({ "sub/package.json": "{}\n", "sub/src/a.ts": "export {}\n" });
    mkdirSync(join(git, ".git"));
    expect(ok(findRepoRoot(join(git, "sub/src"))).root).toBe(git);
    const plain = writeRepo({ "lib/package.json": "{}\n", "lib/z.ts": "export {}\n" });
    expect(ok(findRepoRoot(join(plain, "lib/z.ts"))).root).toBe(join(plain, "lib"));
    // An indexed root wins over markers further up.
    expect(ok(findRepoRoot(join(mono, "packages/x/src"), [join(mono, "packages/x")])).root).toBe(join(mono, "packages/x"));
    const missing = findRepoRoot(join(plain, "nope/deeper"));
    expect(missing.ok ? "" : missing.message).toContain("does not exist");
    const home = tempDir("kota-home-");
    const h = findRepoRoot(home, [], home);
    expect(h.ok ? "" : h.message).toContain("home folder");
  });

  test("every op answers through one entry point, with the backend and root beside the contract's result", async () => {
    const root = writeRepo(REPO);
    const { svc } = service();
    const before = await svc.handle({ op: "deps", repo: root, file: "src/a.ts" });
    expect(before.ok ? "" : before.code).toBe("REPO_NOT_INDEXED");
    const progress: [number, number][] = [];
    const index = ok(await svc.handle({ op: "index", repo: join(root, "src/a.ts") }, { onProgress: (d, t) => progress.push([d, t]) }));
    expect(index).toMatchObject({ op: "index", backend: "builtin", repository: root });
    if (index.op !== "index") throw new Error("wrong op");
    expect(index.result.files).toBe(5);
    expect(index.result.errors?.map((e) => e.file)).toEqual(["src/broken.ts"]);
    expect(progress.at(-1)).toEqual([5, 5]);
    const deps = ok(await svc.handle({ op: "deps", repo: root, file: "src/a.ts", direction: "both", depth: 2 }));
    if (deps.op !== "deps") throw new Error("wrong op");
    expect(deps.result).toEqual({
      file: "src/a.ts",
      direction: "both",
      dependencies: { direct: ["src/b.ts"], indirect: {} },
      dependents: { direct: ["src/a.test.ts", "src/c.ts"], indirect: {} },
      unresolved: [],
    });
    const usages = ok(await svc.handle({ op: "usages", repo: root, symbol: "a", file: join(root, "src/a.ts") }));
    if (usages.op !== "usages") throw new Error("wrong op");
    expect(usages.result.usages.map((u) => `${u.file}:${u.line}:${u.kind}`)).toEqual([
      "src/a.test.ts:1:import",
      "src/a.test.ts:2:call",
      "src/c.ts:1:import",
      "src/c.ts:2:call",
    ]);
    const impact = ok(await svc.handle({ op: "impact", repo: root, modify: ["src/b.ts"] }));
    if (impact.op !== "impact") throw new Error("wrong op");
    expect(impact.result.tests).toEqual(["src/a.test.ts"]);
    const status = ok(await svc.handle({ op: "status", repo: root }));
    if (status.op !== "status") throw new Error("wrong op");
    expect(status.result).toMatchObject({ backend: "builtin", indexed: true, files: 5, errors: 1 });
    await svc.close();
  });

  test("bad input gets a clear answer and loses nothing", async () => {
    const root = writeRepo(REPO);
    const { svc } = service();
    ok(await svc.handle({ op: "index", repo: root }));
    const cases: [Parameters<KotaService["handle"]>[0], string, string][] = [
      [{ op: "deps", repo: root, file: "/etc/hostname" }, "FILE_OUTSIDE_REPO", "outside the repository"],
      [{ op: "deps", repo: root, file: "../elsewhere.ts" }, "FILE_OUTSIDE_REPO", "outside the repository"],
      [{ op: "deps", repo: root, file: "src/nope.ts" }, "NOT_INDEXED", "does not exist"],
      [{ op: "deps", repo: root, file: "package.json" }, "NOT_INDEXED", "not a TypeScript/JavaScript file"],
      [{ op: "deps", repo: root, file: "src/a.ts", depth: 9 }, "BAD_INPUT", "depth must be 1, 2 or 3"],
      [{ op: "usages", repo: root, symbol: "nothingLikeThis" }, "NO_SUCH_SYMBOL", "No symbol named nothingLikeThis"],
      [{ op: "usages", repo: root, symbol: "a", file: "src/b.ts" }, "NO_SUCH_SYMBOL", "src/b.ts defines no symbol a"],
      [{ op: "search", repo: root, query: "  " }, "BAD_INPUT", "Empty query"],
      [{ op: "impact", repo: root }, "BAD_INPUT", "at least one file"],
      [{ op: "taskContext", repo: root, files: [] }, "BAD_INPUT", "at least one file"],
      [{ op: "status", repo: join(root, "missing") }, "BAD_INPUT", "does not exist"],
      [{ op: "explode", repo: root } as never, "BAD_INPUT", "Unknown kota operation"],
      [{ op: "status", repo: root, backend: "elastic" } as never, "BAD_INPUT", "Unknown kota backend"],
    ];
    for (const [req, code, text] of cases) {
      const r = await svc.handle(req);
      expect({ req, code: r.ok ? "ok" : r.code }).toEqual({ req, code });
      expect(r.ok ? "" : r.message).toContain(text);
    }
    // The index is intact after all that.
    const s = ok(await svc.handle({ op: "status", repo: root }));
    expect(s.op === "status" && s.result.files).toBe(5);
    await svc.close();
  });

  test("a query during an explicit index run of that repository is answered at once with the progress", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`src/m${i}.ts`] = `import { x } from "./m${Math.max(0, i - 1)}";\nexport const x = ${i};\n`;
    const root = writeRepo(files);
    const { svc } = service();
    let sawProgress = false;
    const running = svc.handle({ op: "index", repo: root }, { onProgress: (done) => (sawProgress ||= done > 0) });
    await Bun.sleep(1);
    const meanwhile = await svc.handle({ op: "deps", repo: root, file: "src/m1.ts" });
    expect(meanwhile.ok ? "" : meanwhile.code).toBe("INDEXING");
    expect(meanwhile.ok ? "" : meanwhile.message).toContain("is being indexed");
    ok(await running);
    expect(sawProgress).toBe(true);
    expect(ok(await svc.handle({ op: "deps", repo: root, file: "src/m1.ts" })).op).toBe("deps");
    await svc.close();
  });

  test("close cancels a long index run; what it finished is kept and the next run completes it", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1500; i++) files[`src/f${i}.ts`] = `export const v${i} = ${i};\n`;
    const root = writeRepo(files);
    const { svc, dbPath } = service();
    const running = svc.handle({ op: "index", repo: root });
    await Bun.sleep(5);
    await svc.close();
    const r = await running;
    expect(r.ok ? "finished" : r.code).toBe("CANCELLED");
    const again = createKotaService({ dbPath, config: { kota: defaultConfig({ HOME: tempDir() }).kota } });
    const done = ok(await again.handle({ op: "index", repo: root }));
    expect(done.op === "index" && done.result.files).toBe(1500);
    await again.close();
  });

  test("restart drops a backend's state; the index on disk stays", async () => {
    const root = writeRepo(REPO);
    const { svc } = service();
    ok(await svc.handle({ op: "index", repo: root }));
    const r = ok(await svc.handle({ op: "restart", repo: root }));
    expect(r.op === "restart" && r.result.indexed).toBe(true);
    writeFileSync(join(root, "src/d.ts"), 'import { c } from "./c";\nexport const d = c;\n');
    const deps = ok(await svc.handle({ op: "deps", repo: root, file: "src/c.ts", direction: "dependents" }));
    expect(deps.op === "deps" && deps.result.dependents.direct).toEqual(["src/d.ts"]);
    await svc.close();
  });
});
