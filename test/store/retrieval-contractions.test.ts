/**
 * On outputs written for these tests (none comes from a benchmark set): a word the text writes
 * out is still found as its clipping or contraction (`flt` for "float", `cfg` for "config")
 * where that is one part of an identifier whose next or previous part is another word of the
 * query (`FLT_EPSILON` for "float epsilon"); alone, such a short form is not the word.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { contractionForms } from "../../src/store/search/abbreviations.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** Constants of a made-up runtime: the word written out in some names, contracted in others. */
function constants(): { text: string; answer: number } {
  const lines: string[] = [];
  let answer = 0;
  lines.push("const FLOAT_ORDER = little", "const USE_FLOAT = 1");
  for (const k of ["DBL", "LDBL", "DEC", "HALF", "FLT"]) {
    for (let i = 0; i < 30; i++) lines.push(`const ${k}_${["MAX", "MIN", "DIG", "RADIX"][i % 4]}_${i} = ${i * 3}`);
    for (let i = 0; i < 6; i++) lines.push(`const ${k}_WIDTH_${i} = ${i}`);
    lines.push(`const ${k}_EPSILON = 0.000${k.length}19`);
    if (k === "FLT") answer = lines.length;
  }
  return { text: lines.join("\n"), answer };
}

describe("a short form joined to another word of the query", () => {
  test("finds `FLT_EPSILON` for float epsilon though the text writes FLOAT elsewhere", async () => {
    const { text, answer } = constants();
    const { store, source } = await stored(text);
    const hits = top3(store, source, "float epsilon");
    expect(shows(hits.slice(0, 1), answer, "FLT_EPSILON = 0.000319")).toBe(true);
    // The answer leads its hit: the epsilons of the other kinds are not matches of it.
    expect(hits[0]!.lines.filter((l) => l.match).map((l) => l.line)).toEqual([answer]);
  });

  test("does not take a short form that stands alone for the word (`int` is not instructions)", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) lines.push(`  int total_${i} = count(${i});`);
    lines.push("summary: 512 instructions total");
    for (let i = 0; i < 40; i++) lines.push(`  int other_${i} = ${i};`);
    const { store, source } = await stored(lines.join("\n"));
    const hits = top3(store, source, "total instructions");
    expect(shows(hits.slice(0, 1), 41, "512 instructions total")).toBe(true);
    expect(hits.flatMap((h) => h.lines).some((l) => l.match && l.text.includes("int total_"))).toBe(false);
  });
});

describe("contractionForms", () => {
  test("keeps the first letter and later consonants in order, three or four letters, no clipping", () => {
    expect(contractionForms("float")).toEqual(["flt"]);
    expect(contractionForms("message")).toContain("msg");
    expect(contractionForms("config")).toContain("cfg");
    expect(contractionForms("package")).toContain("pkg");
    expect(contractionForms("config")).not.toContain("con");
    expect(contractionForms("tag")).toEqual([]);
    expect(contractionForms("x86")).toEqual([]);
  });
});
