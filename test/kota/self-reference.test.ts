/**
 * A package importing itself by its own name, as Node and TypeScript resolve it: the importing file's
 * package scope (nearest package.json) names the package and has `exports`, read under the governing
 * tsconfig's conditions (customConditions included), subpaths and `*` patterns; and the manifests
 * TypeScript reads from disk count even when an ignore rule matches them and git does not track them.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, git, ok, openIndex, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const json = (v: unknown) => JSON.stringify(v);

/** A library whose tests import it by name: a source condition next to root-level build output that was never built. */
const selfImporting = (manifest: Record<string, unknown> = {}): Record<string, string> => ({
  "package.json": json({ name: "root", private: true, workspaces: ["packages/*", "vendored"] }),
  "packages/lib/package.json": json({
    name: "@m/lib",
    type: "module",
    exports: {
      "./package.json": "./package.json",
      ".": { "@m/source": "./src/index.ts", types: "./index.d.cts", import: "./index.js" },
      "./v2": { "@m/source": "./src/v2/index.ts", types: "./v2/index.d.cts", import: "./v2/index.js" },
      "./v2/locales/*": { "@m/source": "./src/v2/locales/*", types: "./v2/locales/*", import: "./v2/locales/*" },
    },
    ...manifest,
  }),
  "packages/lib/tsconfig.json": json({
    compilerOptions: { module: "nodenext", moduleResolution: "nodenext", customConditions: ["@m/source"] },
  }),
  "packages/lib/src/index.ts": 'export * from "./v2/index.js";\n',
  "packages/lib/src/v2/index.ts": 'export * as schemas from "./schemas.js";\nexport { object } from "./schemas.js";\n',
  "packages/lib/src/v2/schemas.ts": "export function object() {\n  return {};\n}\nexport function string() {\n  return '';\n}\n",
  "packages/lib/src/v2/locales/fr.ts": "export default function fr() {\n  return 'fr';\n}\n",
  "packages/lib/src/v2/tests/object.test.ts": [
    'import * as z from "@m/lib/v2";',
    'import fr from "@m/lib/v2/locales/fr.js";',
    'import { object } from "@m/lib";',
    "z.object();",
    "z.schemas.string();",
    "object();",
    "fr();",
    "function build(v: typeof z, n: number) {",
    "  const w: typeof z = v;",
    "  return [v.object(), w.schemas.string(), n];",
    "}",
    "",
  ].join("\n"),
});

/** A shallower workspace package of the same name, without `exports` (a vendored release): outsiders may reach it by name. */
const vendoredCopy = { "vendored/package.json": json({ name: "@m/lib", main: "./old.ts" }), "vendored/old.ts": "export const old = 1;\n" };
const TEST_FILE = "packages/lib/src/v2/tests/object.test.ts";
const OWN_SOURCES = ["packages/lib/src/index.ts", "packages/lib/src/v2/index.ts", "packages/lib/src/v2/locales/fr.ts"];

async function indexed(root: string) {
  const t = openIndex(root);
  ok(await t.kota.index());
  return t.kota;
}

describe("kota builtin: a package imports itself by name", () => {
  test("its own exports under the governing tsconfig's custom condition: subpaths and * patterns reach the sources", async () => {
    const kota = await indexed(writeRepo(selfImporting()));
    const deps = ok(await kota.deps({ file: "packages/lib/src/v2/tests/object.test.ts", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual([
      "packages/lib/src/index.ts",
      "packages/lib/src/v2/index.ts",
      "packages/lib/src/v2/locales/fr.ts",
    ]);
    const dependents = ok(await kota.deps({ file: "packages/lib/src/v2/index.ts", direction: "dependents" }));
    expect(dependents.dependents.direct).toEqual(["packages/lib/src/index.ts", "packages/lib/src/v2/tests/object.test.ts"]);
    const sites = async (symbol: string, file: string) => [
      ...new Set(ok(await kota.usages({ symbol, file })).usages.map((x) => `${x.file}:${x.line}`)),
    ];
    // Through the namespace import, the nested namespace, and the named import of the root entry.
    expect(await sites("object", "packages/lib/src/v2/schemas.ts")).toEqual([
      "packages/lib/src/v2/index.ts:2",
      "packages/lib/src/v2/tests/object.test.ts:3",
      "packages/lib/src/v2/tests/object.test.ts:4",
      "packages/lib/src/v2/tests/object.test.ts:6",
      // A parameter typed `typeof z` is the namespace as well.
      "packages/lib/src/v2/tests/object.test.ts:10",
    ]);
    expect(await sites("string", "packages/lib/src/v2/schemas.ts")).toEqual([
      "packages/lib/src/v2/tests/object.test.ts:5",
      "packages/lib/src/v2/tests/object.test.ts:10",
    ]);
    await kota.close();
  });

  test("the importing file's own package wins over another package of the same name", async () => {
    const kota = await indexed(writeRepo({ ...selfImporting(), ...vendoredCopy }));
    expect(ok(await kota.deps({ file: TEST_FILE, direction: "dependencies" })).dependencies.direct).toEqual(OWN_SOURCES);
    await kota.close();
  });

  test("without the custom condition the exports' build output stands for its source; without exports there is no self-reference", async () => {
    const files: Record<string, string> = { ...selfImporting(), ...vendoredCopy };
    files["packages/lib/tsconfig.json"] = json({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext" } });
    const kota = await indexed(writeRepo(files));
    expect(ok(await kota.deps({ file: TEST_FILE, direction: "dependencies" })).dependencies.direct).toEqual(OWN_SOURCES);
    await kota.close();

    // No `exports`: Node and TypeScript skip the self-reference, so the name means the other package.
    const kota2 = await indexed(writeRepo({ ...selfImporting({ exports: undefined, main: "./src/index.ts" }), ...vendoredCopy }));
    expect(ok(await kota2.deps({ file: TEST_FILE, direction: "dependencies" })).dependencies.direct).toContain("vendored/old.ts");
    await kota2.close();
  });
});

describe("kota builtin: manifests count whatever git says", () => {
  test("an ignored, untracked package.json still shapes resolution, and its edits are noticed", async () => {
    const root = writeRepo({
      ...selfImporting(),
      // The package ignores every package.json (it writes stubs at build time) and its own was never committed.
      "packages/lib/.gitignore": "**/package.json\n**/*.js\n",
      "packages/app/package.json": json({ name: "app", type: "module" }),
      "packages/app/tsconfig.json": json({ compilerOptions: { moduleResolution: "bundler", customConditions: ["@m/source"] } }),
      "packages/app/main.ts": 'import { object } from "@m/lib";\nobject();\n',
    });
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "init");
    const kota = await indexed(root);
    const deps = ok(await kota.deps({ file: "packages/lib/src/index.ts", direction: "dependents" }));
    expect(deps.dependents.direct).toEqual(["packages/app/main.ts", "packages/lib/src/v2/tests/object.test.ts"]);

    // The root entry now points elsewhere: the next query re-reads the ignored manifest.
    writeFileSync(
      join(root, "packages/lib/package.json"),
      json({ name: "@m/lib", type: "module", exports: { ".": { "@m/source": "./src/v2/index.ts" }, "./v2": "./src/v2/index.ts" } }),
    );
    const after = ok(await kota.deps({ file: "packages/app/main.ts", direction: "dependencies" }));
    expect(after.dependencies.direct).toEqual(["packages/lib/src/v2/index.ts"]);
    await kota.close();
  });
});
