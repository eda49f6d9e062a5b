/**
 * Repeated chatter is one hit: an agent opening the same reply with another word each time
 * ("Done.", "Ok —", "Found it.") says the same thing, and the repeats cannot crowd out the one
 * statement that answers. A lead-in that negates is part of what is said. History written for
 * this test.
 */
import { afterAll, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

test("the same reply with five lead-ins is one hit, and the statement that answers is shown", async () => {
  const m = testMemory();
  const leads = ["Done.", "Ok —", "Found it.", "Right,", "Sure!", ""];
  for (let i = 0; i < leads.length; i++) {
    await m.add("prompt", `can you point the emulator at the depot ${i}`, `s${i}`);
    await m.add("answer", `${leads[i]} set; the emulator reports that depot location now.`.trim(), `s${i}`);
  }
  const answer = await m.add("note", "location reports from the vans are sent to the dispatch api every 30 s", "s9");
  const hits = (await m.ok({ type: "search", project: PROJECT, query: "where do location reports get sent", limit: 5 }, "search")).hits;
  expect(hits.map((h) => h.id)).toContain(answer);
  expect(hits.filter((h) => h.text.includes("the emulator reports that depot location now")).length).toBe(1);
});

test.each([
  ["a lead-in that negates is not dropped", "never we retry the depot sync job after a timeout"],
  ["a negating contraction is not dropped as a lead-in", "don't retry the depot sync job after a timeout"],
])("%s", async (_, negated) => {
  const m = testMemory();
  for (let i = 0; i < 8; i++) await m.add("prompt", `look at the depot ${i} sync job`, `s${i}`);
  const yes = await m.add("note", "we retry the depot sync job after a timeout", "s1");
  const no = await m.add("note", negated, "s2");
  const hits = (await m.ok({ type: "search", project: PROJECT, query: "do we retry the depot sync job", limit: 5 }, "search")).hits;
  expect(hits.map((h) => h.id)).toEqual(expect.arrayContaining([yes, no]));
});

test("a label is no lead-in: two statements differing in their first word, a label, stay two", async () => {
  const m = testMemory();
  for (let i = 0; i < 8; i++) await m.add("prompt", `look at the deploy ${i} job`, `s${i}`);
  const staging = await m.add("note", "Staging: images pull from the registry mirror every hour", "s3");
  const production = await m.add("note", "Production: images pull from the registry mirror every hour", "s4");
  const hits = (
    await m.ok({ type: "search", project: PROJECT, query: "which registry mirror do deploys pull images from", limit: 8 }, "search")
  ).hits;
  expect(hits.map((h) => h.id)).toEqual(expect.arrayContaining([staging, production]));
});
