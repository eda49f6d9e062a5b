/**
 * A word and its inflections share one family key (morphology.ts), so two statements saying
 * "time" and "times", "store" and "stored" share those words: -es follows only a sibilant or an o,
 * and a short stem ending consonant-vowel-consonant took a silent e (Porter's *o rule), so
 * "times" is not "tim" + es and "stored" not "stor" + ed ("notes" must not become "not").
 */
import { describe, expect, test } from "bun:test";
import { familyKey, wordForms } from "../../src/memory/morphology.ts";

describe("word families", () => {
  test("inflections of a word ending in a silent e share its key", () => {
    const pairs: [string, string][] = [
      ["time", "times"],
      ["time", "timed"],
      ["store", "stored"],
      ["store", "storing"],
      ["note", "notes"],
      ["hope", "hoped"],
      ["file", "files"],
    ];
    for (const [a, b] of pairs) expect(familyKey(b)).toBe(familyKey(a));
  });

  test("doubled consonants and -es after a sibilant still come off", () => {
    expect(familyKey("hopped")).toBe(familyKey("hop"));
    expect(familyKey("logging")).toBe(familyKey("log"));
    expect(familyKey("boxes")).toBe(familyKey("box"));
    expect(familyKey("fixes")).toBe(familyKey("fix"));
  });

  test("a plural is not read as another word with -es", () => {
    expect(wordForms("notes").map((f) => f.stem)).not.toContain("not");
    expect(wordForms("times").map((f) => f.stem)).not.toContain("tim");
  });
});
