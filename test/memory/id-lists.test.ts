/**
 * Rows by id (events, summaries, which later event replaced which): one statement for any number
 * of ids, whatever their order, repeats and gaps. A list of `?` per id made a statement per length.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { eventsById } from "../../src/memory/events.ts";
import { summariesById } from "../../src/memory/summarize.ts";
import { replacers } from "../../src/memory/supersede.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("rows by a list of ids", () => {
  test("events come back once each, in id order, missing ids skipped, past any batch size", async () => {
    const m = testMemory();
    const events = Array.from({ length: 1200 }, (_, i) => ({
      kind: "note" as const,
      text: `Item ${i} lives in src/items/item${i}.ts.`,
      session: "s1",
    }));
    const added = await m.ok({ type: "addMany", project: PROJECT, events }, "addMany");
    const ids = added.ids.map((id) => Number(id.slice(1)));
    const deps = { db: m.db } as Parameters<typeof eventsById>[0];
    // Reversed, each id twice, and ids no row has.
    const asked = [...ids]
      .reverse()
      .flatMap((id) => [id, id])
      .concat([999_999, 0, -5]);
    const rows = eventsById(deps, asked);
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows[7]!.content).toBe("Item 7 lives in src/items/item7.ts.");
    expect(eventsById(deps, [])).toEqual([]);
    // Lists of many lengths are answered alike.
    for (const n of [1, 2, 3, 17, 499, 500, 501]) expect(eventsById(deps, ids.slice(0, n)).map((r) => r.id)).toEqual(ids.slice(0, n));
  });

  test("summaries and replacements by id", async () => {
    const m = testMemory();
    for (let i = 0; i < 120; i++) await m.add(i % 2 ? "prompt" : "answer", `Look at item ${i} in src/items/item${i}.ts please.`);
    await m.add("note", "The staging api runs on port 8080.");
    const newer = await m.add("correction", "no, the staging api port is 8081, not 8080");
    const deps = { db: m.db } as Parameters<typeof summariesById>[0];
    const all = m.db
      .query<{ id: number }, []>("SELECT id FROM memory_summaries ORDER BY id")
      .all()
      .map((r) => r.id);
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(summariesById(deps, [...all].reverse().concat(all, [12345])).map((s) => s.id)).toEqual(all);
    const links = m.db.query<{ old_id: number; new_id: number }, []>("SELECT old_id, new_id FROM memory_supersessions").all();
    expect(links).toContainEqual({ old_id: Number(newer.slice(1)) - 1, new_id: Number(newer.slice(1)) });
    const found = replacers(deps, [Number(newer.slice(1)) - 1, Number(newer.slice(1)) - 1, 1, 2]);
    expect([...found]).toEqual([[Number(newer.slice(1)) - 1, [Number(newer.slice(1))]]]);
    expect(replacers(deps, []).size).toBe(0);
  });
});
