/**
 * The character tests search runs per row and per occurrence, written without sets, patterns or
 * strings made for the purpose: they must say what the forms they replaced said.
 */
import { describe, expect, test } from "bun:test";
import { decimalWidth } from "../../src/store/search/draft.ts";
import { makeTerm, occurrences } from "../../src/store/search/lines.ts";
import { headersOf, structureOf } from "../../src/store/search/structure.ts";

describe("decimalWidth", () => {
  test("is the length of the integer written out", () => {
    const samples = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 65535, 99999, 100000, 1234567, 2 ** 31, 10 ** 15 - 1, 10 ** 15];
    for (const n of [...samples, ...samples.map((x) => -x)]) expect(decimalWidth(n)).toBe(String(n).length);
  });
});

describe("headings: a row led or ended by a run of rule characters", () => {
  const headingRows = (rows: string[]) => {
    const s = structureOf(rows, true);
    return rows.flatMap((_, r) => (s.heading[r] === r ? [r] : []));
  };

  test("each of = _ - * # ~ + @ leads a heading; other punctuation does not", () => {
    for (const c of ["=", "_", "-", "*", "#", "~", "+", "@"]) {
      const rows = ["intro line", `${c}${c}${c} Section two`, "body of the section", "more of it"];
      expect(headingRows(rows)).toEqual([1]);
    }
    for (const c of ["!", "%", "&", "/", ":", "^"]) {
      const rows = ["intro line", `${c}${c}${c} Section two`, "body of the section", "more of it"];
      expect(headingRows(rows)).toEqual([]);
    }
  });

  test("a row ending with a run of rule characters is one too", () => {
    expect(headingRows(["intro line", "Results ====", "a row", "another row"])).toEqual([1]);
    expect(headingRows(["intro line", "Results !!!!", "a row", "another row"])).toEqual([]);
  });
});

describe("occurrences: whole tokens, keys and numbers", () => {
  const found = (line: string, word: string) => {
    const lower = line.toLowerCase();
    return occurrences(line, lower, [makeTerm("concept", [word], /^\d+$/.test(word), 0)], 10);
  };

  test("a word before a sentence's or a list's punctuation is a whole token; before a dot inside a name it is not", () => {
    for (const end of [",", ".", ";", ":", ")", "]", "}"]) expect(found(`saw quokka${end} then`, "quokka")[0]?.whole).toBe(true);
    expect(found("saw quokka.js then", "quokka")[0]?.whole).toBe(false);
    expect(found("saw quokka! then", "quokka")[0]?.whole).toBe(false);
  });

  test("a key is what a value follows, past closing quotes and brackets", () => {
    for (const line of ['{"quokka": 3}', "['quokka']= 3", "fn(quokka) = 3", "`quokka`: 3"])
      expect(found(line, "quokka")[0]?.key).toBe(true);
    expect(found("a quokka} = 3", "quokka")[0]?.key).toBe(false);
  });

  test("a number is matched whole: not as the start of a longer number", () => {
    expect(found("exit 42", "42").map((o) => o.at)).toEqual([5]);
    expect(found("exit 421 and 42.5", "42")).toEqual([]);
    expect(found("exit 42, 42a", "42").map((o) => o.at)).toEqual([5, 9]);
  });

  test("a word after 0, no or zero is there to say there is none; after 10, v.0 or piano it is not", () => {
    for (const line of ["0 quokkas", "tests: 0 quokkas", "(0 quokkas", "no quokkas", "zero quokkas", "found no quokkas"])
      expect(found(line, "quokka")[0]?.zero).toBe(true);
    for (const line of ["10 quokkas", "v.0 quokkas", "piano quokkas", "zero  quokkas", "no\tquokkas", "0quokkas"])
      expect(found(line, "quokka")[0]?.zero ?? false).toBe(false);
  });
});

describe("structure: what is worked out only when asked", () => {
  test("right-aligned columns are siblings, an indented line under a row is its child", () => {
    const numbers = structureOf(["12577 root   ssh", "    1 root   init", "        sub detail of init"], true);
    expect([...numbers.owner]).toEqual([-1, -1, 1]);
    const fields = structureOf(["struct point {", "   size_t Name;", "     bool Flag;", "}"], true);
    expect([...fields.owner]).toEqual([-1, 0, 0, -1]);
    const nested = structureOf(["parent line", "  child line", "    grandchild line"], true);
    expect([...nested.owner]).toEqual([-1, 0, 1]);
  });

  test("a table's column names are found over a rule for every row under it, asked in any order", () => {
    const rows = ["Intro text", "", "Name    Count", "------  -----", "alpha   3", "beta    4", "gamma   5", "delta   6"];
    const s = structureOf(rows, true);
    for (const r of [7, 4, 6, 5]) expect(headersOf(s, r, rows)).toContain(2);
    const other = ["Intro text", "", "Name    Count", "-------------------------------", "alpha   3", "beta    4"];
    const t = structureOf(other, true);
    for (const r of [5, 4]) expect(headersOf(t, r, other)).not.toContain(2);
  });
});
