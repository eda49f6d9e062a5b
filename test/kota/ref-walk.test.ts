/**
 * The reference walk's dispatch: node types without children (literals, `this`, keyword types,
 * template text) end the walk at once, and only `require(...)` and `import(...).then(...)` calls go
 * through the binding rules. On sources of our own making, through extractFacts.
 */
import { describe, expect, test } from "bun:test";
import visitorKeys from "oxc-parser/src-js/generated/visit/keys.js";
import { extractFacts } from "../../src/kota/builtin/parse/extract.ts";
import type { RefFact } from "../../src/kota/builtin/parse/facts.ts";
import { FUNCTIONS, KIND, MEMBER_KEYED, SIGNATURES, WALK_KIND } from "../../src/kota/builtin/parse/ref-scope.ts";

const keys = visitorKeys as unknown as Record<string, readonly string[]>;
const at = (r: RefFact) => `${r.importIdx ?? "-"} ${r.member ? "." : ""}${r.name} ${r.kind} ${r.line}:${r.col}`;

describe("leaf node types", () => {
  test("are exactly the types without child keys that the walk takes no other way", () => {
    const leaves = [...WALK_KIND].filter(([, k]) => k === KIND.leaf).map(([t]) => t);
    const childless = Object.keys(keys).filter(
      (t) => keys[t]!.length === 0 && !FUNCTIONS.has(t) && !SIGNATURES.has(t) && !MEMBER_KEYED.has(t),
    );
    expect(leaves.sort()).toEqual(childless.sort());
    for (const t of ["Literal", "ThisExpression", "TemplateElement", "TSStringKeyword", "JSXText"])
      expect(WALK_KIND.get(t)).toBe(KIND.leaf);
    for (const t of ["Identifier", "TemplateLiteral", "TSTypeReference", "JSXExpressionContainer"])
      expect(WALK_KIND.get(t)).not.toBe(KIND.leaf);
  });

  test("a reference among literals, `this`, keyword types and template text is still found", () => {
    const source = [
      'import { a, T } from "./m";',
      "export function f(this: unknown, n: number): T<string, 1> {",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      '  return a(`x${a}y`, 1, "s", null, this, /r/, 2n, -n, <b>text {a}</b>);',
      "}",
      "",
    ].join("\n");
    const refs = extractFacts("f.tsx", source).refs.map(at);
    expect(refs).toEqual(["0 a import 1:10", "0 T import 1:13", "0 T type 2:46", "0 a call 3:10", "0 a value 3:16", "0 a value 3:64"]);
  });
});

describe("calls and the binding rules", () => {
  test("`require` and `import().then` as callees bind; the same names elsewhere are plain calls", () => {
    const source = [
      'const m = require("./req");',
      'const n = tools.require("./not");',
      'import("./lazy").then((x) => x.go());',
      "later.then((y) => y.go());",
      "m.run();",
      "",
    ].join("\n");
    const facts = extractFacts("c.js", source);
    expect(facts.imports.map((i) => `${i.specifier} ${i.kind}`)).toEqual(["./req require", "./lazy dynamic"]);
    expect(facts.refs.map(at)).toEqual([
      "- .require call 2:17",
      "- .then call 3:18",
      "1 go call 3:32",
      "- .then call 4:7",
      "- .go call 4:21",
      "0 run call 5:3",
    ]);
  });
});
