/**
 * A hit that starts a record shows it to its end: a failing test's section named by the query
 * goes on past the test's body (the lines its `def` owns) to the assertion and error under it,
 * although they are further than the lines shown around a match. The report is real
 * (test/store/fixtures/retrieval/README.md).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

const report = readFileSync(join(import.meta.dir, "fixtures/retrieval/pytest-long-tests.txt"), "utf8");
const lineOf = (text: string, from = 1) => report.split("\n").findIndex((l, i) => i + 1 >= from && l.includes(text)) + 1;

describe("a failing test's section named by the query", () => {
  test("is shown to the error at its end, past the lines the test's body owns", async () => {
    const head = lineOf("def test_orders_import");
    const error = lineOf("E       assert 1 == 2", head);
    // Further than the lines shown around a match (26 after it), not owned by the `def` line.
    expect(error - head).toBeGreaterThan(26);
    const { store, source } = await stored(report);
    const hits = top3(store, source, "test_orders_import");
    expect(shows(hits, error, "assert 1 == 2")).toBe(true);
  });

  test("the second failure's section too", async () => {
    const head = lineOf("def test_refunds_import");
    const error = lineOf("E         + R17", head);
    expect(error - head).toBeGreaterThan(26);
    const { store, source } = await stored(report);
    expect(shows(top3(store, source, "test_refunds_import"), error, "+ R17")).toBe(true);
  });
});
