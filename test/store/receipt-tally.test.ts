/**
 * Totals and counts in a generic receipt: the lines a tool prints last to say how it went, found by
 * their form (a counted outcome, a list of counts, a total), never the per-record zero counts; TAP's
 * "not ok" points; lines of one shape shown once so more distinct lines fit.
 */
import { describe, expect, test } from "bun:test";
import { analyzeOutput } from "../../src/store/receipt/analyze.ts";
import { distinct, SCORE, scoreLine, shapeOf } from "../../src/store/receipt/line-score.ts";
import { TALLY, tallyScore } from "../../src/store/receipt/tally.ts";

describe("tallyScore", () => {
  test("a non-zero count of a bad outcome, in either order, weighs most", () => {
    for (const t of ["# fail 3", "12 runs, 4 failures, 0 errors", "Failed: 2", "errored=1", "  <!-- cancelled 2 -->"])
      expect([t, tallyScore(t)]).toEqual([t, TALLY.bad]);
  });
  test("other counts, lists of counts and totals count for less", () => {
    for (const t of ["# pass 40", "3 files changed, 10 insertions(+), 2 deletions(-)", "Total elapsed: 3.2s", "1200 total", "skipped 4"])
      expect([t, tallyScore(t)]).toEqual([t, TALLY.count]);
  });
  test("a labelled count ('Number of X: N') counts; the words without a number, or in prose, do not", () => {
    expect(tallyScore("Number of removed entries: 4 (dirs: 1)")).toBe(TALLY.count);
    expect(tallyScore("number of open handles = 12")).toBe(TALLY.count);
    expect(tallyScore("Number of entries: none")).toBe(0);
    expect(tallyScore("the number of retries grows with 3 backoff steps")).toBe(0);
  });

  test("the version a tool reports counts; an XML declaration's does not", () => {
    expect(tallyScore("engine version: 4.12.1")).toBe(TALLY.count);
    expect(tallyScore("Version: 1:2.36-9+deb12u4")).toBe(TALLY.count);
    expect(tallyScore('-- Found Foo: /usr/lib/libfoo.so (found version "2.3.4")')).toBe(TALLY.count);
    expect(tallyScore('<?xml version="1.0" encoding="UTF-8"?>')).toBe(0);
    expect(tallyScore("see the versions page, item 4")).toBe(0);
  });

  test("a labelled date counts, in RFC 5322 or ISO 8601 form; a log line's own timestamp does not", () => {
    expect(tallyScore("    Valid Until: Mar  4 10:11:12 2031 GMT")).toBe(TALLY.count);
    expect(tallyScore("renewal due: 2031-03-04")).toBe(TALLY.count);
    expect(tallyScore("2031-03-04 10:11:12 INFO worker: started")).toBe(0);
  });

  test("zero failures alone, identifiers, calls and paths state no count", () => {
    for (const t of [
      "Found 0 errors",
      "item 4: qty=1 errors=0",
      "TestCart#test_total_price = 0.01 s = .",
      "  sum = total(xs, 3)",
      "    at run (node:internal/test_runner/test:796:25)",
      "no digits here: total failure",
    ])
      expect([t, tallyScore(t)]).toEqual([t, 0]);
  });
});

describe("generic receipts", () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => `processing shard ${i}: fetched page ${i * 7}`);

  test("the closing totals make the important lines even when failures fill them", () => {
    const failures = Array.from({ length: 20 }, (_, i) => [
      `not ok ${i + 1} - case number ${i} of the widget suite`,
      "  ---",
      "  ...",
    ]).flat();
    const text = [...rows(50), ...failures, "1..20", "# tests 31", "# pass 11", "# fail 20", "# duration_ms 12.5"].join("\n");
    const a = analyzeOutput(text);
    const shown = a.important.map((l) => l.text);
    expect(shown).toContain("# fail 20");
    expect(shown).toContain("not ok 1 - case number 0 of the widget suite");
  });

  test("a summary stanza after a listing: its totals, not the listing's rows", () => {
    const text = [...rows(80), "", "Summary:", "  Files scanned: 80", "  Total bytes: 91234", "  Elapsed: 1.5s"].join("\n");
    const shown = analyzeOutput(text).important.map((l) => l.text);
    expect(shown).toContain("  Total bytes: 91234");
    expect(shown.some((t) => t.startsWith("processing shard"))).toBe(false);
  });

  test("the numbers under a heading that announces totals, indented under it or up to a blank line", () => {
    const text = [
      ...rows(80),
      "==42== HEAP REPORT SUMMARY:",
      "==42==    kept alive: 512 bytes in 3 blocks",
      "==42==    released: 9 bytes in 1 blocks",
      "==42== ",
      "Scan statistics",
      "Widgets seen: 41",
      "Gadgets seen: 7",
      "",
      "done",
    ].join("\n");
    const shown = analyzeOutput(text).important.map((l) => l.text);
    expect(shown).toContain("==42==    kept alive: 512 bytes in 3 blocks");
    expect(shown).toContain("==42==    released: 9 bytes in 1 blocks");
    expect(shown).toContain("Widgets seen: 41");
    expect(shown).toContain("Gadgets seen: 7");
  });

  test("a line that states its own total is not a heading: ls -l's rows stay out", () => {
    const listing = Array.from({ length: 60 }, (_, i) => `-rw-r--r-- 1 root root ${1000 + i * 37} Jan  ${(i % 28) + 1} 2024 file-${i}.txt`);
    const shown = analyzeOutput(["total 2756", ...listing].join("\n")).important.map((l) => l.text);
    expect(shown.some((t) => t.startsWith("-rw-r--r--"))).toBe(false);
  });

  test("per-record counts repeated down a listing are records, not a summary", () => {
    const text = Array.from({ length: 90 }, (_, i) => `batch ${i}: 3 failed, 9 passed`).join("\n");
    const shown = analyzeOutput(text).important.filter((l) => l.score === TALLY.bad);
    expect(shown).toEqual([]);
  });
});

describe("lines of one shape", () => {
  test("numbers and addresses are set aside, places after a colon are kept", () => {
    expect(shapeOf("error: '2 subtests failed' at 0x7ffd")).toBe(shapeOf("error:  '3 subtests failed' at 0x1a2b"));
    expect(shapeOf(" --> src/lib.rs:8:57")).not.toBe(shapeOf(" --> src/lib.rs:16:15"));
  });
  test("distinct keeps the first of each shape", () => {
    const f = (line: number, text: string) => ({ line, text, score: 8 });
    expect(distinct([f(1, "  error: |-"), f(9, "  error: |-"), f(12, "error: 'x'")]).map((x) => x.line)).toEqual([1, 12]);
  });
  test("a receipt's important lines show each repeated failure once", () => {
    const blocks = Array.from({ length: 15 }, (_, i) => [
      `case ${i}`,
      "    error: |-",
      `      widget ${i} broke because of reason ${String.fromCharCode(97 + i)}`,
    ]).flat();
    const important = analyzeOutput(blocks.join("\n")).important;
    expect(important.filter((l) => l.text.trim() === "error: |-")).toHaveLength(1);
  });
});

describe("GNU-format diagnostics", () => {
  test("file:line:column: message without a severity word is an error; a note is not", () => {
    expect(scoreLine("pkg/cache/lru.go:88:3: missing return")).toBe(SCORE.cause);
    expect(scoreLine("pkg/cache/lru.go:12:2: note: declared here")).toBe(0);
    expect(scoreLine("see docs/a.md line 4: intro")).toBe(0);
  });
});

describe("why an error happened", () => {
  test("an error's labelled continuation line is kept with it; an unlabelled next line is not", () => {
    const filler = Array.from({ length: 40 }, (_, i) => `step ${i} done`);
    const text = [
      ...filler,
      "store.sql:12: ERROR:  duplicate key value in index widgets_name_key",
      "DETAIL:  Key (name)=(sprocket) already exists.",
      ...filler,
      "Error: upload rejected",
      "the server said no",
      ...filler,
    ].join("\n");
    const shown = analyzeOutput(text).important.map((l) => l.text);
    expect(shown).toContain("DETAIL:  Key (name)=(sprocket) already exists.");
    expect(shown).not.toContain("the server said no");
  });

  test("a log record at the WARN level shows when there is room; a lower-case 'warning' word alone does not", () => {
    expect(scoreLine("2031-01-02 10:00:00,1 WARNING billing: invoice 7 has no lines, skipped")).toBe(SCORE.logWarning);
    expect(scoreLine("[WARN] cache cold")).toBe(SCORE.logWarning);
    expect(scoreLine("see the warning section")).toBe(SCORE.warning);
    const text = [
      ...Array.from({ length: 60 }, (_, i) => `2031-01-02 10:00:${i} INFO billing: invoice ${i} ok`),
      "2031-01-02 10:01:00 WARNING billing: invoice 61 has no lines, skipped",
    ].join("\n");
    expect(analyzeOutput(text).important.map((l) => l.line)).toContain(61);
  });

  test("a violation is a failure's cause", () => {
    expect(scoreLine('Thread #3: lock order "0xA before 0xB" violated')).toBe(SCORE.cause);
    expect(scoreLine("policy violations: 2")).toBe(SCORE.cause);
  });
});
