/**
 * Import forms TypeScript resolves that are easy to miss: a relative import of a package's own folder
 * (`from '..'`) read through its package.json, imports inside `declare module "x" {}` blocks of a
 * global `.d.ts`, a member read off a `require()` call, and extensionless specifiers, which never
 * reach an `.mjs`/`.cjs`/`.mts`/`.cts` file. Each on a small git work tree of our own making.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { renderDeps } from "../../src/kota/render-deps.ts";
import { cleanupTempDirs, indexedRepo, ok } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const json = (v: unknown) => JSON.stringify(v, null, 2);
const indexed = async (files: Record<string, string>) => (await indexedRepo(files)).kota;
const files = (u: { usages: { file: string }[] }) => [...new Set(u.usages.map((x) => x.file))].sort();

describe("kota builtin: a relative import of a package's folder", () => {
  const repo = {
    "package.json": json({ private: true, workspaces: ["parts/*"] }),
    // The manifest points at build output this checkout has not built: the import means the source.
    "parts/gear/package.json": json({ name: "gear", main: "out/index.js", types: "out/index.d.ts" }),
    "parts/gear/src/index.ts": "export function turn(): number {\n  return 1;\n}\n",
    "parts/gear/spec/turn.spec.js": "import { turn } from '..';\nturn();\n",
    // The manifest's entry exists: read as it is (`./wheel` is a folder with a package.json).
    "parts/gear/wheel/package.json": json({ name: "wheel-inner", types: "lib/main.d.ts" }),
    "parts/gear/wheel/lib/main.d.ts": "export declare const spokes: number;\n",
    "parts/gear/uses-wheel.ts": "import { spokes } from './wheel';\nexport const s = spokes;\n",
    // A member whose manifest names no entry and no index: unresolved, and said to be a package's.
    "parts/bolt/package.json": json({ name: "bolt", exports: { ".": "./out/index.js" } }),
    "parts/bolt/src/index.ts": "export const thread = 2;\n",
    "parts/bolt/src/size.ts": "export const size = 3;\n",
    "parts/bolt/spec/thread.spec.ts":
      "import { thread } from '..';\nimport { size } from '../src/size';\nexport const t = [thread, size];\n",
  };

  test("resolves through the folder's package.json, build output mapped to its source; usages follow", async () => {
    const kota = await indexed(repo);
    const spec = ok(await kota.deps({ file: "parts/gear/spec/turn.spec.js", direction: "dependencies" }));
    expect(spec.dependencies.direct).toEqual(["parts/gear/src/index.ts"]);
    expect(spec.unresolved).toEqual([]);
    expect(files(ok(await kota.usages({ symbol: "turn", file: "parts/gear/src/index.ts" })))).toEqual(["parts/gear/spec/turn.spec.js"]);
    const wheel = ok(await kota.deps({ file: "parts/gear/uses-wheel.ts", direction: "dependencies" }));
    expect(wheel.dependencies.direct).toEqual(["parts/gear/wheel/lib/main.d.ts"]);
  });

  test("a package folder that does not resolve is a gap of that package, and its answers say so", async () => {
    const kota = await indexed(repo);
    // `'..'` is bolt's folder, its manifest has `exports` only: TypeScript reads no `exports` for a folder.
    const spec = ok(await kota.deps({ file: "parts/bolt/spec/thread.spec.ts", direction: "dependencies" }));
    expect(spec.dependencies.direct).toEqual(["parts/bolt/src/size.ts"]);
    expect(spec.unresolvedWorkspace).toEqual([".."]);
    expect(renderDeps(spec, 0).text).toContain("1 import(s) name packages of this repository that could not be resolved");
    const index = ok(await kota.deps({ file: "parts/bolt/src/index.ts", direction: "dependents" }));
    expect(index.unresolvedImporters).toEqual({ package: "bolt", files: 1 });
    const u = ok(await kota.usages({ symbol: "size", file: "parts/bolt/src/size.ts" }));
    expect(files(u)).toEqual(["parts/bolt/spec/thread.spec.ts"]);
    expect(u.incomplete).toContain("import packages of this repository that did not resolve (..)");
    // gear's answers are not touched by bolt's gap.
    expect(ok(await kota.usages({ symbol: "turn", file: "parts/gear/src/index.ts" })).incomplete).toBeUndefined();
  });
});

describe("kota builtin: imports inside `declare module` blocks of a global declaration file", () => {
  const repo = {
    "package.json": json({ name: "shapes", private: true }),
    "src/geometry.ts": "export interface Point {\n  x: number;\n}\nexport type Size = number;\nexport const ORIGIN: Point = { x: 0 };\n",
    "src/index.ts": "export * from './geometry';\n",
    "tsconfig.json": json({ compilerOptions: { paths: { "shapes-lib": ["./src/index.ts"] } } }),
    // A global script: no top-level import or export, so each block declares an ambient module.
    "typings/vendor.d.ts": [
      "declare module 'vendor-draw' {",
      "  import type { Point } from 'shapes-lib';",
      "  import Size = require('shapes-lib');",
      "  export function draw(at: Point): void;",
      "}",
      "declare module 'vendor-extra' {",
      "  export { ORIGIN } from 'shapes-lib';",
      "  import { Point } from './relative-is-skipped';",
      "}",
      "declare module 'vendor-free' {",
      "  export function free(at: Point): void;",
      "}",
      "",
    ].join("\n"),
    // A module: the block augments `vendor-draw`, imports there are not the file's (TypeScript rejects them).
    "typings/augment.d.ts": "import type { Size } from 'shapes-lib';\ndeclare module 'vendor-draw' {\n  export const size: Size;\n}\n",
  };

  test("the block's imports and re-exports are the file's dependencies, their names used inside the block only", async () => {
    const kota = await indexed(repo);
    const deps = ok(await kota.deps({ file: "typings/vendor.d.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual(["src/index.ts"]);
    expect(deps.unresolved).toEqual([]);
    const point = ok(await kota.usages({ symbol: "Point", file: "src/geometry.ts" }));
    const lines = point.usages.filter((x) => x.file === "typings/vendor.d.ts").map((x) => x.line);
    // The import (line 2) and `at: Point` in the same block (4); not the `Point` of another block (11).
    expect([...new Set(lines)].sort()).toEqual([2, 4]);
    expect(files(ok(await kota.usages({ symbol: "ORIGIN", file: "src/geometry.ts" })))).toEqual(["typings/vendor.d.ts"]);
  });
});

describe("kota builtin: a member read off a require() call", () => {
  test("`require('./m').NAME` and `const { NAME } = require('./m')` use m's export NAME", async () => {
    const kota = await indexed({
      "package.json": json({ name: "req", private: true }),
      "lib/limits.ts": "export const MAX = 3;\nexport const MIN = 1;\nexport const unused = 0;\n",
      "tools/check.js": "const top = require('../lib/limits').MAX;\nif (require('../lib/limits').MIN > top) throw new Error();\n",
      "tools/other.js": "const { MIN } = require('../lib/limits');\nmodule.exports = MIN;\n",
    });
    const max = ok(await kota.usages({ symbol: "MAX", file: "lib/limits.ts" }));
    expect(files(max)).toEqual(["tools/check.js"]);
    expect(files(ok(await kota.usages({ symbol: "MIN", file: "lib/limits.ts" })))).toEqual(["tools/check.js", "tools/other.js"]);
    expect(ok(await kota.usages({ symbol: "unused", file: "lib/limits.ts" })).usages).toEqual([]);
  });
});

describe("kota builtin: extensionless specifiers follow TypeScript's extension list", () => {
  test("`./x` reaches x.ts/x.tsx/x.d.ts/x.js/x.jsx, never x.mjs/x.cjs/x.mts/x.cts; a specifier naming the extension does", async () => {
    const kota = await indexed({
      "package.json": json({ name: "ext", private: true, type: "module" }),
      "scripts/shared.mjs": "export const flag = 1;\n",
      "scripts/config.cts": "export const level = 2;\n",
      "scripts/dir/index.mjs": "export const inner = 3;\n",
      "scripts/plain.js": "export const plain = 4;\n",
      "scripts/use.test.ts": [
        "import { flag } from './shared';",
        "import { level } from './config';",
        "import { inner } from './dir';",
        "import { plain } from './plain';",
        "export const all = [flag, level, inner, plain];",
        "",
      ].join("\n"),
      "scripts/named.ts":
        "import { flag } from './shared.mjs';\nimport { level } from './config.cjs';\nexport const both = [flag, level];\n",
    });
    const use = ok(await kota.deps({ file: "scripts/use.test.ts", direction: "dependencies" }));
    expect(use.dependencies.direct).toEqual(["scripts/plain.js"]);
    expect(use.unresolved).toEqual(["./config", "./dir", "./shared"]);
    const named = ok(await kota.deps({ file: "scripts/named.ts", direction: "dependencies" }));
    expect(named.dependencies.direct).toEqual(["scripts/config.cts", "scripts/shared.mjs"]);
  });
});
