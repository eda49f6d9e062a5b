/**
 * A correction that names the old statement's value beside a new one of its shape ("the 3 firing
 * cap was too low; 5 now") replaces the whole old statement, whichever of its clauses the query's
 * words found (conflicts.ts touched). Histories written for these tests.
 */
import { afterAll, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

test("a query matching the old statement's other clause still finds it replaced, the correction first", async () => {
  const m = testMemory();
  for (let i = 0; i < 12; i++) {
    await m.add("prompt", `log firing ${i} for the glaze shelf`, "s1");
    await m.add("answer", `Firing ${i} logged; shelf temperature looked even.`, "s1");
  }
  const old = await m.add(
    "answer",
    "kiln: cap firings per day at 3\n\nAnything above is almost certainly a typo. `kiln add` returns error.TooManyFirings and prints the number back so the user can retype it.",
    "s2",
  );
  for (let i = 0; i < 6; i++) await m.add("prompt", `bump the studio log for ${i}`, "s3");
  const fix = await m.add(
    "correction",
    "correction: the 3 firing cap was too low for the busy weeks. Cap is 5 now per day; still a typo guard.",
    "s4",
  );
  const found = await m.ok(
    { type: "search", project: PROJECT, query: "what's the maximum number of firings a single day can have", limit: 5 },
    "search",
  );
  const ids = found.hits.map((h) => h.id);
  expect(ids).toContain(fix);
  expect(found.hits.find((h) => h.id === old)?.supersededBy).toBe(fix);
  expect(ids.indexOf(fix)).toBeLessThan(ids.indexOf(old) === -1 ? 99 : ids.indexOf(old));
});
