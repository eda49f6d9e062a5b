/**
 * Records in JSON receipts: a JSON array's or a JSON-lines log's low-cardinality fields counted by
 * value, and the records that stand out (a non-zero error count, an error level or value) shown by
 * their own fields, errors before warnings, without the envelope every log record shares.
 */
import { describe, expect, test } from "bun:test";
import { analyzeOutput } from "../../src/store/receipt/analyze.ts";

describe("a JSON array of reports", () => {
  const files = [
    { file: "a.py", problems: [], errors: 0, warnings: 40, note: "x".repeat(300) },
    { file: "b.py", problems: [{ rule: "r1" }], errors: 3, warnings: 1, note: "ok" },
    { file: "c.py", problems: [], errors: 0, warnings: 0, note: "ok" },
    { file: "d.py", problems: [], errors: 1, warnings: 2, note: "ok" },
  ];
  test("the entries with errors first, worst first, by their scalar fields; long strings left out", () => {
    const a = analyzeOutput(JSON.stringify(files));
    expect(a.kind).toBe("json");
    const at = (s: string) => a.summary.findIndex((l) => l.startsWith(s));
    expect(at('{"file":"b.py","errors":3,"warnings":1,"note":"ok"}')).toBeGreaterThan(0);
    expect(at('{"file":"d.py"')).toBeGreaterThan(at('{"file":"b.py"'));
    expect(at('{"file":"a.py","errors":0,"warnings":40}')).toBeGreaterThan(at('{"file":"d.py"'));
    expect(a.summary.some((l) => l.startsWith('{"file":"c.py"'))).toBe(false);
  });

  test("a status field's values counted under the key that holds the records", () => {
    const runs = Array.from({ length: 9 }, (_, i) => ({ id: i, state: i % 4 === 0 ? "failed" : "passed" }));
    const a = analyzeOutput(JSON.stringify({ total: 9, runs }, null, 2));
    expect(a.summary).toContain("runs[].state: passed ×6, failed ×3");
    expect(a.summary).toContain('{"id":0,"state":"failed"}');
  });
});

describe("JSON lines", () => {
  const log = Array.from({ length: 40 }, (_, i) => ({
    level: i === 17 ? 50 : i % 10 === 3 ? 40 : 30,
    time: 1_700_000_000_000 + i,
    app: "billing",
    job: `job-${i}`,
    ...(i === 17 ? { err: { message: "ledger locked", stack: `Error: ledger locked\n${"  at f\n".repeat(30)}` }, invoice: 991 } : {}),
    msg: i === 17 ? "charge failed" : "tick",
  }));
  const text = log.map((r) => JSON.stringify(r)).join("\n");

  test("levels counted, the error record by its own fields and line, without the clock, the shared app or the stack", () => {
    const a = analyzeOutput(text);
    expect(a.kind).toBe("json-lines");
    expect(a.summary[0]).toBe("40 JSON records");
    expect(a.summary).toContain("level: 30 ×35, 40 ×4, 50 ×1");
    expect(a.summary).toContain(
      'line 18: {"level":50,"job":"job-17","invoice":991,"msg":"charge failed","err":{"message":"ledger locked"}}',
    );
    expect(a.important[0]!.line).toBe(18);
  });

  test("a JSON-lines log too big to parse as one document is still read as records", () => {
    const big = Array.from({ length: 60_000 }, (_, i) =>
      JSON.stringify({ level: i === 40_000 ? 60 : 30, seq: i, msg: `step ${i % 9}` }),
    ).join("\n");
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    const a = analyzeOutput(big);
    expect(a.kind).toBe("json-lines");
    // Counts past the cap would be guesses: the summary says how far it read.
    expect(a.summary[0]).toBe("50,000 JSON records in the first 50,000 lines of 60,000");
    expect(a.summary).toContain('line 40001: {"level":60,"msg":"step 4"}');
  });

  test("a log with a few plain lines among the records is still read; one that starts with plain lines is not JSON lines", () => {
    expect(analyzeOutput(`${text}\nshutdown complete`).summary[0]).toBe("40 JSON records and 1 other line");
    expect(analyzeOutput(`starting\n${text}`).kind).not.toBe("json-lines");
  });
});
