/** The bracket-depth guard the parser process runs before the native parser (parse/nesting.ts). */
import { describe, expect, test } from "bun:test";
import { MAX_NESTING, nestingProblem } from "../../src/kota/builtin/parse/nesting.ts";

describe("nesting guard", () => {
  test("refuses a text nested deeper than the limit, naming the line of the first bracket past it", () => {
    const text = `const a = 1;\n// é 中\n${"(".repeat(3)}\n${"[{".repeat(MAX_NESTING)}`;
    expect(nestingProblem(text)).toEqual({
      line: 4,
      message: `brackets nested more than ${MAX_NESTING} levels deep: not parsed (only its text is searchable)`,
    });
  });

  test("exactly the limit passes; one more is refused; closers bring the depth down", () => {
    expect(nestingProblem("(".repeat(5), 5)).toBeNull();
    expect(nestingProblem("(".repeat(6), 5)?.line).toBe(1);
    expect(nestingProblem("((()))".repeat(100), 3)).toBeNull();
    expect(nestingProblem(`${"({[".repeat(2)}${")]}".repeat(2)}x\n(((`, 6)).toBeNull();
  });

  test("a closer without an opener does not lower the depth below zero", () => {
    expect(nestingProblem(`${")".repeat(10)}\n((((`, 3)).toEqual({ line: 2, message: expect.stringContaining("more than 3") });
  });

  test("brackets of other scripts and characters past ASCII do not count", () => {
    expect(nestingProblem("（［｛".repeat(50), 3)).toBeNull();
  });
});
