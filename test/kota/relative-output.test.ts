/**
 * Relative imports of a package's own build output that the checkout has not built (a test's
 * `../out/main.js`, a bin script's `import('./built/cli.js')`, `require('./lib')`), which packages can
 * be imported by name (workspace members, the root, `file:` links), and workspace entries that carry
 * no code (a stylesheet): each on a small git work tree of our own making.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderDeps } from "../../src/kota/render-deps.ts";
import { cleanupTempDirs, indexedRepo, ok } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const json = (v: unknown) => JSON.stringify(v, null, 2);
const indexed = async (files: Record<string, string>) => (await indexedRepo(files)).kota;
const files = (u: { usages: { file: string }[] }) => [...new Set(u.usages.map((x) => x.file))].sort();

describe("kota builtin: a relative import of the package's own unbuilt build output", () => {
  const repo = {
    "package.json": json({ private: true, workspaces: ["tools/*"] }),
    // tsconfig outDir -> rootDir, and an entry point elsewhere (a bin script that loads the build).
    "tools/kite/package.json": json({ name: "kite", main: "./run.mjs", bin: "./run.mjs" }),
    "tools/kite/tsconfig.json": json({ compilerOptions: { outDir: "out", rootDir: "code" } }),
    "tools/kite/code/main.ts": "export function fly(): number {\n  return 1;\n}\n",
    "tools/kite/code/parts/tail.ts": "export class Tail {}\n",
    "tools/kite/run.mjs": "const { fly } = await import('./out/main.js');\nfly();\n",
    "tools/kite/spec/main.spec.ts":
      "import { fly } from '../out/main.js';\nimport { Tail } from '../out/parts/tail.js';\nfly();\nnew Tail();\n",
    // No tsconfig: the manifest's entries name the build folder; the main entry falls back to src/index.
    "tools/reel/package.json": json({ name: "reel", main: "built/index.js", exports: { ".": "./built/index.js" } }),
    "tools/reel/src/index.ts": "export const spin = 2;\n",
    "tools/reel/example.js": "const { spin } = require('./built');\nconsole.log(spin);\n",
    "tools/reel/check.ts": "import { spin } from './built/index.js';\nexport const s = spin;\n",
  };

  test("maps to the source by the tsconfig's outDir -> rootDir, both ways, and usages follow", async () => {
    const kota = await indexed(repo);
    const spec = ok(await kota.deps({ file: "tools/kite/spec/main.spec.ts", direction: "dependencies" }));
    expect(spec.dependencies.direct).toEqual(["tools/kite/code/main.ts", "tools/kite/code/parts/tail.ts"]);
    expect(spec.unresolved).toEqual([]);
    const main = ok(await kota.deps({ file: "tools/kite/code/main.ts", direction: "dependents" }));
    expect(main.dependents.direct).toEqual(["tools/kite/run.mjs", "tools/kite/spec/main.spec.ts"]);
    expect(files(ok(await kota.usages({ symbol: "fly", file: "tools/kite/code/main.ts" })))).toEqual([
      "tools/kite/run.mjs",
      "tools/kite/spec/main.spec.ts",
    ]);
  });

  test("a folder the manifest points its entries into is a build folder; `require('./built')` is its index", async () => {
    const kota = await indexed(repo);
    const dependents = ok(await kota.deps({ file: "tools/reel/src/index.ts", direction: "dependents" }));
    expect(dependents.dependents.direct).toEqual(["tools/reel/check.ts", "tools/reel/example.js"]);
  });

  test("a missing file outside any build folder stays an unresolved relative import", async () => {
    const kota = await indexed({
      ...repo,
      // `gen/` is named by no tsconfig and no manifest entry: nothing says it is build output.
      "tools/kite/spec/gen.spec.ts": "import { fly } from '../gen/main.js';\nfly();\n",
    });
    const deps = ok(await kota.deps({ file: "tools/kite/spec/gen.spec.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual([]);
    expect(deps.unresolved).toEqual(["../gen/main.js"]);
    expect(deps.unresolvedWorkspace).toBeUndefined();
  });

  test("a folder with a package.json that is not a workspace member is not a package's build output", async () => {
    const kota = await indexed({
      ...repo,
      "fixtures/old/package.json": json({ name: "old", main: "lib/index.js" }),
      "fixtures/old/src/index.ts": "export const o = 1;\n",
      "fixtures/old/use.ts": "import { o } from './lib/index.js';\nexport const u = o;\n",
    });
    const deps = ok(await kota.deps({ file: "fixtures/old/use.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual([]);
    expect(deps.unresolved).toEqual(["./lib/index.js"]);
  });

  test("build output with no source found: said as an unresolved import of the package, and the source's answers say so", async () => {
    const kota = await indexed({
      ...repo,
      "tools/kite/spec/ghost.spec.ts": "import { fly } from '../out/ghost.js';\nfly();\n",
    });
    const deps = ok(await kota.deps({ file: "tools/kite/spec/ghost.spec.ts", direction: "dependencies" }));
    expect(deps.unresolvedWorkspace).toEqual(["../out/ghost.js"]);
    expect(renderDeps(deps, 0).text).toContain("they point at build output this checkout does not have");
    const main = ok(await kota.deps({ file: "tools/kite/code/main.ts", direction: "dependents" }));
    expect(main.unresolvedImporters).toEqual({ package: "kite", files: 1 });
    const u = ok(await kota.usages({ symbol: "fly", file: "tools/kite/code/main.ts" }));
    expect(u.incomplete).toContain("1 file(s) import packages of this repository that did not resolve (../out/ghost.js)");
    // Another package's files are not affected by kite's gap.
    expect(ok(await kota.usages({ symbol: "spin", file: "tools/reel/src/index.ts" })).incomplete).toBeUndefined();
  });
});

describe("kota builtin: which packages can be imported by name", () => {
  const members = {
    "pnpm-workspace.yaml": "packages:\n  - 'libs/*'\n  - '!**/sample/**'\n",
    "package.json": json({ name: "root-pkg", private: true }),
    "libs/core/package.json": json({ name: "@w/core", main: "index.ts" }),
    "libs/core/index.ts": "export const core = 1;\n",
    "libs/core/sample/package.json": json({ name: "@w/sample" }),
    "libs/core/sample/index.ts": "export const sample = 1;\n",
    // A registry fixture: a package.json folder nothing links into node_modules.
    "mock/store/@w/fixture/1.0.0/package.json": json({ name: "@w/fixture", main: "index.js" }),
    "mock/store/@w/fixture/1.0.0/index.js": "module.exports = 1;\n",
    // A `file:` dependency: linked for the files of the package that declares it.
    "apps/web/package.json": json({ name: "web", dependencies: { "@w/local": "file:../../vendor/local" } }),
    "apps/web/main.ts": "import { core } from '@w/core';\nimport { local } from '@w/local';\nexport const w = core + local;\n",
    "vendor/local/package.json": json({ name: "@w/local", main: "index.ts" }),
    "vendor/local/index.ts": "export const local = 1;\n",
    "libs/core/use.ts":
      "import { sample } from '@w/sample';\nimport f from '@w/fixture';\nimport { local } from '@w/local';\nimport '@w/core';\nimport 'root-pkg';\nexport const x = [sample, f, local];\n",
    "index.ts": "export const top = 1;\n",
  };

  test("workspace members (pnpm-workspace.yaml globs, negations), the root and file: links; nothing else", async () => {
    const kota = await indexed(members);
    const web = ok(await kota.deps({ file: "apps/web/main.ts", direction: "dependencies" }));
    expect(web.dependencies.direct).toEqual(["libs/core/index.ts", "vendor/local/index.ts"]);
    const use = ok(await kota.deps({ file: "libs/core/use.ts", direction: "dependencies" }));
    // `@w/sample` is excluded by `!**/sample/**`, `@w/fixture` is no member, `@w/local` is linked for apps/web only.
    expect(use.dependencies.direct).toEqual(["index.ts", "libs/core/index.ts"]);
    expect(use.unresolved).toEqual([]);
    expect(use.unresolvedWorkspace).toBeUndefined();
  });

  test("package.json `workspaces` ({ packages } too) declares members the same way", async () => {
    const kota = await indexed({
      ...Object.fromEntries(Object.entries(members).filter(([p]) => p !== "pnpm-workspace.yaml")),
      "package.json": json({ name: "root-pkg", private: true, workspaces: { packages: ["libs/*/sample"] } }),
    });
    const use = ok(await kota.deps({ file: "libs/core/use.ts", direction: "dependencies" }));
    expect(use.dependencies.direct).toEqual(["index.ts", "libs/core/sample/index.ts"]);
  });

  test("a file: link of the importer's own package wins over the root's link of the same name", async () => {
    const kota = await indexed({
      "package.json": json({ name: "top", private: true, workspaces: ["site"], dependencies: { theme: "file:./themes/plain" } }),
      "site/package.json": json({ name: "site", dependencies: { theme: "file:../themes/fancy" } }),
      "site/page.ts": "import { paint } from 'theme';\nexport const p = paint;\n",
      "themes/plain/package.json": json({ name: "theme", main: "index.ts" }),
      "themes/plain/index.ts": "export const paint = 'plain';\n",
      "themes/fancy/package.json": json({ name: "theme", main: "index.ts" }),
      "themes/fancy/index.ts": "export const paint = 'fancy';\n",
      "tool.ts": "import { paint } from 'theme';\nexport const t = paint;\n",
    });
    const deps = async (file: string) => ok(await kota.deps({ file, direction: "dependencies" })).dependencies.direct;
    expect(await deps("site/page.ts")).toEqual(["themes/fancy/index.ts"]);
    expect(await deps("tool.ts")).toEqual(["themes/plain/index.ts"]);
  });

  test("an edited pnpm-workspace.yaml is noticed by the next query", async () => {
    const { kota, root } = await indexedRepo({
      "pnpm-workspace.yaml": "packages:\n  - 'libs/*'\n",
      "package.json": json({ name: "root-pkg", private: true }),
      "extra/tint/package.json": json({ name: "tint", main: "index.ts" }),
      "extra/tint/index.ts": "export const tint = 1;\n",
      "libs/app/main.ts": "import { tint } from 'tint';\nexport const a = tint;\n",
    });
    const deps = async () => ok(await kota.deps({ file: "libs/app/main.ts", direction: "dependencies" })).dependencies.direct;
    expect(await deps()).toEqual([]);
    const yaml = join(root, "pnpm-workspace.yaml");
    writeFileSync(yaml, "packages:\n  - 'libs/*'\n  - 'extra/*'\n");
    utimesSync(yaml, new Date(), new Date(Date.now() + 5000));
    expect(await deps()).toEqual(["extra/tint/index.ts"]);
  });

  test("a pnpm-workspace.yaml of settings only: the root package.json's workspaces declare the members, else the root alone", async () => {
    const files = {
      "pnpm-workspace.yaml": "onlyBuiltDependencies:\n  - esbuild\n",
      "package.json": json({ name: "root-pkg", private: true, workspaces: ["libs/*"] }),
      "libs/core/package.json": json({ name: "@w/core", main: "index.ts" }),
      "libs/core/index.ts": "export const core = 1;\n",
      "fixtures/old/package.json": json({ name: "@w/old", main: "index.ts" }),
      "fixtures/old/index.ts": "export const old = 1;\n",
      "main.ts": "import { core } from '@w/core';\nimport { old } from '@w/old';\nexport const m = core + old;\n",
    };
    const deps = async (kota: Awaited<ReturnType<typeof indexed>>) =>
      ok(await kota.deps({ file: "main.ts", direction: "dependencies" })).dependencies.direct;
    expect(await deps(await indexed(files))).toEqual(["libs/core/index.ts"]);
    expect(await deps(await indexed({ ...files, "package.json": json({ name: "root-pkg", private: true }) }))).toEqual([]);
  });

  test("a repository that declares no workspace keeps every package.json folder importable", async () => {
    const kota = await indexed({
      "a/package.json": json({ name: "a-pkg", main: "index.ts" }),
      "a/index.ts": "export const a = 1;\n",
      "b/main.ts": "import { a } from 'a-pkg';\nexport const b = a;\n",
    });
    expect(ok(await kota.deps({ file: "b/main.ts", direction: "dependencies" })).dependencies.direct).toEqual(["a/index.ts"]);
  });
});

describe("kota builtin: a workspace entry that carries no code", () => {
  test("an unbuilt stylesheet export is not an unresolved import, and usages carry no caveat for it", async () => {
    const kota = await indexed({
      "package.json": json({ private: true, workspaces: ["packages/*"] }),
      "packages/ui/package.json": json({
        name: "@w/ui",
        exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" }, "./theme.css": "./dist/theme.css" },
      }),
      "packages/ui/src/index.ts": "export function button(): string {\n  return 'b';\n}\n",
      "packages/app/main.ts": "import '@w/ui/theme.css';\nimport { button } from '@w/ui';\nbutton();\n",
    });
    const deps = ok(await kota.deps({ file: "packages/app/main.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual(["packages/ui/src/index.ts"]);
    expect(deps.unresolvedWorkspace).toBeUndefined();
    expect(deps.unresolved).toEqual([]);
    const u = ok(await kota.usages({ symbol: "button", file: "packages/ui/src/index.ts" }));
    expect(files(u)).toEqual(["packages/app/main.ts"]);
    expect(u.incomplete).toBeUndefined();
  });

  test("a dotted code name that did not resolve (user.service) is still an unresolved workspace import", async () => {
    const kota = await indexed({
      "package.json": json({ private: true, workspaces: ["packages/*"] }),
      "packages/api/package.json": json({ name: "@w/api", exports: { "./*": "./dist/*.js" } }),
      "packages/api/src/other.ts": "export const other = 1;\n",
      "packages/brand/package.json": json({ name: "@w/brand" }),
      "packages/app/main.ts":
        "import { UserService } from '@w/api/user.service';\nimport logo from '@w/brand/logo.SVG';\nnew UserService(logo);\n",
    });
    const deps = ok(await kota.deps({ file: "packages/app/main.ts", direction: "dependencies" }));
    expect(deps.unresolvedWorkspace).toEqual(["@w/api/user.service"]);
  });
});
