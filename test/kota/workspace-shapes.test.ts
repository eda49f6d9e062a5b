/**
 * Workspace shapes that unseen monorepos have, each on a small git work tree of our own making:
 * a manifest that points into a nested build folder the checkout never built, `export * as X`,
 * names taken from a dynamic import, and answers that say when an unresolved workspace import may
 * hide results.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { renderDeps } from "../../src/kota/render-deps.ts";
import { renderImpact } from "../../src/kota/render-impact.ts";
import { renderUsages } from "../../src/kota/render-usages.ts";
import { cleanupTempDirs, indexedRepo, ok } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const json = (v: unknown) => JSON.stringify(v, null, 2);

const indexed = async (files: Record<string, string>) => (await indexedRepo(files)).kota;

const sites = (u: { usages: { file: string; line: number }[] }) => [...new Set(u.usages.map((x) => `${x.file}:${x.line}`))];

describe("kota builtin: a manifest that points into a nested build folder", () => {
  // Conditions per subpath, every target one or two folders below the build root; sources at the package root.
  const router = {
    "package.json": json({ private: true, workspaces: ["packages/*"] }),
    "packages/router/package.json": json({
      name: "@x/router",
      types: "./dist/production/index.d.ts",
      main: "./dist/production/index.js",
      exports: {
        ".": {
          node: { types: "./dist/production/index.d.ts", default: "./dist/production/index.js" },
          import: { types: "./dist/development/index.d.mts", default: "./dist/development/index.mjs" },
          default: { types: "./dist/production/index.d.ts", default: "./dist/production/index.js" },
        },
        "./dom": {
          import: { types: "./dist/production/dom-export.d.mts", default: "./dist/development/dom-export.mjs" },
          default: "./dist/production/dom-export.js",
        },
        "./cli": "./dist/esm/cli/index.js",
      },
    }),
    "packages/router/tsconfig.json": json({ compilerOptions: { outDir: "./dist" }, include: ["**/*.ts"] }),
    "packages/router/index.ts": 'export { ServerMode as UNSAFE_ServerMode } from "./lib/mode";\nexport { route } from "./lib/route";\n',
    "packages/router/dom-export.ts": 'export { route as domRoute } from "./lib/route";\n',
    "packages/router/lib/mode.ts": "export enum ServerMode {\n  Development = 0,\n}\n",
    "packages/router/lib/route.ts": "export function route() {\n  return 1;\n}\n",
    // A subpath whose output names only a folder and `index`: not the package's main index.ts.
    "packages/app/package.json": json({ name: "app", dependencies: { "@x/router": "workspace:*" } }),
    "packages/app/main.ts":
      'import { UNSAFE_ServerMode, route } from "@x/router";\nimport { domRoute } from "@x/router/dom";\nimport "@x/router/cli";\n' +
      "export const m = UNSAFE_ServerMode.Development + route() + domRoute();\n",
  };

  test("every import of the package resolves to its sources, the renamed re-export included", async () => {
    const kota = await indexed(router);
    const deps = ok(await kota.deps({ file: "packages/app/main.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual(["packages/router/dom-export.ts", "packages/router/index.ts"]);
    // `@x/router/cli` has no source of its own: left unresolved, never mapped to index.ts.
    expect(deps.unresolvedWorkspace).toEqual(["@x/router/cli"]);
    expect(sites(ok(await kota.usages({ symbol: "ServerMode", file: "packages/router/lib/mode.ts" })))).toEqual([
      "packages/app/main.ts:1",
      "packages/app/main.ts:4",
      "packages/router/index.ts:1",
    ]);
    expect(sites(ok(await kota.usages({ symbol: "route", file: "packages/router/lib/route.ts" })))).toEqual([
      "packages/app/main.ts:1",
      "packages/app/main.ts:2",
      "packages/app/main.ts:4",
      "packages/router/dom-export.ts:1",
      "packages/router/index.ts:2",
    ]);
  });

  test("the package's tsconfig outDir -> rootDir comes first, variants one folder deeper", async () => {
    const kota = await indexed({
      "packages/core/package.json": json({
        name: "core",
        exports: { ".": { types: "./build/types/esm/index.d.ts" }, "./utils": { types: "./build/types/esm/utils.d.ts" } },
      }),
      "packages/core/tsconfig.json": json({ compilerOptions: { outDir: "build/types", rootDir: "lib" } }),
      "packages/core/lib/index.ts": "export const core = 1;\n",
      "packages/core/lib/utils.ts": "export const util = 1;\n",
      // A file of the same name at the package root is not the source: the config says where sources are.
      "packages/core/utils.ts": "export const script = 1;\n",
      "use.ts": 'import { core } from "core";\nimport { util } from "core/utils";\nexport const u = core + util;\n',
    });
    const deps = ok(await kota.deps({ file: "use.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual(["packages/core/lib/index.ts", "packages/core/lib/utils.ts"]);
  });
});

describe("kota builtin: build output is never mapped to a file that is not its source", () => {
  test("a .js shim at the package root that loads the build is not the source, with or without a tsconfig outDir", async () => {
    const shim = 'module.exports = require("./dist/cjs/index.js");\n';
    const kota = await indexed({
      // Through `exports`, where TypeScript does not fall back to the folder's index file.
      "packages/plain/package.json": json({ name: "plain", exports: { ".": { default: "./dist/cjs/index.js" } } }),
      "packages/plain/index.js": shim,
      "packages/built/package.json": json({
        name: "built",
        exports: { ".": { types: "./dist/cjs/index.d.ts", default: "./dist/cjs/index.js" } },
      }),
      "packages/built/tsconfig.json": json({ compilerOptions: { outDir: "dist" } }),
      "packages/built/index.js": shim,
      "use.ts": 'import "plain";\nimport "built";\n',
    });
    const deps = ok(await kota.deps({ file: "use.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual([]);
    expect(deps.unresolvedWorkspace).toEqual(["built", "plain"]);
  });
});

describe("kota builtin: answers say when unresolved workspace imports may hide results", () => {
  const repo = {
    "packages/ghost/package.json": json({ name: "@x/ghost", exports: { ".": { types: "./dist/esm/nothing-like-a-source.d.ts" } } }),
    "packages/ghost/lib/impl.ts": 'import { helper } from "../../../shared/helper";\nexport const g = helper();\n',
    "packages/app/src/only-workspace.test.ts": 'import { g } from "@x/ghost";\nimport "left-pad";\nexport const t = g;\n',
    "packages/app/src/mixed.ts": 'import { g } from "@x/ghost";\nimport { gone } from "./gone";\nexport const m = g + gone;\n',
    "shared/helper.ts": "export function helper() {\n  return 1;\n}\n",
    "shared/lost.ts": 'import { gone } from "./gone";\nexport const l = gone;\n',
  };

  test("deps: workspace specifiers apart from relative ones, said first, never 'none'", async () => {
    const kota = await indexed(repo);
    const deps = ok(await kota.deps({ file: "packages/app/src/only-workspace.test.ts" }));
    expect(deps.unresolved).toEqual([]);
    expect(deps.unresolvedWorkspace).toEqual(["@x/ghost"]);
    const text = renderDeps(deps, 0).text.split("\n");
    expect(text[1]).toStartWith("1 import(s) name packages of this repository that could not be resolved");
    expect(text[1]).toContain("@x/ghost");
    expect(text.join("\n")).not.toContain("imports (dependencies): none\n");
    expect(text.join("\n")).not.toContain("no imports either way");
    const mixed = ok(await kota.deps({ file: "packages/app/src/mixed.ts" }));
    expect([mixed.unresolved, mixed.unresolvedWorkspace]).toEqual([["./gone"], ["@x/ghost"]]);
    // Relative imports that did not resolve make "none" untrue as well.
    const lost = renderDeps(ok(await kota.deps({ file: "shared/lost.ts", direction: "dependencies" })), 0).text.split("\n");
    expect(lost).toEqual(["deps of shared/lost.ts", "imports (dependencies): none resolved", "unresolved imports: ./gone"]);
  });

  test("deps of a file in a package others import unresolved: its dependents may be more, said first", async () => {
    const kota = await indexed(repo);
    const deps = ok(await kota.deps({ file: "packages/ghost/lib/impl.ts" }));
    expect(deps.unresolvedImporters).toEqual({ package: "@x/ghost", files: 2 });
    const text = renderDeps(deps, 0).text.split("\n");
    expect(text[1]).toStartWith("2 file(s) import this file's package @x/ghost by specifiers that could not be resolved");
    expect(text).toContain("imported by (dependents): none resolved");
    // A file of no such package, and a question about dependencies only, say nothing of it.
    expect(ok(await kota.deps({ file: "shared/helper.ts" })).unresolvedImporters).toBeUndefined();
    expect(ok(await kota.deps({ file: "packages/ghost/lib/impl.ts", direction: "dependencies" })).unresolvedImporters).toBeUndefined();
  });

  test("usages and impact carry a brief caveat while such imports exist", async () => {
    const kota = await indexed(repo);
    const u = ok(await kota.usages({ symbol: "helper", file: "shared/helper.ts" }));
    expect(u.incomplete).toContain("2 file(s) import packages of this repository that did not resolve (@x/ghost)");
    expect(renderUsages(u, 0).text.split("\n")[1]).toStartWith("may be incomplete: 2 file(s)");
    const impact = ok(await kota.impact({ modify: ["shared/helper.ts"] }));
    expect(renderImpact(impact, 0).text).toContain("warning: 2 file(s) import packages of this repository that did not resolve");
  });

  test("a gap hides nothing of a file that no package it names depends on: no caveat there, one to act on where it does", async () => {
    const kota = await indexed({
      ...repo,
      "packages/other/package.json": json({ name: "@x/other" }),
      "packages/other/own.ts": "export const own = 1;\n",
      "packages/other/use.ts": 'import { own } from "./own";\nexport const u = own;\n',
    });
    expect(ok(await kota.usages({ symbol: "own", file: "packages/other/own.ts" })).incomplete).toBeUndefined();
    expect(ok(await kota.impact({ modify: ["packages/other/own.ts"] })).warnings).toEqual([]);
    const u = ok(await kota.usages({ symbol: "helper", file: "shared/helper.ts" }));
    expect(u.incomplete).toContain("(kota deps packages/app/src/mixed.ts lists its unresolved imports)");
  });

  test("without unresolved workspace imports there is no caveat", async () => {
    const kota = await indexed({ "a.ts": "export const a = 1;\n", "b.ts": 'import { a } from "./a";\nexport const b = a;\n' });
    expect(ok(await kota.usages({ symbol: "a", file: "a.ts" })).incomplete).toBeUndefined();
    expect(ok(await kota.impact({ modify: ["a.ts"] })).warnings).toEqual([]);
  });
});

describe("kota builtin: a namespace re-export is a name of the file that re-exports it", () => {
  test("usages of X --file <the file with `export * as X`>: the files importing X from it, through further re-exports", async () => {
    const kota = await indexed({
      "packages/lib/package.json": json({ name: "@x/lib", exports: { ".": { types: "./dist/index.d.ts" } } }),
      "packages/lib/src/text.ts": "export function slug() {\n  return '';\n}\n",
      "packages/lib/src/index.ts": 'export * as text from "./text";\nexport const version = 1;\n',
      "packages/umbrella/index.ts": 'export { text } from "../lib/src/index";\n',
      "apps/a.ts": 'import { text } from "@x/lib";\nexport const s = text.slug();\n',
      "apps/b.ts": 'import * as lib from "@x/lib";\nexport const s = lib.text.slug();\n',
      "apps/c.ts": 'import { text as t } from "../packages/umbrella/index";\nexport const s = t.slug();\n',
      // Another `text` elsewhere is not this one.
      "apps/other.ts": "export const text = 'plain';\n",
    });
    const u = ok(await kota.usages({ symbol: "text", file: "packages/lib/src/index.ts" }));
    expect(u.definedIn).toEqual([{ file: "packages/lib/src/index.ts", line: 1 }]);
    expect(sites(u)).toEqual(["apps/a.ts:1", "apps/a.ts:2", "apps/b.ts:2", "apps/c.ts:1", "apps/c.ts:2", "packages/umbrella/index.ts:1"]);
    // The namespace's members still lead back to their own file.
    expect(sites(ok(await kota.usages({ symbol: "slug", file: "packages/lib/src/text.ts" })))).toEqual([
      "apps/a.ts:2",
      "apps/b.ts:2",
      "apps/c.ts:2",
    ]);
  });
});

describe("kota builtin: names taken from a dynamic import", () => {
  test("destructured from `await import()`, `(await import()) as typeof M`, `({ x } = await import())`, `import().then(({ x }) => ...)`", async () => {
    const kota = await indexed({
      "src/app.ts": "export function start() {\n  return 1;\n}\nexport function stop() {\n  return 0;\n}\nexport const name = 'app';\n",
      "src/a.ts": "export async function run() {\n  const { start } = await import('./app');\n  return start();\n}\n",
      "src/b.ts":
        "import type * as App from './app';\nexport async function run() {\n  const { stop } = (await import('./app')) as typeof App;\n  return stop();\n}\n",
      "src/c.ts": "export function run() {\n  return import('./app').then(({ name, start: go }) => name + go());\n}\n",
      "src/d.ts": "export function run() {\n  return import('./app').then((m) => m.stop());\n}\n",
      "src/e.ts":
        "let start: () => number;\nexport async function setup() {\n  ({ start } = await import('./app'));\n  return start();\n}\n",
    });
    expect(sites(ok(await kota.usages({ symbol: "start", file: "src/app.ts" })))).toEqual(["src/a.ts:2", "src/c.ts:2", "src/e.ts:3"]);
    expect(sites(ok(await kota.usages({ symbol: "stop", file: "src/app.ts" })))).toEqual(["src/b.ts:3", "src/d.ts:2"]);
    expect(sites(ok(await kota.usages({ symbol: "name", file: "src/app.ts" })))).toEqual(["src/c.ts:2"]);
    const deps = ok(await kota.deps({ file: "src/app.ts", direction: "dependents" }));
    expect(deps.dependents.direct).toEqual(["src/a.ts", "src/b.ts", "src/c.ts", "src/d.ts", "src/e.ts"]);
  });
});

describe("kota builtin: a name a file exports under a new name", () => {
  test("usages UNSAFE_X --file <the file with export { X as UNSAFE_X } from>: its importers; a name passed on unchanged points at its file", async () => {
    const kota = await indexed({
      "index.ts": 'export { ServerMode as UNSAFE_ServerMode } from "./lib/mode";\nexport { route } from "./lib/route";\n',
      "lib/mode.ts": "export enum ServerMode {\n  Development = 0,\n}\nexport const other = ServerMode.Development;\n",
      "lib/route.ts": "export function route() {\n  return 1;\n}\n",
      "app/main.ts": 'import { UNSAFE_ServerMode, route } from "../index";\nexport const m = UNSAFE_ServerMode.Development + route();\n',
    });
    const u = ok(await kota.usages({ symbol: "UNSAFE_ServerMode", file: "index.ts" }));
    expect(u.usages.map((x) => `${x.file}:${x.line}:${x.column}`)).toEqual(["app/main.ts:1:10", "app/main.ts:2:18"]);
    const r = await kota.usages({ symbol: "route", file: "index.ts" });
    expect(r.ok ? "" : r.message).toContain("route is defined in lib/route.ts");
  });
});
