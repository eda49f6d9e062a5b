/**
 * A labelled record: a line at the margin after a blank line that ends with a colon and starts as
 * another such line does (`Plan for job NAME:` ... `Plan for job OTHER:`) heads every block after
 * it, blank lines and all, up to the next one, so a hit on the label shows its record to the end.
 * The output is made up for the test.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { recordOf, structureOf } from "../../src/store/search/structure.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** One job's plan: its label, then three blocks of nine numbered steps at the margin, one blank line apart. */
const plan = (job: string, i: number) => [
  `Plan for job ${job} (runner r${i}, queue q${i % 3}):`,
  ...[0, 1, 2].flatMap((b) => [...Array.from({ length: 9 }, (_, k) => `${b * 9 + k + 1}   run      task-${i}-${b}-${k}`), ""]),
];
const jobs = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
const rows = ["planner v2 started", "", ...jobs.flatMap(plan)];
const text = rows.join("\n");

describe("a labelled record", () => {
  test("a label line's record runs over blank lines to the next label", () => {
    const s = structureOf(rows, true);
    const label = rows.indexOf("Plan for job delta (runner r3, queue q0):");
    const next = rows.indexOf("Plan for job echo (runner r4, queue q1):");
    expect(recordOf(s, label)).toEqual([label, next - 2]);
    // A line after a blank line that no other line starts as is no label.
    expect(s.labelEnd[0]).toBe(-1);
  });

  test("a hit on the label shows the record's last block", async () => {
    const { store, source } = await stored(text);
    const label = rows.indexOf("Plan for job delta (runner r3, queue q0):");
    const line = rows.indexOf("27   run      task-3-2-8") + 1;
    // Further than the lines shown after a match.
    expect(line - label).toBeGreaterThan(26);
    expect(shows(top3(store, source, "plan for job delta"), line, "task-3-2-8")).toBe(true);
  });
});
