import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs, ok, openIndex, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

function usagesRepo(): string {
  return writeRepo({
    "src/core.ts": [
      "/** Builds one. See {@link make}. */",
      "export function make(n: number): Made { return { n } }",
      "export interface Made { n: number }",
      "export default class Engine {",
      "  start() { return this.stop() }",
      "  stop() { return make(1) }",
      "}",
      "const local = make(0)",
      "export { local as exportedLocal }",
    ].join("\n"),
    // a chain: barrel re-exports everything, a second barrel renames
    "src/barrel.ts": 'export * from "./core";\n',
    "src/renamed.ts": 'export { make as build } from "./barrel";\n',
    "src/use-direct.ts": [
      'import Engine, { make, type Made } from "./core";',
      "/** @param {Made} m */",
      "export const twice = (m: Made): Made => make(m.n * 2);",
      "new Engine().start();",
      "function shadow(make: number) { return make + 1 }", // a parameter named make: not a use
    ].join("\n"),
    "src/use-barrel.tsx": [
      'import { make } from "./barrel";',
      'import * as core from "./core";',
      "const Comp = () => <core.default />;",
      "export const a = make(2), b = core.make(3);",
      "export const c: core.Made = { n: 1 };",
    ].join("\n"),
    "src/use-renamed.ts": 'import { build as b2 } from "./renamed";\nexport const x = b2(4);\n',
    "src/lazy.ts": 'export async function later() { const m = await import("./core"); return m.make(5) }\n',
    "src/unrelated.ts": "export function make() { return 'other' }\nmake()\n",
  });
}

const sites = (u: { usages: { file: string; line: number; kind: string }[] }) => u.usages.map((x) => `${x.file}:${x.line}:${x.kind}`);

describe("kota builtin: usages through the import graph", () => {
  test("a function: direct, through export * and a renaming re-export, namespace, dynamic import, JSDoc", async () => {
    const { kota } = openIndex(usagesRepo());
    ok(await kota.index());
    const u = ok(await kota.usages({ symbol: "make", file: "src/core.ts" }));
    expect(u.definedIn).toEqual([{ file: "src/core.ts", line: 2 }]);
    expect(sites(u)).toEqual([
      "src/core.ts:1:type", // {@link make}
      "src/core.ts:6:call",
      "src/core.ts:8:call",
      "src/lazy.ts:1:call", // m.make(5) on `await import("./core")`
      "src/renamed.ts:1:reexport",
      "src/renamed.ts:1:reexport", // `make as build`: both names
      "src/use-barrel.tsx:1:import",
      "src/use-barrel.tsx:4:call",
      "src/use-barrel.tsx:4:call", // core.make(3)
      "src/use-direct.ts:1:import",
      "src/use-direct.ts:3:call",
      "src/use-renamed.ts:1:import",
      "src/use-renamed.ts:1:import", // `build as b2`
      "src/use-renamed.ts:2:call",
    ]);
    // Never by bare name: the other `make` and the parameter named make are not uses.
    expect(u.usages.some((x) => x.file === "src/unrelated.ts" || x.line === 5)).toBe(false);
    expect(u.usages[2]!.context).toBe("const local = make(0)");
  });

  test("the other make is told apart by its file; without a file both are defined", async () => {
    const { kota } = openIndex(usagesRepo());
    ok(await kota.index());
    const other = ok(await kota.usages({ symbol: "make", file: "src/unrelated.ts" }));
    expect(sites(other)).toEqual(["src/unrelated.ts:2:call"]);
    const both = ok(await kota.usages({ symbol: "make" }));
    expect(both.definedIn.map((d) => d.file).sort()).toEqual(["src/core.ts", "src/unrelated.ts"]);
    expect(both.usages.length).toBe(15);
  });

  test("types, JSDoc types, default exports, JSX, local exports", async () => {
    const { kota } = openIndex(usagesRepo());
    ok(await kota.index());
    const made = ok(await kota.usages({ symbol: "Made", file: "src/core.ts" }));
    expect(sites(made)).toEqual([
      "src/core.ts:2:type",
      "src/use-barrel.tsx:5:type",
      "src/use-direct.ts:1:import",
      "src/use-direct.ts:2:type",
      "src/use-direct.ts:3:type",
      "src/use-direct.ts:3:type",
    ]);
    const engine = ok(await kota.usages({ symbol: "Engine", file: "src/core.ts" }));
    expect(sites(engine)).toEqual(["src/use-barrel.tsx:3:jsx", "src/use-direct.ts:1:import", "src/use-direct.ts:4:new"]);
    const local = ok(await kota.usages({ symbol: "local" }));
    expect(sites(local)).toEqual(["src/core.ts:9:export", "src/core.ts:9:export"]);
  });

  test("members: this.x exactly, other receivers by name in dependent files, with a note", async () => {
    const { kota } = openIndex(usagesRepo());
    ok(await kota.index());
    const stop = ok(await kota.usages({ symbol: "Engine.stop" }));
    expect(stop.definedIn).toEqual([{ file: "src/core.ts", line: 6 }]);
    expect(sites(stop)).toEqual(["src/core.ts:5:call"]);
    const start = ok(await kota.usages({ symbol: "start", file: "src/core.ts" }));
    expect(sites(start)).toEqual(["src/use-direct.ts:4:call"]);
    expect(start.note).toContain("matched by name");
  });

  test("limit cuts the list and says how many there are", async () => {
    const { kota } = openIndex(usagesRepo());
    ok(await kota.index());
    const u = ok(await kota.usages({ symbol: "make", file: "src/core.ts", limit: 3 }));
    expect(u.usages.length).toBe(3);
    expect(u.total).toBe(14);
  });
});
