/**
 * A workspace package whose build entries are named only in its bundler config: the output name
 * (`dist/workers/pool.js`) does not mirror the source path (`src/runtime/pool-impl.ts`). Imports of the
 * package, its subpaths and its root shims resolve to the sources the config names, exactly; outputs
 * the config does not name stay unresolved.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, indexedRepo, ok } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const json = (v: unknown) => JSON.stringify(v, null, 2);

const indexed = indexedRepo;

const lib = {
  "package.json": json({ private: true, workspaces: ["packages/*"] }),
  "packages/lib/package.json": json({
    name: "lib",
    type: "module",
    exports: {
      ".": { import: { types: "./dist/index.d.ts", default: "./dist/index.js" } },
      "./node": { types: "./node.d.ts", default: "./dist/node.js" },
      "./pool": { types: "./dist/workers/pool.d.ts", default: "./dist/workers/pool.js" },
      "./esm-pool": "./dist/esm/workers/pool.mjs",
      "./impl": "./dist/pool-impl.js",
      "./other": "./dist/other.js",
      "./half": "./dist/half.js",
    },
  }),
  "packages/lib/node.d.ts": "export * from './dist/node.js'\n",
  "packages/lib/rollup.config.js":
    "import { defineConfig } from 'rollup'\n" +
    "const entries = {\n  index: 'src/public/index.ts',\n  node: './src/public/node.ts',\n  'workers/pool': 'src/runtime/pool-impl.ts',\n}\n" +
    "const extra = ['src/runtime/pool-impl.ts']\n" +
    // Not every value names an existing source: not an entry map at all.
    "const partial = { half: 'src/parts/halfway.ts', gone: 'src/missing.ts' }\n" +
    "export default defineConfig([{ input: entries, output: { dir: 'dist' } }, { input: extra }, { plugins: [partial] }])\n",
  "packages/lib/src/public/index.ts": "export function greet() {\n  return 1;\n}\n",
  "packages/lib/src/public/node.ts": "export function serve() {\n  return 2;\n}\n",
  "packages/lib/src/runtime/pool-impl.ts": "export function pool() {\n  return 3;\n}\n",
  "packages/lib/src/parts/halfway.ts": "export const half = 1;\n",
  "packages/app/package.json": json({ name: "app", type: "module", dependencies: { lib: "workspace:*" } }),
  "packages/app/main.ts":
    'import { greet } from "lib";\nimport { serve } from "lib/node";\nimport { pool } from "lib/pool";\nimport "lib/esm-pool";\nimport { pool as p2 } from "lib/impl";\nimport "lib/other";\nimport "lib/half";\n' +
    "export const n = greet() + serve() + pool() + p2();\n",
};

describe("kota builtin: build entries named only in a bundler config", () => {
  test("the package, a subpath, a root shim and a variant folder resolve to the sources the config names", async () => {
    const { kota } = await indexed(lib);
    const deps = ok(await kota.deps({ file: "packages/app/main.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual([
      "packages/lib/node.d.ts",
      "packages/lib/src/public/index.ts",
      "packages/lib/src/runtime/pool-impl.ts",
    ]);
    // Not named by the config (`other`), or named only by a literal with a missing file (`half`): never a guess.
    expect(deps.unresolvedWorkspace).toEqual(["lib/half", "lib/other"]);
    const shim = ok(await kota.deps({ file: "packages/lib/node.d.ts", direction: "dependencies" }));
    expect(shim.dependencies.direct).toEqual(["packages/lib/src/public/node.ts"]);
    const serve = ok(await kota.usages({ symbol: "serve", file: "packages/lib/src/public/node.ts" }));
    expect([...new Set(serve.usages.map((u) => `${u.file}:${u.line}`))]).toEqual(["packages/app/main.ts:2", "packages/app/main.ts:8"]);
    // `lib/pool` through the entry map, `lib/impl` through the entry list (named by the file's base name).
    const pool = ok(await kota.usages({ symbol: "pool", file: "packages/lib/src/runtime/pool-impl.ts" }));
    expect([...new Set(pool.usages.map((u) => `${u.file}:${u.line}`))]).toEqual([
      "packages/app/main.ts:3",
      "packages/app/main.ts:5",
      "packages/app/main.ts:8",
    ]);
  });

  test("a changed config changes the answers: an entry taken out leaves its output unresolved", async () => {
    const { kota, root } = await indexed(lib);
    const config = join(root, "packages/lib/rollup.config.js");
    writeFileSync(config, "export default { input: { index: 'src/public/index.ts' } }\n");
    const t = new Date(Date.now() + 5000);
    utimesSync(config, t, t);
    ok(await kota.index());
    const deps = ok(await kota.deps({ file: "packages/app/main.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual(["packages/lib/node.d.ts", "packages/lib/src/public/index.ts"]);
    expect(deps.unresolvedWorkspace).toEqual(["lib/esm-pool", "lib/half", "lib/impl", "lib/other", "lib/pool"]);
  });
});
