/**
 * buildReceipt on real tool outputs: the header and next calls as before, a summary first, never a
 * blank preview line, always within the byte budget; the receipts alone answer the benchmark's
 * "what failed / which / how many" questions; analysis stays linear on 10 MiB outputs.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { NextCalls } from "../../src/store/next-calls.ts";
import { analyzeOutput } from "../../src/store/receipt/analyze.ts";
import { buildReceipt, type ReceiptInput } from "../../src/store/receipt.ts";
import { countLines } from "../../src/text.ts";
import { noisyLog, ROOT } from "../helpers.ts";

const BENCH = join(ROOT, "bench/retrieval/fixtures");
const OURS = join(ROOT, "test/store/fixtures/receipts");

const CALLS: NextCalls = {
  search: (id) => `context_search {"query": "<distinctive words>", "source": "${id}"}`,
  lines: (id, from, to) => `context_get {"source": "${id}", "lines": "${from}-${to}"}`,
  chunk: (id, n) => `context_get {"source": "${id}", "chunk": ${n}}`,
};

function read(path: string): string {
  const raw = readFileSync(path);
  return path.endsWith(".gz") ? gunzipSync(raw).toString("utf8") : raw.toString("utf8");
}

function receiptFor(text: string, patch: Partial<ReceiptInput> = {}): string {
  const lines = countLines(text);
  const bytes = Buffer.byteLength(text);
  return buildReceipt({
    sourceId: "ctx_k3v9q2",
    tool: "bash",
    reason: lines > 300 ? "over the 300-line threshold" : "over the 24.0 KiB threshold",
    bytes,
    lines,
    chunks: Math.max(1, Math.ceil(bytes / 4096)),
    redactions: { count: 0, kinds: {} },
    duplicateOf: null,
    text,
    calls: CALLS,
    budget: 2048,
    ...patch,
  });
}

const fixtures = [
  ...readdirSync(BENCH)
    .filter((f) => /\.(txt|json|js|gz)$/.test(f))
    .map((f) => join(BENCH, f)),
  ...readdirSync(OURS)
    .filter((f) => f.endsWith(".txt"))
    .map((f) => join(OURS, f)),
];

/** The fixed part of a receipt: header lines through the "or:" call. */
function fixedPart(receipt: string): string[] {
  const lines = receipt.split("\n");
  return lines.slice(0, lines.findIndex((l) => l.startsWith("  or: ")) + 1);
}

describe("the receipt", () => {
  test("keeps the header's wording and the next calls; tokens only when given", () => {
    const text = read(join(BENCH, "mocha-failing.txt"));
    const r = receiptFor(text);
    const lines = r.split("\n");
    expect(lines[0]).toBe("[pi-sidecar] bash output (5.6 KiB, 218 lines) was stored instead of shown: over the 24.0 KiB threshold.");
    expect(lines[1]).toBe("Source ctx_k3v9q2: 2 chunks.");
    expect(lines[2]).toBe(`Next: ${CALLS.search("ctx_k3v9q2")}`);
    // "or:" fetches 40 lines around the first failure's error line.
    expect(lines[3]).toBe(`  or: ${CALLS.lines("ctx_k3v9q2", 63, 103)}`);
    expect(lines[4]).toBe("Summary (mocha):");
    expect(receiptFor(text, { tokens: 1234 }).split("\n")[0]).toContain("(5.6 KiB, 218 lines, 1,234 tokens)");
    const redacted = receiptFor(text, { redactions: { count: 2, kinds: { github: 2 } }, duplicateOf: "ctx_aaaaaa" });
    expect(redacted).toContain(
      "Source ctx_k3v9q2: 2 chunks, identical to ctx_aaaaaa (stored once).\nRedacted 2 secrets before storing (github x2).",
    );
  });

  test("every fixture: within 2 KiB, summary first for known kinds, no blank or decoration-only preview line", () => {
    for (const path of fixtures) {
      const text = read(path);
      const r = receiptFor(text);
      const name = path.slice(ROOT.length + 1);
      expect([name, Buffer.byteLength(r) <= 2048]).toEqual([name, true]);
      const preview = r.split("\n").slice(fixedPart(r).length);
      for (const line of preview) expect([name, line, /[\p{L}\p{N}]/u.test(line)]).toEqual([name, line, true]);
      const kind = analyzeOutput(text).kind;
      if (kind) expect([name, preview[0]]).toEqual([name, `Summary (${kind}):`]);
      else expect([name, preview[0]]).toEqual([name, "Head:"]);
    }
  });

  test("a tail of blank lines is never the preview's tail (mocha ends with three)", () => {
    const text = read(join(BENCH, "mocha-failing.txt"));
    expect(text.endsWith("\n\n\n\n")).toBe(true);
    const r = receiptFor(text, { budget: 8192 });
    const tail = r.split("\n").slice(r.split("\n").indexOf("Tail:") + 1);
    expect(tail.length).toBeGreaterThan(0);
    for (const line of tail) expect(line).toMatch(/^\s*\d+ {2}.*[\p{L}\p{N}]/u);
  });

  test("the budget is a hard limit: the preview shrinks, the header and next calls never change", () => {
    for (const path of fixtures.filter((_, i) => i % 2 === 0)) {
      const text = read(path);
      const full = fixedPart(receiptFor(text, { budget: 1 << 20 }));
      const fixedBytes = Buffer.byteLength(full.join("\n"));
      for (const budget of [0, 300, 600, 900, 1200, 1600, 2048, 3000]) {
        const r = receiptFor(text, { budget });
        expect(fixedPart(r)).toEqual(full);
        expect(Buffer.byteLength(r)).toBeLessThanOrEqual(Math.max(budget, fixedBytes));
      }
    }
  });

  test("unknown kinds keep a generic preview: head, the failure lines, tail", () => {
    const r = receiptFor(read(join(OURS, "python-traceback.txt")));
    expect(r).not.toContain("Summary");
    expect(r).toContain("Head:\n  1  row    0: loaded SKU-0000 qty=0 errors=0");
    expect(r).toContain("Lines that look important:\n372  Traceback (most recent call last):");
    expect(r).toContain("379  ValueError: invalid literal for int() with base 10: 'seven'");
    // 40 lines around the traceback, cut at the last line.
    expect(r).toContain(`  or: ${CALLS.lines("ctx_k3v9q2", 352, 379)}`);
  });
});

describe("receipts answer 'what failed / which / how many'", () => {
  type Question = { id: string; fixture: string; receiptQuestion?: boolean; answer: { text: string } };
  const questions = (JSON.parse(readFileSync(join(ROOT, "bench/retrieval/questions.json"), "utf8")) as Question[]).filter(
    (q) => q.receiptQuestion,
  );

  test("at least 30% of the benchmark's receipt questions, from the receipt alone", () => {
    const answered = questions.filter((q) => receiptFor(read(join(BENCH, q.fixture))).includes(q.answer.text));
    console.log(`receipt questions answered: ${answered.length}/${questions.length} (${answered.map((q) => q.id).join(", ")})`);
    expect(questions.length).toBeGreaterThan(0);
    expect(answered.length / questions.length).toBeGreaterThanOrEqual(0.3);
  });

  test("the receipts named in the issue say what failed", () => {
    const sass = receiptFor(read(join(BENCH, "npm-install-node-sass.txt")));
    expect(sass).toContain("Failed: node-sass@4.14.1 postinstall script (node_modules/node-sass), code: 1, signal: null");
    const mocha = receiptFor(read(join(BENCH, "mocha-failing.txt")));
    expect(mocha).toContain("9 failing");
    expect(mocha).toContain("✗ rounds the total with tax to the cent");
    for (const r of [sass, mocha])
      for (const noise of ["http-errors", "es-errors", "libgpg-error", "should pass error"]) expect(r).not.toContain(noise);
  });
});

describe("cost on big outputs", () => {
  const TEN_MIB = 10 * 1024 * 1024;
  const grow = (t: string) => t.repeat(Math.ceil(TEN_MIB / t.length)).slice(0, TEN_MIB);
  // Generous bounds: they catch quadratic work (seconds), not a busy machine's jitter.
  const BOUND_MS = 1500;

  for (const [name, make] of [
    ["tsc errors x170", () => grow(read(join(BENCH, "tsc-hono.txt")))],
    ["tsc --pretty, ANSI colours", () => grow(read(join(BENCH, "tsc-hono-spec-pretty.txt.gz")))],
    ["node_modules listing", () => grow(read(join(BENCH, "find-node-modules.txt.gz")))],
    ["noisy log", () => grow(noisyLog(20_000, 7))],
    ["one 10 MiB line", () => "x".repeat(TEN_MIB)],
    ["10 MiB of newlines", () => "\n".repeat(TEN_MIB)],
    ["every line an error", () => grow("error: failed FAIL panic: Traceback exit code 1\n")],
  ] as const) {
    test(`10 MiB: ${name}`, () => {
      const text = make();
      analyzeOutput(text.slice(0, 1 << 20));
      const t0 = performance.now();
      const a = analyzeOutput(text);
      const ms = performance.now() - t0;
      const r = receiptFor(text);
      console.log(`analyzeOutput, 10 MiB ${name}: ${ms.toFixed(1)} ms (kind ${a.kind})`);
      expect(ms).toBeLessThan(BOUND_MS);
      expect(Buffer.byteLength(r)).toBeLessThanOrEqual(2048);
    });
  }
});
