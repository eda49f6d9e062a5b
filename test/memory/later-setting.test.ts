/**
 * A setting seen later with another value ranks right above the earlier value (later-setting.ts):
 * a command's output printing the configuration is what holds, however the earlier value was
 * written. Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { assignments } from "../../src/memory/later-setting.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const search = async (m: TestMemory, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.id);

describe("a setting seen later with another value", () => {
  test("code names assigned a value are settings; prose with a colon is not", () => {
    expect([...assignments("kiln: glaze_temp = 1240 on both, coolDown: 90 and KILN_VENT=half")]).toEqual([
      ["glaze_temp", "1240"],
      ["cooldown", "90"],
      ["kiln_vent", "half"],
    ]);
    expect(assignments("note: the kiln runs hot. fix: shelf moved. Status: fine").size).toBe(0);
    // A host's port, a file's line, a path or a URL is no setting.
    expect(assignments("curl -s http://kiln.internal:5051/health; at fire (src/kiln/shelf.ts:330:14); see kiln.local:8080").size).toBe(0);
    // A dotted name is a setting with "=" ("kiln.vent.speed = 40").
    expect([...assignments("kiln.vent.speed = 40")]).toEqual([["kiln.vent.speed", "40"]]);
  });

  test("the later command's value ranks above the note that set the earlier one", async () => {
    const m = testMemory();
    const note = await m.add("note", "kiln controller: glaze_hold_minutes = 20 on both kilns, matches the clay supplier's sheet");
    for (const line of [
      "Reading the kiln controller code for the hold logic.",
      "The glaze shelf layout page needs a picture.",
      "Kiln two logs look normal this week.",
    ])
      await m.add("answer", line);
    const seen = await m.add(
      "command",
      "$ kilnctl get glaze_hold_minutes\n[kiln1]: glaze_hold_minutes = 35\n[kiln2]: glaze_hold_minutes = 35",
    );
    const hits = await search(m, "how long is the glaze hold in minutes");
    expect(hits).toContain(note);
    expect(hits).toContain(seen);
    expect(hits.indexOf(seen)).toBeLessThan(hits.indexOf(note));
  });

  test("the same value seen again changes no order", async () => {
    const m = testMemory();
    const note = await m.add("note", "kiln controller: glaze_hold_minutes = 20 on both kilns, matches the clay supplier's sheet");
    const seen = await m.add("command", "$ kilnctl get glaze_hold_minutes\n[kiln1]: glaze_hold_minutes = 20");
    const hits = await search(m, "how long is the glaze hold in minutes");
    expect(hits.indexOf(note)).toBeLessThan(hits.indexOf(seen) === -1 ? 99 : hits.indexOf(seen));
  });
});
