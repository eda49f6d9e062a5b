import { describe, expect, test } from "bun:test";
import { loadBinding } from "../../src/kota/builtin/parse/oxc-binding.ts";
import { type RawBinding, rawParser } from "../../src/kota/builtin/parse/oxc-raw.ts";

const binding = loadBinding();
const OPTIONS = { preserveParens: false };

/** Regex and BigInt literals: JSON carries no value for them (null), raw transfer builds the object; nothing reads either. */
const comparable = (_key: string, v: unknown) =>
  v && typeof v === "object" && (v as { type?: string }).type === "Literal" && ("regex" in v || "bigint" in v) ? { ...v, value: null } : v;
const viaJson = (file: string, source: string) => JSON.parse(binding!.parseSync(file, source, OPTIONS).program).node;

const SOURCES: [string, string][] = [
  [
    "a.ts",
    `import type { A } from "./a";\nimport * as ns from 'ns';\nexport * as util from "./util";\n` +
      `/** {@link A} */\nexport abstract class K<T extends A = A> implements ns.I<T> {\n  private constructor(readonly x?: T, @dec() y = 1n) { super(); }\n` +
      `  static #p = /a[b]+/gu;\n  abstract m(): void;\n  get v(): T | undefined { return this.x?.["k"] as T; }\n}\n` +
      `declare module "./m" { interface I { z: typeof ns.q } }\nenum E { X = 1 << 2, Y }\nexport default function* g() { yield* [1]; }\n` +
      "const t = tag`a$" +
      "{'\u00e9\u{1F600}'}b`; label: for (const [a, ...b] of []) break label;\n",
  ],
  ["b.tsx", `export const C = <T,>(p: { v: T }) => <ns.X a={p.v} {...p}><>text \u00fc</></ns.X>;\n`],
  ["c.js", `#!/usr/bin/env node\nconst m = require("./m"); module.exports = async () => (await import(\`./x\`)).y ?? 0x1fn;\n`],
  ["d.ts", "export declare const x: number;\nexport function f(a: string): void;\n"],
  ["broken.ts", "import { a } from './a';\nexport const = ;\n"],
  ["empty.ts", ""],
];

describe("oxc raw transfer", () => {
  test.skipIf(!binding)("gives the same tree, module record, comments and errors as the JSON transfer", () => {
    const parse = rawParser(binding!);
    expect(parse).not.toBeNull();
    for (const [file, source] of SOURCES) {
      const raw = parse!(file, source, OPTIONS);
      const json = binding!.parseSync(file, source, OPTIONS);
      expect(JSON.stringify(raw.program, comparable)).toBe(JSON.stringify(viaJson(file, source), comparable));
      expect(raw.module).toEqual(json.module);
      expect(raw.comments.filter((c) => c.type === "Block")).toEqual(json.comments.filter((c) => c.type === "Block"));
      expect(raw.errors.map((e) => [e.message, e.labels.map((l) => l.start)])).toEqual(
        json.errors.map((e) => [e.message, e.labels.map((l) => l.start)]),
      );
    }
  });

  test.skipIf(!binding)("leaves out the comments when not wanted, and the module record of a file that parsed cleanly", () => {
    const parse = rawParser(binding!)!;
    const clean = "/** doc */\nimport { q } from './q';\nexport * from './r';\nexport const v = q(import.meta.url, import('./s'));\n";
    const full = parse("clean.ts", clean, OPTIONS); // nothing said: every list built
    expect(full.comments).toHaveLength(1);
    expect(full.module.staticImports).toHaveLength(1);
    const lean = parse("clean.ts", clean, OPTIONS, { comments: false });
    expect(JSON.stringify(lean.program)).toBe(JSON.stringify(full.program));
    expect(lean.comments).toEqual([]);
    expect(lean.module).toEqual({ hasModuleSyntax: true, staticImports: [], staticExports: [], dynamicImports: [], importMetas: [] });
    // Comments wanted, no errors: the comments only.
    const docs = parse("clean.ts", clean, OPTIONS, { comments: true });
    expect(docs.comments).toEqual(full.comments);
    expect(docs.module.staticImports).toEqual([]);
    // A file with errors keeps its module record (its imports are salvaged from it).
    const broken = "/* c */ import { a } from './a';\nexport * from './b';\nexport const = ;\n";
    const kept = parse("broken.ts", broken, OPTIONS, { comments: false });
    const json = binding!.parseSync("broken.ts", broken, OPTIONS);
    expect(kept.errors.length).toBeGreaterThan(0);
    expect(kept.module).toEqual(json.module);
    expect(kept.comments).toEqual([]);
  });

  test.skipIf(!binding)("reuses its buffer: a long file then a short one leaves nothing of the first", () => {
    const parse = rawParser(binding!)!;
    const long = `export const a = [${"1,".repeat(20000)}];\n`;
    parse("long.ts", long, OPTIONS);
    const short = parse("short.ts", "let b = 2;", OPTIONS);
    expect(JSON.stringify(short.program)).toBe(JSON.stringify(viaJson("short.ts", "let b = 2;")));
  });

  test("is not used where the binding cannot do it, or no aligned buffer is found", () => {
    expect(rawParser({})).toBeNull();
    const noRaw: RawBinding = { rawTransferSupported: () => false, getBufferOffset: () => 0, parseRawSync: () => undefined };
    expect(rawParser(noRaw)).toBeNull();
    let asked = 0;
    const misaligned: RawBinding = {
      rawTransferSupported: () => true,
      getBufferOffset: () => {
        asked++;
        return 2 ** 32 - 1024; // no 2 GiB block fits after this offset
      },
      parseRawSync: () => undefined,
    };
    expect(rawParser(misaligned)).toBeNull();
    expect(asked).toBe(3);
  });
});
