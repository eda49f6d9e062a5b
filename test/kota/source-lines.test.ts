/**
 * The line map answers offsets in any order: a walk asks mostly in source order (the fast path
 * that checks the last answer's line and the next), symbols ask for their end far ahead, errors
 * anywhere. Every answer must equal a plain scan over the line starts.
 */
import { describe, expect, test } from "bun:test";
import { lineMap } from "../../src/kota/builtin/parse/source-lines.ts";

/** The 1-based line of `offset`, by counting the newlines before it. */
function slowLine(source: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < source.length; i++) if (source[i] === "\n") line++;
  return line;
}

describe("lineMap", () => {
  const source = "alpha\n\nbeta gamma\n\n\ndelta\r\nepsilon\nlast line without newline";

  test("forward, backward, repeated, jumping and out-of-range offsets all get the counted line", () => {
    const offsets: number[] = [];
    for (let o = 0; o <= source.length + 3; o++) offsets.push(o); // forward, one by one
    for (let o = source.length; o >= 0; o -= 3) offsets.push(o); // backward
    offsets.push(0, 0, 7, 7, 7, source.length - 1, 1, source.indexOf("delta"), source.indexOf("delta") + 1, -1, 2);
    // a fixed shuffle (a linear congruential sequence, no randomness between runs)
    let x = 12345;
    for (let i = 0; i < 200; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      offsets.push(x % (source.length + 5));
    }
    const map = lineMap(source);
    for (const o of offsets) expect([o, map.line(o)]).toEqual([o, o < 0 ? 1 : slowLine(source, o)]);
  });

  test("after a jump ahead, the lines in between are still answered right", () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join("\n");
    const map = lineMap(text);
    const at = (n: number) => map.start(n) + 2;
    expect(map.line(at(40))).toBe(40);
    expect(map.line(at(3))).toBe(3);
    expect(map.line(at(4))).toBe(4);
    expect(map.line(at(6))).toBe(6);
    expect(map.line(at(50))).toBe(50);
    expect(map.line(text.length + 10)).toBe(50);
    expect(map.column(at(6))).toBe(3);
  });
});
