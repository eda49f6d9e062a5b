/**
 * A command's output that prints a setting whose key names the query's subject answers as a
 * statement of the project's state, not as chatter (setting-lines.ts); the rest of a command's
 * output stays chatter. Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { idfOf, type WeightedGroup } from "../../src/memory/candidates.ts";
import { queryGroups } from "../../src/memory/query.ts";
import { eventWeight } from "../../src/memory/rank.ts";
import { setsQueriedKey, settingKeys } from "../../src/memory/setting-lines.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const groupsOf = (q: string): WeightedGroup[] => queryGroups(q).map((g) => ({ ...g, df: 1, rows: 100, idf: idfOf(1, 100) }));

describe("setting lines", () => {
  test("the common config shapes are settings; the command line and prose are not", () => {
    const out = [
      "$ cat conf/kiln.toml",
      "glaze_temp = 1240",
      'label = "stoneware"',
      "  coolDown: 90   # minutes",
      "  - spareShelves: 3",
      'export KILN_VENT="half"',
      '  "firingMode": "oxidation",',
      "error: the door sensor is not wired",
      "nested: { a: 1 }",
      "schedule:",
      "see http://example.org/x",
    ].join("\n");
    expect(settingKeys(out)).toEqual(["glaze_temp", "label", "coolDown", "spareShelves", "KILN_VENT", "firingMode"]);
    expect(settingKeys("$ export KILN=1")).toEqual([]);
    // grep -n places, a Ruby symbol key; `a: b: c` holds no scalar.
    expect(settingKeys("$ grep -rn shelf conf\nconf/a.yml:7:  shelf_count: 4\n12-  :shelfHeight: 30\nshelf: rack: 2")).toEqual([
      "shelf_count",
      "shelfHeight",
    ]);
  });

  test("a key names a query word in its own form, its family or as an identifier's part", () => {
    const out = "$ cat conf/kiln.toml\nglazeTemp = 1240\nVENT_OPENING=half\nfiring_mode: oxidation";
    expect(setsQueriedKey(out, groupsOf("glaze temperature"))).toBe(true);
    expect(setsQueriedKey(out, groupsOf("how far are the vents open"))).toBe(true);
    expect(setsQueriedKey(out, groupsOf("door sensor wiring"))).toBe(false);
    expect(setsQueriedKey(out, groupsOf("vent opening"))).toBe(true);
    expect(setsQueriedKey(out, groupsOf("which mode do we fire in"))).toBe(true);
    // A word found only in a value, or in the command line, is no key.
    expect(setsQueriedKey(out, groupsOf("oxidation"))).toBe(false);
    expect(setsQueriedKey(out, groupsOf("kiln"))).toBe(false);
  });

  test("a key names the query's subject only when it holds at least half the query's weight", () => {
    const out = '$ curl -s localhost:9000/api/kiln/3\n  "time": "2026-03-01T08:00:00Z",\n  "temp": 1180,';
    expect(setsQueriedKey(out, groupsOf("glaze firing time"))).toBe(false);
    expect(setsQueriedKey(out, groupsOf("how many pots fit on a shelf at one time"))).toBe(false);
    expect(setsQueriedKey(out, groupsOf("what time"))).toBe(true);
    // Weighted by idf: a key holding the query's rare word names its subject.
    const rare = groupsOf("glaze firing time").map((g) => (g.word === "time" ? { ...g, idf: 3 } : { ...g, idf: 0.5 }));
    expect(setsQueriedKey(out, rare)).toBe(true);
  });

  test("such a command weighs as a note for that query only, and replaces nothing", () => {
    const out = "$ cat conf/kiln.toml\nglaze_temp = 1240";
    const hit = eventWeight("command", out, groupsOf("glaze"));
    const other = eventWeight("command", out, groupsOf("kiln"));
    expect(hit.weight).toBe(eventWeight("note", "x").weight);
    expect(hit.claim).toBe(false);
    expect(other.weight).toBeLessThan(hit.weight);
    expect(eventWeight("command", out).weight).toBe(other.weight);
  });
});

describe("a setting stated only in a command's output", () => {
  const search = async (m: TestMemory, query: string) =>
    (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.id);

  test("is found above chatter that names the subject", async () => {
    const m = testMemory();
    const cat = await m.add(
      "command",
      "$ cat services/kiln/config.yaml\nname: kiln-controller\nport: 8088\nlogLevel: info\nvent_speed: 40\nfiringMode: oxidation\nbisqueHold: 20\nowner: studio",
    );
    const chatter: string[] = [];
    for (const line of [
      "I will look at the firing mode handling next.",
      "The firing mode code path is long; reading it now.",
      "Firing mode tests pass on my machine.",
      "Renamed a helper near the firing mode switch.",
      "Firing mode: nothing else to change there for now.",
      "The firing mode docs page needs a picture.",
    ])
      chatter.push(await m.add("answer", line));
    const hits = await search(m, "firing mode");
    expect(hits).toContain(cat);
    // The same output for a key no query word names stays chatter, below it.
    const other = await search(m, "kiln controller owner studio");
    expect(other[0]).toBe(cat);
  });

  test("output that sets no queried key stays below statements", async () => {
    const m = testMemory();
    const cat = await m.add("command", "$ cat services/kiln/config.yaml\nport: 8088\nlogLevel: info\nmode: oxidation");
    const notes: string[] = [];
    for (let i = 0; i < 5; i++) notes.push(await m.add("note", `Oxidation glaze batch ${i} looked even across the shelf.`));
    const hits = await search(m, "oxidation");
    expect(hits.slice(0, 5).sort()).toEqual([...notes].sort());
    expect(hits).not.toContain(cat);
  });
});
