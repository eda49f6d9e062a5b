import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CORPORA_DIR as CORPORA } from "../../bench/kota/corpora.ts";
import type { CodeIndexBackend } from "../../src/kota/contract.ts";
import { cleanupTempDirs, ok, openIndex, tempDir } from "./fixture-repo.ts";

const tarball = existsSync(CORPORA) ? readdirSync(CORPORA).find((f) => f.startsWith("hono-") && f.endsWith(".tar.gz")) : undefined;

let kota: CodeIndexBackend;
let root: string;
let coldMs = 0;

beforeAll(async () => {
  if (!tarball) return;
  const parent = tempDir("kota-hono-");
  const untar = Bun.spawnSync(["tar", "xzf", join(CORPORA, tarball), "-C", parent]);
  if (untar.exitCode !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  root = join(parent, "hono");
  ({ kota } = openIndex(root));
  const started = performance.now();
  ok(await kota.index());
  coldMs = performance.now() - started;
});
afterAll(cleanupTempDirs);

// The corpus lives in shared/ beside the repository; without it there is nothing to test here.
describe.skipIf(!tarball)("kota builtin on hono", () => {
  test("indexes the whole tree", async () => {
    const s = ok(await kota.status());
    expect(s.files).toBeGreaterThanOrEqual(380);
    expect(s.symbols).toBeGreaterThan(2000);
    expect(s.references).toBeGreaterThan(10000);
    expect(s.errors).toBe(0);
    console.log(`hono cold index: ${Math.round(coldMs)} ms for ${s.files} files`);
  });

  test("deps of the hub file hono-base.ts", async () => {
    const d = ok(await kota.deps({ file: "src/hono-base.ts", direction: "both", depth: 2 }));
    expect(d.dependencies.direct).toContain("src/compose.ts");
    expect(d.dependencies.direct).toContain("src/context.ts");
    expect(d.dependents.direct).toContain("src/hono.ts");
    expect(d.dependents.indirect["2"]).toContain("src/index.ts");
    expect(d.unresolved).toEqual([]);
  });

  test("usages of compose and of Context resolve through imports and re-exports", async () => {
    const compose = ok(await kota.usages({ symbol: "compose", file: "src/compose.ts" }));
    expect(compose.usages.filter((u) => u.file === "src/hono-base.ts").map((u) => u.kind)).toEqual(["import", "call", "call"]);
    const context = ok(await kota.usages({ symbol: "Context", file: "src/context.ts" }));
    const files = new Set(context.usages.map((u) => u.file));
    expect(files.has("src/hono-base.ts")).toBe(true);
    expect(files.has("src/index.ts")).toBe(true); // `export type { Context } from './context'`
    expect(files.size).toBeGreaterThan(50);
  });

  test("impact of compose.ts names its test and a medium-or-higher risk", async () => {
    const r = ok(await kota.impact({ modify: ["src/compose.ts"] }));
    expect(r.tests).toContain("src/compose.test.ts");
    expect(["medium", "high"]).toContain(r.risk);
    expect(r.affected.map((a) => a.file)).toContain("src/hono-base.ts");
  });

  test("one changed file is re-indexed before the next answer", async () => {
    const file = join(root, "src/utils/constants.ts");
    writeFileSync(file, "export const COMPOSED_HANDLER = 'X'\nexport const kotaProbe = 1\n");
    const t = new Date(Date.now() + 10_000);
    utimesSync(file, t, t);
    const started = performance.now();
    const r = ok(await kota.search({ query: "kotaProbe", scope: ["symbols"] }));
    const ms = performance.now() - started;
    expect(r.symbols.map((s) => s.file)).toEqual(["src/utils/constants.ts"]);
    console.log(`hono: one changed file noticed and re-indexed inside a query in ${ms.toFixed(1)} ms`);
  });
});
