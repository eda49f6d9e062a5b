/**
 * Types a JavaScript file declares and imports in JSDoc (`@typedef`, `@callback`, `@import`,
 * `import("./m").T`), and what `usages X --file F` says when F defines no X: on fixture repositories
 * of our own making.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs, indexedRepo, ok } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const sites = (u: { usages: { file: string; line: number }[] }) => [...new Set(u.usages.map((x) => `${x.file}:${x.line}`))];

const repo = {
  "tools/measure.js": [
    "/** @typedef {{ low: number, high: { at: number } }} Range */",
    "/**",
    " * @callback Visit",
    " * @param {Range} r",
    " */",
    "/**",
    " * @param {number[]} xs",
    " * @returns {Range}",
    " */",
    "export function range(xs) {",
    "  return { low: Math.min(...xs), high: { at: Math.max(...xs) } };",
    "}",
    "",
  ].join("\n"),
  "tools/report.js": [
    "import { range } from './measure.js';",
    "/** @type {import('./measure.js').Range} */",
    "const r = range([1]);",
    "/** @param {import('./measure.js').Visit} v */",
    "export function walk(v) {",
    "  v(r);",
    "}",
    "",
  ].join("\n"),
  "tools/tagged.mjs":
    "/** @import { Range as R } from './measure.js' */\n/** @param {R} r */\nexport function low(r) {\n  return r.low;\n}\n",
  "tools/lines.js":
    "/**\n * @import {\n *   range,\n *   Range as Span\n * }\n * from './measure.js'\n */\n/** @type {Span} */\nexport const s = { low: 0, high: { at: 1 } };\n",
  // In a .ts file JSDoc types are prose to TypeScript: no symbol, no import.
  "lib/typed.ts": "/** @typedef {string} Range */\n/** @type {import('../tools/measure.js').Range} */\nexport const t = 1;\n",
  "lib/other.ts": "export type Range = [number, number];\n",
};

describe("kota builtin: JSDoc types in JavaScript files", () => {
  test("@typedef and @callback are type symbols; {Name}, import('./m').Name and @import are their uses", async () => {
    const { kota } = await indexedRepo(repo);
    const range = ok(await kota.usages({ symbol: "Range", file: "tools/measure.js" }));
    expect(range.definedIn).toEqual([{ file: "tools/measure.js", line: 1 }]);
    expect(sites(range)).toEqual([
      "tools/lines.js:4",
      "tools/lines.js:8",
      "tools/measure.js:4",
      "tools/measure.js:8",
      "tools/report.js:2",
      "tools/tagged.mjs:1",
      "tools/tagged.mjs:2",
    ]);
    expect(sites(ok(await kota.usages({ symbol: "Visit", file: "tools/measure.js" })))).toEqual(["tools/report.js:4"]);
    const deps = ok(await kota.deps({ file: "tools/tagged.mjs", direction: "dependencies" }));
    expect(deps.dependencies.direct).toEqual(["tools/measure.js"]);
    // The .ts file's JSDoc declares and imports nothing.
    const typed = ok(await kota.deps({ file: "lib/typed.ts", direction: "dependencies" }));
    expect(typed.dependencies.direct).toEqual([]);
    expect((await kota.usages({ symbol: "Range", file: "lib/typed.ts" })).ok).toBe(false);
  });
});

describe("kota builtin: usages X --file F when F defines no X", () => {
  test("a same-named symbol F imports is named as such; one F cannot reach is called unrelated", async () => {
    const { kota } = await indexedRepo({
      "a/model.ts": "export interface Shape {\n  n: number;\n}\n",
      "a/use.ts": "import type { Shape } from './model';\nexport const s: Shape = { n: 1 };\n",
      "b/shape.ts": "export class Shape {}\n",
      "c/alone.ts": "export const x = 1;\n",
    });
    const imported = await kota.usages({ symbol: "Shape", file: "a/use.ts" });
    expect(imported.ok).toBe(false);
    if (!imported.ok)
      expect(imported.message).toBe(
        "a/use.ts defines no symbol Shape; Shape is defined in a/model.ts, which it imports. Pass that as the file, or leave the file out.",
      );
    const alone = await kota.usages({ symbol: "Shape", file: "c/alone.ts" });
    expect(alone.ok).toBe(false);
    if (!alone.ok) {
      expect(alone.message).toStartWith(
        "c/alone.ts defines no symbol Shape and imports none. Unrelated symbols of that name, in files c/alone.ts does not import: a/model.ts, b/shape.ts.",
      );
    }
  });
});
