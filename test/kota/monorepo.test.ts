/**
 * Monorepo shapes, each as TypeScript reads it: workspace packages reached through their manifests
 * (conditions, customConditions, build output that was never built), usages through re-exported
 * namespaces and renames, and answers that say when they may be incomplete.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { renderDeps } from "../../src/kota/render-deps.ts";
import { renderImpact } from "../../src/kota/render-impact.ts";
import { renderUsages } from "../../src/kota/render-usages.ts";
import { cleanupTempDirs, ok, openIndex, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const json = (v: unknown) => JSON.stringify(v);

async function indexed(files: Record<string, string>) {
  const t = openIndex(writeRepo(files));
  ok(await t.kota.index());
  return t.kota;
}

describe("kota builtin: workspace packages resolve to their sources", () => {
  test("export conditions as the config's moduleResolution reads them, customConditions included", async () => {
    const kota = await indexed({
      "package.json": json({ name: "root", private: true, workspaces: ["packages/*"] }),
      // bundler: `types` and `import` apply, `node` does not (its target exists, but TypeScript never looks there).
      "packages/lib/package.json": json({
        name: "@m/lib",
        exports: {
          ".": { node: "./node.js", types: "./dist/index.d.ts", import: "./dist/index.mjs" },
          "./extra": { "@m/source": "./src/extra.ts", types: "./dist/extra.d.ts" },
        },
      }),
      "packages/lib/node.js": "module.exports = {};\n",
      "packages/lib/src/index.ts": "export const lib = 1;\n",
      "packages/lib/src/extra.ts": "export const extra = 1;\n",
      "packages/app/tsconfig.json": json({ compilerOptions: { moduleResolution: "bundler", customConditions: ["@m/source"] } }),
      "packages/app/src/main.ts": 'import { lib } from "@m/lib";\nimport { extra } from "@m/lib/extra";\nexport const x = lib + extra;\n',
    });
    const deps = ok(await kota.deps({ file: "packages/app/src/main.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual(["packages/lib/src/extra.ts", "packages/lib/src/index.ts"]);
  });

  test("build output at the package root, in a nested build folder, or named by preconstruct stands for its source", async () => {
    const kota = await indexed({
      "packages/a/package.json": json({ name: "a", types: "./index.d.ts", main: "./index.js" }),
      "packages/a/src/index.ts": "export const a = 1;\n",
      "packages/b/package.json": json({
        name: "b",
        exports: { ".": { types: "./build/modern/index.d.ts" }, "./mini": "./build/modern/mini/index.js" },
      }),
      "packages/b/src/index.ts": "export const b = 1;\n",
      "packages/b/src/mini/index.ts": "export const mini = 1;\n",
      "packages/c/package.json": json({
        name: "@scope/c",
        preconstruct: { entrypoints: ["index.ts", "dev/index.ts"] },
        exports: { ".": { types: { import: "./dist/scope-c.cjs.mjs" } }, "./dev": { types: { import: "./dist/scope-c-dev.cjs.mjs" } } },
      }),
      "packages/c/src/index.ts": "export const c = 1;\n",
      "packages/c/src/dev/index.ts": "export const dev = 1;\n",
      "packages/d/package.json": json({ name: "d", exports: { ".": { types: "./out/index.d.ts" } } }),
      "packages/d/tsconfig.json": json({ compilerOptions: { outDir: "out", rootDir: "lib" } }),
      "packages/d/lib/index.ts": "export const d = 1;\n",
      "app.ts": 'import "a";\nimport "b";\nimport "b/mini";\nimport "@scope/c";\nimport "@scope/c/dev";\nimport "d";\n',
    });
    const deps = ok(await kota.deps({ file: "app.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual([
      "packages/a/src/index.ts",
      "packages/b/src/index.ts",
      "packages/b/src/mini/index.ts",
      "packages/c/src/dev/index.ts",
      "packages/c/src/index.ts",
      "packages/d/lib/index.ts",
    ]);
  });

  test("`export * from '<workspace package>'` carries usages through", async () => {
    const kota = await indexed({
      "packages/core/package.json": json({ name: "core", exports: { ".": { types: "./dist/index.d.ts" } } }),
      "packages/core/src/index.ts": 'export * from "./thing";\n',
      "packages/core/src/thing.ts": "export function thing() {\n  return 1;\n}\n",
      "packages/umbrella/package.json": json({ name: "umbrella", exports: { ".": { types: "./dist/index.d.ts" } } }),
      "packages/umbrella/src/index.ts": 'export * from "core";\n',
      "apps/web/main.ts": 'import { thing } from "umbrella";\nthing();\n',
    });
    const u = ok(await kota.usages({ symbol: "thing", file: "packages/core/src/thing.ts" }));
    expect(u.usages.map((x) => `${x.file}:${x.line}:${x.kind}`)).toEqual(["apps/web/main.ts:1:import", "apps/web/main.ts:2:call"]);
  });
});

describe("kota builtin: usages through re-exported namespaces and renames", () => {
  test("import * as z then export { z }; a named import of export * as util; export { _function as function }; z.core.X", async () => {
    const kota = await indexed({
      "lib/types.ts":
        "export function object() {\n  return {};\n}\nexport function _function() {\n  return 1;\n}\nexport { _function as function };\n",
      "lib/core/errors.ts": "export class ZodError {}\n",
      "lib/core/index.ts": 'export * from "./errors";\n',
      "lib/external.ts": 'export * from "./types";\nexport * as core from "./core/index";\n',
      "lib/helpers/util.ts": "export function joinValues() {\n  return '';\n}\n",
      "lib/helpers/index.ts": 'export * as util from "./util";\n',
      "lib/index.ts": 'import * as z from "./external";\nexport { z };\nexport { util } from "./helpers/index";\n',
      "use/a.ts": 'import { z } from "../lib/index";\nz.object();\nz.function();\nconst e: z.core.ZodError = new z.core.ZodError();\n',
      "use/b.ts": 'import { util } from "../lib/index";\nutil.joinValues();\n',
    });
    // By line, as TypeScript's references are compared (`export { a as b }` names `a` twice on one line).
    const sites = async (symbol: string, file: string) => [
      ...new Set(ok(await kota.usages({ symbol, file })).usages.map((x) => `${x.file}:${x.line}`)),
    ];
    expect(await sites("object", "lib/types.ts")).toEqual(["use/a.ts:2"]);
    expect(await sites("_function", "lib/types.ts")).toEqual(["lib/types.ts:7", "use/a.ts:3"]);
    expect(await sites("ZodError", "lib/core/errors.ts")).toEqual(["use/a.ts:4"]);
    expect(await sites("joinValues", "lib/helpers/util.ts")).toEqual(["use/b.ts:2"]);
    const zod = ok(await kota.usages({ symbol: "ZodError", file: "lib/core/errors.ts" }));
    // The type position and the constructor on line 4, each once.
    expect(zod.usages.map((x) => `${x.line}:${x.column}`)).toEqual(["4:17", "4:39"]);
  });
});

describe("kota builtin: answers that say when they may be incomplete", () => {
  test("a workspace package that does not resolve is flagged, never 'no imports'; a direction not asked for is not 'none'", async () => {
    const kota = await indexed({
      "packages/ghost/package.json": json({ name: "ghost", exports: { ".": { types: "./dist/nothing-like-src.d.ts" } } }),
      "packages/app/src/test.ts": 'import { g } from "ghost";\nexport const t = g;\n',
    });
    const deps = ok(await kota.deps({ file: "packages/app/src/test.ts" }));
    expect(deps.unresolvedWorkspace).toEqual(["ghost"]);
    const text = renderDeps(deps, 0).text;
    expect(text).toContain("1 import(s) name packages of this repository that could not be resolved");
    expect(text).not.toContain("no imports either way");
    const only = ok(await kota.deps({ file: "packages/app/src/test.ts", direction: "dependents" }));
    expect(renderDeps(only, 0).text).not.toContain("imports (dependencies)");
  });

  test("impact lists test files by the project's test patterns, not helpers; 'N listed' is what is listed", async () => {
    const kota = await indexed({
      "jest.config.js": 'module.exports = { testMatch: ["**/?(*.)+(check).[jt]s?(x)"] };\n',
      "src/a.ts": "export const a = 1;\n",
      "test/helpers.ts": 'import { a } from "../src/a";\nexport const h = a;\n',
      "test/a.check.ts": 'import { h } from "./helpers";\nh;\n',
      "src/a.test.ts": 'import { a } from "./a";\na;\n',
      ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`src/u${i}.ts`, `import { a } from "./a";\nexport const u${i} = a;\n`])),
    });
    const impact = ok(await kota.impact({ modify: ["src/a.ts"] }));
    // The project says tests are *.check.*: a.test.ts is not one here, and the helper never is.
    expect(impact.tests).toEqual(["test/a.check.ts"]);
    const text = renderImpact(impact, 2).text;
    expect(text).toContain(`affected files (${impact.counts.affected}, 15 listed)`);
    expect(text.split("\n").filter((l) => /^ {2}src\/u\d+\.ts:/.test(l)).length).toBeLessThanOrEqual(15);
  });

  test("without test patterns in the project, helpers in test/ are not tests; *.test.* and __tests__/ are", async () => {
    const kota = await indexed({
      "src/a.ts": "export const a = 1;\n",
      "test/helpers.ts": 'import { a } from "../src/a";\nexport const h = a;\n',
      "test/a.test.ts": 'import { h } from "./helpers";\nh;\n',
      "src/__tests__/a.ts": 'import { a } from "../a";\na;\n',
    });
    const impact = ok(await kota.impact({ modify: ["src/a.ts"] }));
    expect(impact.tests.sort()).toEqual(["src/__tests__/a.ts", "test/a.test.ts"]);
  });

  test("a file with many near-identical uses is counted by the shape of its lines", async () => {
    const calls = Array.from({ length: 60 }, (_, i) => `make(${i});`).join("\n");
    const kota = await indexed({
      "src/make.ts": "export function make(n: number) {\n  return n;\n}\n",
      "src/many.ts": `import { make } from "./make";\n${calls}\n`,
    });
    const u = ok(await kota.usages({ symbol: "make", file: "src/make.ts" }));
    const text = renderUsages(u, 0).text;
    expect(text).toContain("src/many.ts (61 uses)");
    expect(text).toContain("60x call  make(0);  (lines 2, 3, 4");
    expect(text.split("\n").length).toBeLessThan(10);
  });
});
