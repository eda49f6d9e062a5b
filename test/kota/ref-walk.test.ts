/**
 * The reference walk's dispatch: node types without children (literals, `this`, keyword types,
 * template text) end the walk at once, and only `require(...)` and `import(...).then(...)` calls go
 * through the binding rules. On sources of our own making, through extractFacts.
 */
import { describe, expect, test } from "bun:test";
import visitorKeys from "oxc-parser/src-js/generated/visit/keys.js";
import { extractFacts } from "../../src/kota/builtin/parse/extract.ts";
import type { RefGroup } from "../../src/kota/builtin/parse/facts.ts";
import { FUNCTIONS, KIND, MEMBER_KEYED, SIGNATURES, WALK_KIND } from "../../src/kota/builtin/parse/ref-scope.ts";

const keys = visitorKeys as unknown as Record<string, readonly string[]>;
/** Each site of each group as `importIdx .name site`, in the order the groups were made. */
const at = (refs: RefGroup[]) =>
  refs.flatMap(([i, name, , member, , sites]) => sites.split(",").map((s) => `${i ?? "-"} ${member ? "." : ""}${name} ${s}`));

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
    const refs = at(extractFacts("f.tsx", source).refs);
    expect(refs).toEqual(["0 a 1:10i", "0 a 3:10c", "0 a 3:16v", "0 a 3:64v", "0 T 1:13i", "0 T 2:46t"]);
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
    expect(at(facts.refs)).toEqual(["- .require 2:17c", "- .then 3:18c", "- .then 4:7c", "1 go 3:32c", "- .go 4:21c", "0 run 5:3c"]);
  });
});

describe("member access", () => {
  test("`this.f`, `ns.a`, `util.foo`, `top.x`, `local.x` and a chain: the module export, the dotted chain, the use, the member", () => {
    const source = [
      'import * as ns from "./n";',
      'import { util } from "./u";',
      "const top = 1;",
      "export class K {",
      "  m(local: { x: number }) {",
      "    return this.f + ns.a + util.foo + top.toFixed + local.x + ns.b.c;",
      "  }",
      "}",
      "",
    ].join("\n");
    const refs = extractFacts("k.ts", source).refs;
    const owned = refs.filter((g) => g[2] !== null).map(([, name, owner]) => `${owner}#${name}`);
    expect(owned).toEqual(["K#f"]);
    expect(at(refs)).toEqual([
      "1 util 2:10i",
      "1 util 6:28v",
      "- .f 6:17p",
      "0 a 6:24p",
      "1 util.foo 6:33p",
      "- .foo 6:33p",
      "- top 6:39v",
      "- .toFixed 6:43p",
      "- .x 6:59p",
      "0 b.c 6:68p",
      "0 b 6:66p",
      "- .c 6:68p",
    ]);
  });
});
