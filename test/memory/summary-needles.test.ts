/** Which summary lines a search scores (summary-needles.ts): folded lines holding a needle, the title never. */
import { describe, expect, test } from "bun:test";
import { linesHolding } from "../../src/memory/summary-needles.ts";

describe("summary lines holding needles", () => {
  const text =
    "Harbour crane log (3 events)\n- e1 note: Crème brûlée at the crane café\n- e2 note: tide tables\n- e3 decision: CRANE hours cut";

  test("lines after the title whose folded text holds any needle, in order, each once", () => {
    const got = linesHolding(text, ["cran", "cafe", "tide"]);
    expect(got.at).toEqual([1, 2, 3]);
    expect(got.lines[3]).toBe("- e3 decision: CRANE hours cut");
    expect(linesHolding(text, ["brul"]).at).toEqual([1]);
    expect(linesHolding(text, ["harb"]).at).toEqual([]);
    expect(linesHolding(text, []).at).toEqual([]);
  });

  test("asked again (kept), the same lines; another needle on the same text still looked up", () => {
    expect(linesHolding(text, ["tide"]).at).toEqual([2]);
    expect(linesHolding(text, ["tide"]).at).toEqual([2]);
    expect(linesHolding(text, ["hour", "tide"]).at).toEqual([2, 3]);
  });
});
