/**
 * A summary ranks by its best line. When one of its lines is a statement a later one replaced,
 * the replacement (an event among the hits) ranks above the whole summary, so the old statement
 * never shows above what replaced it, whatever else the summary holds.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("a replaced statement in a summary", () => {
  test("what replaced it ranks above the summary that shows it", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 10;
      c.memory.keepDays = 30;
    });
    await m.add("prompt", "for data checks we use great expectations, suites live under gx/", "s1");
    await m.add("error", "great expectations checkpoint failed: orders suite gx/orders.json expectation not met on 12 rows", "s1");
    await m.add("error", "great expectations checkpoint failed: shipments suite gx/shipments.json expectation not met on 3 rows", "s1");
    for (let i = 0; i < 7; i++) await m.add("answer", `Looked at dashboard ${i}, the numbers match the warehouse.`, "s1");
    const fix = await m.add("correction", "ripped out great expectations, data checks are pandera schemas in schemas/ now", "s2");
    // A month on: the first window's events are dropped; its summary and the correction stay.
    m.clock.t += 31 * 86_400_000;
    await m.add("answer", "Refreshed the dashboard cache.", "s3");
    await m.ok({ type: "retention" }, "retention");
    const hits = (await m.ok({ type: "search", project: PROJECT, query: "great expectations checkpoint orders suite", limit: 5 }, "search"))
      .hits;
    const summary = hits.findIndex((h) => h.type === "summary" && h.text.includes("we use great expectations"));
    expect(summary).toBeGreaterThan(-1);
    expect(hits[summary]!.text).toContain(`replaced by ${fix}`);
    const at = hits.findIndex((h) => h.id === fix);
    expect(at).toBeGreaterThan(-1);
    expect(at).toBeLessThan(summary);
  });
});
