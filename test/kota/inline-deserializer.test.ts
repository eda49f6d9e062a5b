import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inlineDeserializer } from "../../scripts/inline-deserializer.ts";
import { loadBinding } from "../../src/kota/builtin/parse/oxc-binding.ts";
import { type Deserializers, rawParser } from "../../src/kota/builtin/parse/oxc-raw.ts";
import { cleanupTempDirs, tempDir } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const binding = loadBinding();
const OPTIONS = { preserveParens: false };
const generated = (kind: "js" | "ts") =>
  readFileSync(join(import.meta.dir, `../../node_modules/oxc-parser/src-js/generated/deserialize/${kind}.js`), "utf8");

/** The build's deserializers: oxc's, inlined, loaded from files of their own. */
async function inlinedDeserializers(): Promise<Deserializers> {
  const dir = tempDir("inline-deser-");
  const load = async (kind: "js" | "ts") => {
    const file = join(dir, `${kind}.js`);
    writeFileSync(file, inlineDeserializer(generated(kind)).code);
    return ((await import(file)) as { deserialize: Deserializers["js"] }).deserialize;
  };
  return { js: await load("js"), ts: await load("ts") };
}

/** BigInt and RegExp values written out, so that trees compare as text. */
const text = (v: unknown) =>
  JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x instanceof RegExp ? `/${x.source}/${x.flags}` : x));

const SOURCES: [string, string][] = [
  [
    "deco.ts",
    "@sealed class Q<T = unknown> extends Base<T> implements I {\n  constructor(@inject() private readonly s?: S, ...rest: number[]) { super(); }\n" +
      "  @log() m<K extends keyof T>(k: K, { a = 1, b: [c] }: Opts = {}): T[K] | null { return this.s?.get?.(k) ?? null; }\n" +
      "  static { let z = 10n ** 2n; }\n  #h = /x(?<g>y)+$/dgimsuy;\n}\n",
  ],
  [
    "types.ts",
    'import type D, { type E as F } from "./d";\nexport type M<T> = { readonly [P in keyof T]-?: T[P] extends infer U extends string ? `a$' +
      "{U}` : never };\n" +
      "declare global { interface W { v: typeof import('./w').v } }\nnamespace N.O { export const p = 1 as const satisfies number; }\n" +
      "export = N;\nlet a!: D<F>, b = <any>a, c = a!.x;\nabstract class R { abstract get g(): string; }\nenum S { A = 'a', B = A.length }\n",
  ],
  [
    "plain.js",
    "#!/usr/bin/env node\n'use strict';\nconst { x, ...y } = require('./m');\nlabel: for (let i = 0, j; i < 3; i++) { if (i) continue label; else break; }\n" +
      "export default async function* g() { for await (const v of y) yield v?.[0]; }\nnew.target; import.meta.url; (a, b) => ({ ...a, [b]: `t$" +
      "{a}\\u00e9` });\n" +
      "switch (x) { case 1: try { throw 0 } catch { } finally { } default: debugger; }\nvar o = { get p() { return 1 }, set p(v) {}, q() {}, 'r s': 0x1n };\n",
  ],
  ["view.tsx", "/** doc */\nexport const C = <T,>(p: { v: T }) => <ns.X a={p.v} {...p} b='é \u{1F600}'><>text {p.v}</></ns.X>;\n"],
  ["broken.ts", "/* c */ import { a } from './a';\nexport * from './b';\nexport const = ;\n"],
  ["empty.ts", ""],
];

describe("oxc's deserializers inlined for the build", () => {
  test.skipIf(!binding)("give the same tree, module record, comments and errors as oxc's own", async () => {
    const own = rawParser(binding!)!;
    const inlined = rawParser(binding!, await inlinedDeserializers())!;
    for (const [file, source] of SOURCES) {
      for (const want of [undefined, { comments: false }, { comments: true }]) {
        expect(text(inlined(file, source, OPTIONS, want))).toBe(text(own(file, source, OPTIONS, want)));
      }
    }
  });

  test("inline the one-line helpers into their callers and share one frozen empty decorator list", () => {
    for (const kind of ["js", "ts"] as const) {
      const source = generated(kind);
      const r = inlineDeserializer(source);
      expect(r.functions).toBeGreaterThan(100);
      expect(r.calls).toBeGreaterThan(r.functions);
      for (const helper of ["deserializeI32", "deserializeBool", "deserializeBoxIdentifierReference"]) {
        expect(source).toContain(`function ${helper}(pos)`);
        expect(r.code).not.toContain(`${helper}(`);
      }
      if (kind === "ts") {
        expect(r.code).not.toContain("decorators: [],");
        expect(r.code).toContain("const EMPTY_DECORATORS = Object.freeze([]);");
      }
      expect(inlineDeserializer(r.code).calls).toBe(0); // nothing left to do the second time
    }
  });

  test("inline only where the argument can be evaluated twice, and only expressions of the buffer", () => {
    const source =
      "let uint8,\n  int32;\n\n" +
      "function deserializeI32(pos) {\n  return int32[pos >> 2];\n}\n\n" +
      "function deserializeOther(pos) {\n  return other(pos);\n}\n\n" +
      "function deserializeA(pos) {\n  return { start: deserializeI32(pos), end: deserializeI32(pos + 4), x: deserializeI32(next()), y: deserializeOther(pos) };\n}\n";
    const r = inlineDeserializer(source);
    expect(r.calls).toBe(2);
    expect(r.code).toContain("start: (int32[pos >> 2]), end: (int32[(pos + 4) >> 2])");
    expect(r.code).toContain("x: deserializeI32(next())"); // a call as the argument: left a call
    expect(r.code).toContain("function deserializeI32(pos)"); // still called, so kept
    expect(r.code).toContain("y: deserializeOther(pos)"); // reads a name that is not the buffer's
  });

  test("leave a call whose argument steps a counter: the body reads it twice", () => {
    const source =
      "let uint8,\n  int32;\n\n" +
      "function deserializeSpan(pos) {\n  return int32[pos] + int32[pos + 1];\n}\n\n" +
      "function deserializeA(pos) {\n  return [deserializeSpan(pos++), deserializeSpan(pos--)];\n}\n";
    const r = inlineDeserializer(source);
    expect(r.code).toContain("[deserializeSpan(pos++), deserializeSpan(pos--)]");
    expect(r.calls).toBe(0);
  });

  test("keep a one-liner that is passed as a value, though every call of it is inlined", () => {
    const source =
      "let uint8,\n  int32;\n\n" +
      "function deserializeI32(pos) {\n  return int32[pos >> 2];\n}\n\n" +
      "function deserializeA(pos) {\n  return [deserializeI32(pos), deserializeVec(pos, deserializeI32)];\n}\n";
    const r = inlineDeserializer(source);
    expect(r.code).toContain("[(int32[pos >> 2]), deserializeVec(pos, deserializeI32)]");
    expect(r.code).toContain("function deserializeI32(pos)");
  });

  test("give back the source unchanged when the result would not parse", () => {
    const source = generated("ts");
    expect(inlineDeserializer(source, () => false).code).toBe(source);
  });
});
