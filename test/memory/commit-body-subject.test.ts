/**
 * A Conventional Commits message says what it is about in its header's scope and again in the
 * first words of its body: a record whose body begins with the question's word is about it,
 * though its header names another part. A header that is not a commit type ("plan: ...") with a
 * paragraph below, or a body naming the word in passing, is not. Each sentence here is this test's own.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const search = async (m: TestMemory, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.text);

/** 200 events: "heater" in 10 of them, "thermostat" and "schedule" in 16 each, never together. */
async function history(m: TestMemory, record: string) {
  const events: { kind: "prompt" | "answer" | "note"; text: string }[] = [];
  for (let i = 0; i < 200; i++) {
    if (i === 120) events.push({ kind: "note", text: record });
    else if (i % 20 === 3) events.push({ kind: "prompt", text: `the heater in room ${i} was left on over the weekend again` });
    else if (i % 12 === 5) events.push({ kind: "answer", text: `moved the thermostat widget ${i} to the sidebar of the dashboard` });
    else if (i % 12 === 9) events.push({ kind: "prompt", text: `the cleaning schedule for floor ${i} needs the new rota` });
    else events.push({ kind: "answer", text: `renamed fixture ${i} in the lighting module and reran its tests` });
  }
  await m.ok({ type: "addMany", project: PROJECT, session: "s1", events }, "addMany");
}

const QUESTION = "which thermostat schedule for the heater";
const BODY = "Heater now runs off the boiler relay in the basement, on from six to ten.";

describe("a commit message's body names what it is about", () => {
  test("a record whose body begins with the question's word answers it", async () => {
    const m = testMemory();
    await history(m, `refactor(plant)!: single relay board\n\n${BODY}`);
    expect((await search(m, QUESTION))[0]).toContain("boiler relay");
    m.db.close();
  });

  test("a header that is not a commit type does not make its paragraph the subject", async () => {
    const m = testMemory();
    await history(m, `plan: single relay board\n\n${BODY}`);
    expect((await search(m, QUESTION)).filter((h) => h.includes("boiler relay"))).toEqual([]);
    m.db.close();
  });

  test("a body naming the word in passing is too little", async () => {
    const m = testMemory();
    await history(m, "refactor(plant)!: single relay board\n\nThe boiler relay in the basement now drives the heater from six to ten.");
    expect((await search(m, QUESTION)).filter((h) => h.includes("boiler relay"))).toEqual([]);
    m.db.close();
  });
});
