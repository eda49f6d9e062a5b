/**
 * A receipt's head and tail skip lines shaped like one already shown (the next rows of a listing
 * that differ only in their numbers): the bytes go to lines that say something else.
 */
import { expect, test } from "bun:test";
import { TOOL_CALLS } from "../../src/store/next-calls.ts";
import { buildReceipt } from "../../src/store/receipt.ts";

function receipt(text: string): string {
  const lines = text.split("\n").length;
  return buildReceipt({
    sourceId: "ctx_shapes1",
    tool: "bash",
    reason: "storing was forced",
    bytes: Buffer.byteLength(text),
    lines,
    chunks: 1,
    redactions: { count: 0, kinds: {} },
    duplicateOf: null,
    text,
    calls: TOOL_CALLS,
    budget: 2048,
  });
}

test("a listing's head shows its first row once, not the rows that only renumber it", () => {
  const rows = Array.from({ length: 200 }, (_, i) => `/srv/cache/shard-${i}/index.bin`);
  const r = receipt(["cache index listing", ...rows, "listing complete"].join("\n"));
  expect(r).toContain("  1  cache index listing");
  expect(r).toContain("/srv/cache/shard-0/index.bin");
  expect(r).not.toContain("/srv/cache/shard-1/index.bin");
  expect(r).toContain("listing complete");
  expect(r).not.toContain("/srv/cache/shard-198/index.bin");
});

test("head lines of different shapes are all kept", () => {
  const r = receipt(["alpha: one", "beta two three", "gamma (four)", ...Array.from({ length: 100 }, (_, i) => `row ${i}`)].join("\n"));
  for (const l of ["alpha: one", "beta two three", "gamma (four)"]) expect(r).toContain(l);
});

test("a long important line whose error lies past the width shows its start and, after …, the error", () => {
  const line = `request id=42 route=/v2/widgets/lookup ${"k=v ".repeat(80)}status=done Error: widget store unreachable at shard 9`;
  const text = [...Array.from({ length: 50 }, (_, i) => `tick ${i}`), line, ...Array.from({ length: 50 }, (_, i) => `tock ${i}`)].join(
    "\n",
  );
  const r = receipt(text);
  const shown = r.split("\n").find((l) => l.startsWith(" 51  "))!;
  expect(shown).toContain("request id=42 route=/v2/widgets/lookup");
  expect(shown).toContain("…");
  expect(shown).toContain("Error: widget store unreachable at shard 9");
  expect(shown.length).toBeLessThanOrEqual(5 + 140);
});
