/**
 * A record (a decision, note or correction) about one of the question's words, named first the
 * way English puts what a sentence is about, answers with a little less of the question than
 * chatter must hold, even when most of the question is words the memory never saw (a paraphrase).
 * The same words said in passing, or in chatter, do not. Each sentence here is this test's own.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const search = async (m: TestMemory, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.text);

/** 200 events: "heater" in 10 of them, "thermostat" and "schedule" in 16 each, never together. */
async function history(m: TestMemory, record: { kind: "note" | "answer"; text: string }) {
  const events: { kind: "prompt" | "answer" | "note"; text: string }[] = [];
  for (let i = 0; i < 200; i++) {
    if (i === 120) events.push(record);
    else if (i % 20 === 3) events.push({ kind: "prompt", text: `the heater in room ${i} was left on over the weekend again` });
    else if (i % 12 === 5) events.push({ kind: "answer", text: `moved the thermostat widget ${i} to the sidebar of the dashboard` });
    else if (i % 12 === 9) events.push({ kind: "prompt", text: `the cleaning schedule for floor ${i} needs the new rota` });
    else events.push({ kind: "answer", text: `renamed fixture ${i} in the lighting module and reran its tests` });
  }
  await m.ok({ type: "addMany", project: PROJECT, session: "s1", events }, "addMany");
}

describe("a record about the question's subject", () => {
  const QUESTION = "which thermostat schedule for the heater";
  const SAID = "heater: driven by the boiler relay in the basement, on from six to ten";

  test("answers though it holds only the question's subject word", async () => {
    const m = testMemory();
    await history(m, { kind: "note", text: SAID });
    const hits = await search(m, QUESTION);
    expect(hits[0]).toContain("boiler relay");
    // The other events holding one of the question's words, in passing, are not answers.
    expect(hits.filter((h) => h.includes("left on over the weekend"))).toEqual([]);
    expect(hits.filter((h) => h.includes("thermostat widget") || h.includes("cleaning schedule"))).toEqual([]);
    m.db.close();
  });

  test("the same words in chatter (an answer, not a record) are too little of the question", async () => {
    const m = testMemory();
    await history(m, { kind: "answer", text: SAID });
    expect(await search(m, QUESTION)).toEqual([]);
    m.db.close();
  });

  test("a record that names the word in passing, not first, is too little too", async () => {
    const m = testMemory();
    await history(m, { kind: "note", text: "the boiler relay in the basement drives the heater from six to ten" });
    expect((await search(m, QUESTION)).filter((h) => h.includes("boiler relay"))).toEqual([]);
    m.db.close();
  });
});
