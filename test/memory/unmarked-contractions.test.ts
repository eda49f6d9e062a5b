/**
 * Chat writes contractions without their apostrophe ("whats", "dont"): such a word says no more
 * about what a question asks than "what's" does, and must not weigh as a word the answer lacks.
 * Each sentence here is this test's own.
 */
import { afterAll, expect, test } from "bun:test";
import { isStopWord } from "../../src/memory/stopwords.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

test("a question opening with 'whats' is answered by what holds its other words", async () => {
  const m = testMemory();
  const events: { kind: "prompt" | "answer"; text: string }[] = [];
  for (let i = 0; i < 200; i++) {
    if (i === 150) events.push({ kind: "answer", text: "the heater runs off the boiler relay in the basement" });
    else if (i % 17 === 4) events.push({ kind: "prompt", text: `the heater in room ${i} was left on over the weekend again` });
    else if (i === 30 || i === 90) events.push({ kind: "prompt", text: `whats left on the list for sprint ${i}` });
    else events.push({ kind: "answer", text: `renamed fixture ${i} in the lighting module and reran its tests` });
  }
  await m.ok({ type: "addMany", project: PROJECT, session: "s1", events }, "addMany");
  const hits = (await m.ok({ type: "search", project: PROJECT, query: "whats powering the heater", limit: 20 }, "search")).hits.map(
    (h) => h.text,
  );
  expect(hits.some((h) => h.includes("boiler relay"))).toBe(true);
  m.db.close();
});

test("only contractions whose joined form is no other word are left out", () => {
  for (const w of ["whats", "dont", "doesnt", "isnt", "thats", "theyre", "youve"]) expect(isStopWord(w)).toBe(true);
  // "she'll", "i'll", "we'd", "i'd" joined are other words; "c's" and "t's" joined are "cs" and "ts".
  for (const w of ["shell", "ill", "wed", "id", "cs", "ts"]) expect(isStopWord(w)).toBe(false);
});
