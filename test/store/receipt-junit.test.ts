/**
 * JUnit XML reports: the counts as the report writes them (from the first suite that carries
 * them), each failing or erroring case with its message, skipped cases with their reason, even
 * when the whole report is one line or a quoted attribute holds a ">".
 */
import { describe, expect, test } from "bun:test";
import { analyzeOutput } from "../../src/store/receipt/analyze.ts";

const REPORT = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  "<testsuites>",
  '  <testsuite name="cart" tests="4" failures="1" errors="1" skipped="1" time="0.25" timestamp="2031-02-03T04:05:06">',
  '    <testcase classname="cart" name="adds items" time="0.01"/>',
  '    <testcase classname="cart" name="totals &gt; 0" time="0.02" note="a > b">',
  '      <failure message="expected 3 to equal 4" type="AssertionError">stack here</failure>',
  "    </testcase>",
  '    <testcase classname="cart" name="loads prices" time="0.1">',
  "      <error>PriceServiceDown: timed out after 2s</error>",
  "    </testcase>",
  '    <testcase classname="cart" name="exports pdf"><skipped message="needs the pdf renderer"/></testcase>',
  "  </testsuite>",
  "</testsuites>",
  "<!-- fail 1 -->",
].join("\n");

describe("junit-xml", () => {
  test("counts as written, failures with messages, skipped with reasons", () => {
    const a = analyzeOutput(REPORT);
    expect(a.kind).toBe("junit-xml");
    expect(a.summary[0]).toBe(
      '<testsuite name="cart" tests="4" failures="1" errors="1" skipped="1" time="0.25" timestamp="2031-02-03T04:05:06">',
    );
    expect(a.summary).toContain("4 test cases: 2 failed or errored, 1 skipped");
    expect(a.summary).toContain("✗ failure: cart totals > 0: expected 3 to equal 4");
    expect(a.summary).toContain("✗ error: cart loads prices: PriceServiceDown: timed out after 2s");
    expect(a.summary).toContain("skipped: cart exports pdf: needs the pdf renderer");
    expect(a.important.map((l) => l.text)).toContain("<!-- fail 1 -->");
  });

  test("a report on one line reads the same", () => {
    const a = analyzeOutput(REPORT.replace(/\n\s*/g, ""));
    expect(a.kind).toBe("junit-xml");
    expect(a.summary).toContain("4 test cases: 2 failed or errored, 1 skipped");
    expect(a.summary).toContain("skipped: cart exports pdf: needs the pdf renderer");
  });

  test("other XML is not a test report", () => {
    expect(analyzeOutput('<?xml version="1.0"?>\n<project>\n  <testsuite-config/>\n</project>').kind).toBeNull();
  });
});

describe("cost", () => {
  const TEN_MIB = 10 * 1024 * 1024;
  // Generous: catches quadratic work (seconds), not a busy machine's jitter.
  const BOUND_MS = 1500;
  for (const [name, text] of [
    ["tags never closed", `<?xml version="1.0"?>\n<testsuite tests="1">\n${'<testcase a="b\n'.repeat(TEN_MIB / 16)}</testsuite>`],
    ["a quote never closed", `<?xml version="1.0"?>\n<testsuite tests="1">\n<testcase name="x${"a".repeat(TEN_MIB)}\n</testsuite>`],
  ] as const) {
    test(`10 MiB: ${name}`, () => {
      const t0 = performance.now();
      expect(analyzeOutput(text).kind).toBe("junit-xml");
      expect(performance.now() - t0).toBeLessThan(BOUND_MS);
    });
  }
});
