import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs, ok, openIndex, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

/** A monorepo-ish fixture exercising TypeScript's resolution rules one by one. */
function resolutionRepo(): string {
  return writeRepo({
    "tsconfig.base.json": `{
      // comments and trailing commas, as tsconfig files have them
      "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["src/lib/*"], "@root": ["src/index.ts"], }, },
    }`,
    "tsconfig.json": `{ "extends": "./tsconfig.base.json", "compilerOptions": { "strict": true } }`,
    "package.json": `{ "name": "app", "imports": { "#internal/*": "./src/internal/*.ts" } }`,
    "src/index.ts": `export * from "./lib/math";\nexport { greet as hello } from "./lib/greet";\n`,
    "src/lib/math.ts": "export function add(a: number, b: number) { return a + b }\n",
    "src/lib/greet.ts": "export const greet = (n: string) => 'hi ' + n\n",
    "src/lib/widgets/index.ts": "export class Widget {}\n",
    "src/internal/secret.ts": "export const secret = 1\n",
    "src/app.ts": [
      'import { add } from "@lib/math";', // tsconfig paths through extends
      'import { Widget } from "./lib/widgets";', // index file
      'import { greet } from "./lib/greet.js";', // .js -> .ts substitution
      'import * as root from "@root";', // exact paths entry
      'import { secret } from "#internal/secret";', // package.json imports
      'import type { Thing } from "src/types";', // baseUrl
      'import { shared } from "@acme/shared/util";', // workspace package exports
      'import { readFileSync } from "node:fs";', // builtin: external
      'import React from "react";', // package not in the repo: external
      'import { gone } from "./lib/missing";', // unresolved
      'import data from "./data.json";', // an existing non-code file
      "export async function run() {",
      '  const lazy = await import("./lib/lazy");', // dynamic import with a literal
      "  return [add(1, 2), new Widget(), greet('x'), root.hello('y'), secret, shared, readFileSync, React, gone, data, lazy] as Thing[];",
      "}",
    ].join("\n"),
    "src/types.ts": "export type Thing = unknown\n",
    "src/lib/lazy.ts": "export const lazy = true\n",
    "src/data.json": "{}",
    "packages/shared/package.json": `{ "name": "@acme/shared", "exports": { "./util": { "types": "./dist/util.d.ts", "import": "./dist/util.js" } } }`,
    "packages/shared/src/util.ts": "export const shared = 2\n",
    "packages/shared/tsconfig.json": `{ "compilerOptions": { "paths": { "~/*": ["./src/*"] } } }`,
    "packages/shared/src/uses-alias.ts": 'import { shared } from "~/util";\nexport const twice = shared * 2\n',
  });
}

describe("kota builtin: module resolution like TypeScript", () => {
  test("paths, extends, index files, .js->.ts, package imports/exports, baseUrl, dynamic import", async () => {
    const { kota } = openIndex(resolutionRepo());
    const indexed = ok(await kota.index());
    expect(indexed.files).toBe(10);
    const deps = ok(await kota.deps({ file: "src/app.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual([
      "packages/shared/src/util.ts",
      "src/index.ts",
      "src/internal/secret.ts",
      "src/lib/greet.ts",
      "src/lib/lazy.ts",
      "src/lib/math.ts",
      "src/lib/widgets/index.ts",
      "src/types.ts",
    ]);
    // Packages outside the repo and existing JSON are not "unresolved"; the missing relative file is.
    expect(deps.unresolved).toEqual(["./lib/missing"]);
    expect(deps.dependents).toEqual({ direct: [], indirect: {} });
  });

  test("the nearest tsconfig applies: a package's own paths", async () => {
    const { kota } = openIndex(resolutionRepo());
    ok(await kota.index());
    const deps = ok(await kota.deps({ file: "packages/shared/src/uses-alias.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual(["packages/shared/src/util.ts"]);
  });

  test("re-export chains and depth levels: dependents by distance", async () => {
    const { kota } = openIndex(resolutionRepo());
    ok(await kota.index());
    const math = ok(await kota.deps({ file: "src/lib/math.ts", direction: "dependents", depth: 3 }));
    expect(math.dependents.direct).toEqual(["src/app.ts", "src/index.ts"]);
    expect(math.dependents.indirect).toEqual({}); // app.ts imports index.ts too, so it is at distance 1
    const greet = ok(await kota.deps({ file: "src/lib/greet.ts", direction: "both", depth: 2 }));
    expect(greet.dependents.direct).toEqual(["src/app.ts", "src/index.ts"]);
    expect(greet.dependencies).toEqual({ direct: [], indirect: {} });
    const app = ok(await kota.deps({ file: "src/app.ts", direction: "dependencies", depth: 2 }));
    expect(app.dependencies.indirect).toEqual({}); // everything index.ts re-exports app.ts imports directly
  });

  test("a module augmentation (`declare module`) is a dependency", async () => {
    const root = writeRepo({
      "src/base.ts": "export interface Registry { a: number }\n",
      "src/plugin.ts": 'import "./base";\ndeclare module "./base" { interface Registry { b: string } }\nexport {}\n',
      "src/ambient.d.ts": 'declare module "some-package" { export const x: number }\n',
    });
    const { kota } = openIndex(root);
    ok(await kota.index());
    const base = ok(await kota.deps({ file: "src/base.ts", direction: "dependents" }));
    expect(base.dependents.direct).toEqual(["src/plugin.ts"]);
    const ambient = ok(await kota.deps({ file: "src/ambient.d.ts" }));
    expect(ambient.unresolved).toEqual([]); // an ambient declaration imports nothing
  });
});
