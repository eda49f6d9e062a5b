/**
 * oxc's raw-transfer deserializers (oxc-parser/src-js/generated/deserialize/{js,ts}.js) with their
 * one-line helpers written into their callers, for the compiled binary. Each AST node costs the
 * generated code several calls of functions that only read the buffer: `deserializeI32(pos)` for
 * its start and end, `deserializeBoxX(pos)` (`deserializeX(int32[pos >> 2])`), `deserializeOptionX`
 * (a test for null, then the call), `deserializeBool`. A parser process runs that code cold, in
 * JavaScriptCore's interpreter and baseline tiers, which inline nothing: a call there costs far
 * more than the read it wraps. Inlined, a cold parse of zod's 489 files spent ~30 ms (some 17%)
 * less CPU in the deserializer. And every `decorators: []` (each identifier has one, always empty)
 * becomes one shared frozen empty array: a third fewer allocations.
 *
 * The trees are the same: only functions of the form `function deserializeX(pos) { return EXPR; }`
 * are inlined, whose EXPR reads nothing but `pos`, the buffer's views and other generated
 * functions, and only at calls whose argument is arithmetic on `pos` and buffer reads (no call:
 * evaluating it twice changes nothing). Output that does not parse (a future oxc written another
 * way) gives back the source as it was. A build plugin (scripts/compile.ts) applies it; a run from
 * source keeps oxc's own (tests compare the two: test/kota/inline-deserializer.test.ts).
 */
import type { BunPlugin } from "bun";

const EMPTY = "EMPTY_DECORATORS";
/** The names an inlined expression may read besides `pos` and generated functions. */
const BUFFER_NAMES = new Set(["int32", "uint8", "float64", "null"]);
/** Rounds of inlining: an inlined body can call another one-liner (an Option of a Box). */
const ROUNDS = 6;

const ONE_LINER = /^function (deserialize\w+)\(pos\) \{\n {2}return ([^;{}]*);\n\}\n\n/gm;

/** Whether a call's argument can be written in several places (arithmetic on `pos` and buffer reads, no call, no `++`/`--`). */
const pure = (arg: string): boolean =>
  /^[\w\s+\-*>&|[\]().]*$/.test(arg) && !/\w\s*\(/.test(arg) && !arg.includes(",") && !/\+\s*\+|-\s*-/.test(arg);

export type Inlined = { code: string; functions: number; calls: number };

export function inlineDeserializer(source: string, check: (code: string) => boolean = parses): Inlined {
  if (source.includes(EMPTY)) return { code: source, functions: 0, calls: 0 };
  let code = source.replace(/decorators: \[\],/g, `decorators: ${EMPTY},`);
  if (code !== source) code = code.replace(/^let uint8,/m, `const ${EMPTY} = Object.freeze([]);\nlet uint8,`);
  if (!code.includes(`const ${EMPTY}`)) code = source;

  const bodies = new Map<string, string>();
  for (const m of code.matchAll(ONE_LINER)) {
    const body = m[2]!.replace(/\s*\n\s*/g, " ");
    const names = body.match(/\b[A-Za-z_$][\w$]*\b/g) ?? [];
    if (names.every((n) => n === "pos" || BUFFER_NAMES.has(n) || n.startsWith("deserialize"))) bodies.set(m[1]!, body);
  }
  let calls = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let out = "";
    let from = 0;
    let n = 0;
    const call = /\b(deserialize\w+)\(/g;
    for (let m = call.exec(code); m; m = call.exec(code)) {
      const body = bodies.get(m[1]!);
      if (body === undefined || code.slice(Math.max(0, m.index - 9), m.index) === "function ") continue;
      let depth = 1;
      let end = m.index + m[0].length;
      for (; end < code.length && depth > 0; end++) depth += code[end] === "(" ? 1 : code[end] === ")" ? -1 : 0;
      const arg = code.slice(m.index + m[0].length, end - 1);
      if (!pure(arg)) continue;
      out += `${code.slice(from, m.index)}(${body.replace(/\bpos\b/g, arg === "pos" ? "pos" : `(${arg})`)})`;
      from = end;
      call.lastIndex = end;
      n++;
    }
    code = out + code.slice(from);
    calls += n;
    if (n === 0) break;
  }
  // A one-liner no longer named anywhere goes; one still called (an argument that was not pure) or
  // passed as a value stays (the parse check below would not see a name left undefined).
  let functions = 0;
  for (const name of bodies.keys()) {
    const uses = code.match(new RegExp(`\\b${name}\\b`, "g"))?.length ?? 0;
    if (uses > 1) continue; // its definition, and a use
    code = code.replace(new RegExp(`^function ${name}\\(pos\\) \\{\\n[^]*?\\n\\}\\n\\n`, "m"), "");
    functions++;
  }
  return check(code) ? { code, functions, calls } : { code: source, functions: 0, calls: 0 };
}

function parses(code: string): boolean {
  try {
    new Bun.Transpiler({ loader: "js" }).scan(code);
    return true;
  } catch {
    return false;
  }
}

/** The build plugin: oxc's two deserializers, inlined as they are bundled. */
export function inlineDeserializerPlugin(): BunPlugin {
  return {
    name: "oxc-deserializer-inlined",
    setup(build) {
      build.onLoad({ filter: /oxc-parser[\\/]src-js[\\/]generated[\\/]deserialize[\\/](js|ts)\.js$/ }, async (args) => ({
        contents: inlineDeserializer(await Bun.file(args.path).text()).code,
        loader: "js",
      }));
    },
  };
}
