/**
 * `extends` naming a workspace package (a shared config package of the same repository), as TypeScript
 * resolves it: the package's tsconfig.json or its `tsconfig` field, `pkg/path` with or without `.json`,
 * `exports` subpaths, arrays (later ones win), `${configDir}`; a package that is not there changes nothing.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extendsTarget } from "../../src/kota/builtin/resolve/extends-target.ts";
import { createTsconfigs } from "../../src/kota/builtin/resolve/tsconfig.ts";
import { cleanupTempDirs, indexedRepo, ok } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const json = (v: unknown) => JSON.stringify(v, null, 2);
const CONFIG_DIR = "$" + "{configDir}";

/** In-memory repository: `configs` are the files the scan lists as configs; `others` exist on disk only. */
function memory(configs: Record<string, unknown>, others: Record<string, unknown> = {}, members: Record<string, string> = {}) {
  const text = (v: unknown) => (typeof v === "string" ? v : json(v));
  const all = new Map([...Object.entries(configs), ...Object.entries(others)].map(([p, v]) => [p, text(v)]));
  const deps = {
    has: (p: string) => Object.hasOwn(configs, p),
    readText: (p: string) => all.get(p) ?? null,
    exists: (p: string) => all.has(p),
    packageDir: (name: string) => members[name] ?? null,
    packageJson: (dir: string) => {
      const t = all.get(dir === "." ? "package.json" : `${dir}/package.json`);
      return t === undefined ? null : (JSON.parse(t) as object);
    },
  };
  return { deps, tsconfigs: createTsconfigs(deps) };
}

describe("extendsTarget: TypeScript's lookup of a package config", () => {
  const { deps } = memory(
    {
      "cfg/package.json": { name: "@x/cfg", tsconfig: "./strict.json" },
      "plain/package.json": { name: "plain" },
      "plain/tsconfig.json": {},
      "plain/nested/tsconfig.json": {},
      "exp/package.json": { name: "exp", exports: { "./strict": { require: "./configs/strict.json" }, "./*": "./configs/*.json" } },
      "exp/tsconfig.json": {},
    },
    {
      "cfg/strict.json": {},
      "cfg/base.json": {},
      "plain/tsconfig.lib.json": {},
      "exp/configs/strict.json": {},
      "exp/configs/node.json": {},
    },
    { "@x/cfg": "cfg", plain: "plain", exp: "exp" },
  );
  const at = (spec: string) => extendsTarget(deps, "apps/web", spec);

  test("the bare name: the package.json tsconfig field, else the package's tsconfig.json", () => {
    expect(at("@x/cfg")).toBe("cfg/strict.json");
    expect(at("plain")).toBe("plain/tsconfig.json");
  });

  test("a path in the package, with or without .json, or a folder with its tsconfig.json", () => {
    expect(at("@x/cfg/base.json")).toBe("cfg/base.json");
    expect(at("@x/cfg/base")).toBe("cfg/base.json");
    expect(at("plain/tsconfig.lib")).toBe("plain/tsconfig.lib.json");
    expect(at("plain/nested")).toBe("plain/nested/tsconfig.json");
    expect(at("@x/cfg/none")).toBeNull();
  });

  test("a package with exports is read through them only (require, types, node, default)", () => {
    expect(at("exp/strict")).toBe("exp/configs/strict.json");
    expect(at("exp/node")).toBe("exp/configs/node.json");
    // Not exported: TypeScript does not fall back to the file, nor to the root tsconfig.json.
    expect(at("exp")).toBeNull();
    expect(at("exp/tsconfig.json")).toBeNull();
  });

  test("relative paths as before; a package that is not in the repository gives nothing", () => {
    expect(extendsTarget(deps, "cfg/sub", "../base")).toBe("cfg/base.json");
    expect(at("../../../outside.json")).toBeNull();
    expect(at("@tsconfig/node20/tsconfig.json")).toBeNull();
    expect(at("")).toBeNull();
  });
});

describe("createTsconfigs: options from a package config", () => {
  test("moduleResolution, customConditions and configDir-relative paths come from the package's base.json", () => {
    const { tsconfigs } = memory(
      {
        "packages/cfg/package.json": { name: "@x/cfg" },
        "apps/web/tsconfig.json": { extends: "@x/cfg/base.json", compilerOptions: { outDir: "out" } },
      },
      {
        "packages/cfg/base.json": {
          compilerOptions: {
            moduleResolution: "node10",
            customConditions: ["source"],
            paths: { "~/*": [`${CONFIG_DIR}/src/*`], "#cfg": ["./shared.ts"] },
            rootDir: `${CONFIG_DIR}/src`,
          },
          include: [`${CONFIG_DIR}/src`],
        },
      },
      { "@x/cfg": "packages/cfg" },
    );
    const c = tsconfigs.forFile("apps/web/src/a.ts")!;
    expect(c.file).toBe("apps/web/tsconfig.json");
    expect(c.moduleResolution).toBe("node10");
    expect(c.customConditions).toEqual(["source"]);
    // ${configDir} is the extending config's folder; a plain relative path stays the base config's.
    expect(c.paths.find((p) => p.prefix === "~/")!.targets).toEqual(["apps/web/src/*"]);
    expect(c.paths.find((p) => p.prefix === "#cfg")!.targets).toEqual(["packages/cfg/shared.ts"]);
    expect(c.rootDir).toBe("apps/web/src");
    expect(c.outDir).toBe("apps/web/out");
    // The inherited include (`${configDir}/src`) takes in the app's sources only.
    expect(tsconfigs.forFile("apps/web/scripts/b.ts")).toBeNull();
    expect(tsconfigs.baseFiles()).toEqual(["packages/cfg/base.json"]);
  });

  test("an array of extends: the later entry wins", () => {
    const configs = (order: string[]) =>
      memory(
        { "cfg/package.json": { name: "cfg", exports: { "./*": "./*.json" } }, "app/tsconfig.json": { extends: order } },
        {
          "cfg/bundler.json": { compilerOptions: { moduleResolution: "bundler", customConditions: ["a"] } },
          "cfg/node.json": { compilerOptions: { module: "nodenext" } },
        },
        { cfg: "cfg" },
      ).tsconfigs.forFile("app/x.ts")!;
    const bundlerLast = configs(["cfg/node", "cfg/bundler"]);
    expect(bundlerLast.moduleResolution).toBe("bundler");
    const nodeLast = configs(["cfg/bundler", "cfg/node"]);
    // `module: nodenext` after the bundler config: moduleResolution still says bundler (an option set is kept).
    expect(nodeLast.moduleResolution).toBe("bundler");
    expect(nodeLast.customConditions).toEqual(["a"]);
  });

  test("a missing package or file leaves the config as if the entry were not there", () => {
    const { tsconfigs } = memory(
      {
        "app/tsconfig.json": {
          extends: ["@missing/tsconfig", "./base.json", "@x/cfg/absent.json"],
          compilerOptions: { paths: { "@/*": ["./src/*"] } },
        },
        "app/base.json": "{ not json",
        "cfg/package.json": { name: "@x/cfg" },
      },
      {},
      { "@x/cfg": "cfg" },
    );
    const c = tsconfigs.forFile("app/src/x.ts")!;
    expect(c.moduleResolution).toBe("bundler");
    expect(c.paths[0]!.targets).toEqual(["app/src/*"]);
    // Only the file that exists was read (and found unreadable).
    expect(tsconfigs.baseFiles()).toEqual(["app/base.json"]);
  });
});

describe("kota builtin: a shared config package of the repository", () => {
  const repo = () => ({
    "package.json": json({ private: true, workspaces: ["packages/*", "apps/*"] }),
    // The config package: its files are not named tsconfig*.json (as in turborepo's templates).
    "packages/config/package.json": json({ name: "@x/config", exports: { "./*": "./*.json" } }),
    "packages/config/base.json": json({ compilerOptions: { moduleResolution: "bundler", customConditions: ["source"] } }),
    "packages/config/legacy.json": json({ compilerOptions: { moduleResolution: "node10" } }),
    "packages/lib/package.json": json({
      name: "@x/lib",
      exports: { ".": { source: "./src/entry.ts", default: "./build/bundle.js" }, "./feature": "./src/feature.ts" },
    }),
    "packages/lib/src/entry.ts": "export const entry = 1;\n",
    "packages/lib/build/bundle.js": "export const entry = 1;\n",
    "packages/lib/src/feature.ts": "export const feature = 2;\n",
    "packages/lib/feature.ts": "export const feature = 3;\n",
    "apps/web/package.json": json({ name: "web" }),
    "apps/web/tsconfig.json": json({ extends: "@x/config/base" }),
    "apps/web/main.ts": 'import { entry } from "@x/lib";\nimport { feature } from "@x/lib/feature";\nexport const v = entry + feature;\n',
    "apps/old/package.json": json({ name: "old" }),
    "apps/old/tsconfig.json": json({ extends: ["@x/config/base", "@x/config/legacy"] }),
    "apps/old/main.ts": 'import { feature } from "@x/lib/feature";\nexport const v = feature;\n',
    "apps/plain/package.json": json({ name: "plain" }),
    "apps/plain/tsconfig.json": json({ extends: "@y/not-here/tsconfig.json" }),
    "apps/plain/main.ts": 'import { entry } from "@x/lib";\nexport const v = entry;\n',
  });

  test("the package config's customConditions and moduleResolution decide where imports go", async () => {
    const { kota } = await indexedRepo(repo());
    const web = ok(await kota.deps({ file: "apps/web/main.ts", direction: "dependencies" }));
    expect(web.dependencies.direct).toEqual(["packages/lib/src/entry.ts", "packages/lib/src/feature.ts"]);
    // node10 (the later entry of the array) reads no exports: the file at the package path.
    const old = ok(await kota.deps({ file: "apps/old/main.ts", direction: "dependencies" }));
    expect(old.dependencies.direct).toEqual(["packages/lib/feature.ts"]);
    // A base config from outside the repository: as before, no `source` condition (the built file).
    const plain = ok(await kota.deps({ file: "apps/plain/main.ts", direction: "dependencies" }));
    expect(plain.dependencies.direct).toEqual(["packages/lib/build/bundle.js"]);
  });

  test("an edit of the package config is noticed: the imports resolve again", async () => {
    const { kota, root } = await indexedRepo(repo());
    writeFileSync(join(root, "packages/config/base.json"), json({ compilerOptions: { moduleResolution: "node10" } }));
    const t = Date.now() / 1000 + 5;
    utimesSync(join(root, "packages/config/base.json"), t, t);
    const web = ok(await kota.deps({ file: "apps/web/main.ts", direction: "dependencies" }));
    expect(web.dependencies.direct).toEqual(["packages/lib/feature.ts"]);
    // Still watched after that run: a second edit is noticed too.
    writeFileSync(join(root, "packages/config/base.json"), json({ compilerOptions: { customConditions: ["source"] } }));
    utimesSync(join(root, "packages/config/base.json"), t + 5, t + 5);
    const again = ok(await kota.deps({ file: "apps/web/main.ts", direction: "dependencies" }));
    expect(again.dependencies.direct).toEqual(["packages/lib/src/entry.ts", "packages/lib/src/feature.ts"]);
  });

  test("a full index keeps the base config watched; once no config extends it, it is watched no more", async () => {
    const { kota, root, db } = await indexedRepo(repo());
    const watched = () =>
      db
        .query<{ path: string }, []>("SELECT path FROM code_watch WHERE is_dir = 0 AND path LIKE 'packages/config/%' ORDER BY path")
        .all()
        .map((r) => r.path);
    expect(watched()).toEqual(["packages/config/base.json", "packages/config/legacy.json", "packages/config/package.json"]);
    ok(await kota.index());
    expect(watched()).toEqual(["packages/config/base.json", "packages/config/legacy.json", "packages/config/package.json"]);
    for (const app of ["web", "old"]) {
      writeFileSync(join(root, `apps/${app}/tsconfig.json`), json({}));
      const t = Date.now() / 1000 + 5;
      utimesSync(join(root, `apps/${app}/tsconfig.json`), t, t);
    }
    ok(await kota.deps({ file: "apps/web/main.ts", direction: "dependencies" }));
    expect(watched()).toEqual(["packages/config/package.json"]);
  });
});
