/**
 * A hit that starts a record shows it to its end: a failing test's section named by the query
 * goes on past the test's body (the lines its `def` owns) to the assertion and error under it,
 * although they are further than the lines shown around a match. The report is real
 * (test/store/fixtures/retrieval/README.md).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { EngineDeps } from "../../src/store/engine-deps.ts";
import { type Hit, search } from "../../src/store/search/search.ts";
import { captureIndexed, cleanupTempDirs, testStore } from "../helpers.ts";

afterAll(cleanupTempDirs);

const report = readFileSync(join(import.meta.dir, "fixtures/retrieval/pytest-long-tests.txt"), "utf8");
const lineOf = (text: string, from = 1) => report.split("\n").findIndex((l, i) => i + 1 >= from && l.includes(text)) + 1;

async function stored(): Promise<{ store: EngineDeps; source: string }> {
  const store = testStore();
  const r = await captureIndexed(store, { text: report, tool: "bash", force: true });
  if (!r.stored) throw new Error("not stored");
  return { store, source: r.sourceId };
}

function top3(store: EngineDeps, source: string, query: string): Hit[] {
  const r = search(store, { query, source, limit: 3 });
  if (!r.ok) throw new Error(r.message);
  return r.hits;
}

const shows = (hits: Hit[], line: number, text: string) => hits.some((h) => h.lines.some((l) => l.line === line && l.text.includes(text)));

describe("a failing test's section named by the query", () => {
  test("is shown to the error at its end, past the lines the test's body owns", async () => {
    const head = lineOf("def test_orders_import");
    const error = lineOf("E       assert 1 == 2", head);
    // Further than the lines shown around a match (26 after it), not owned by the `def` line.
    expect(error - head).toBeGreaterThan(26);
    const { store, source } = await stored();
    const hits = top3(store, source, "test_orders_import");
    expect(shows(hits, error, "assert 1 == 2")).toBe(true);
  });

  test("the second failure's section too", async () => {
    const head = lineOf("def test_refunds_import");
    const error = lineOf("E         + R17", head);
    expect(error - head).toBeGreaterThan(26);
    const { store, source } = await stored();
    expect(shows(top3(store, source, "test_refunds_import"), error, "+ R17")).toBe(true);
  });
});
