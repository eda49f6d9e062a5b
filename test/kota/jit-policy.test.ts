import { describe, expect, test } from "bun:test";
import { COMMAND_JIT_SCALE, PARSER_JIT_SCALE, scaleJit } from "../../src/kota/jit-policy.ts";

describe("scaleJit", () => {
  test("sets the scale through the runtime's setJITPolicy", () => {
    const set: number[] = [];
    expect(scaleJit(16, { setJITPolicy: (n) => set.push(n) })).toBe(true);
    expect(set).toEqual([16]);
  });

  test("a runtime without setJITPolicy is left as it is", () => {
    expect(scaleJit(16, {})).toBe(false);
    expect(scaleJit(16, null)).toBe(false);
  });

  test("the scales are ones the runtime accepts (finite, at least 1), and this Bun takes them", () => {
    for (const scale of [PARSER_JIT_SCALE, COMMAND_JIT_SCALE]) {
      expect(Number.isFinite(scale) && scale >= 1).toBe(true);
      expect(scaleJit(scale)).toBe(true);
    }
    scaleJit(1); // the test process back to the normal policy
  });
});
