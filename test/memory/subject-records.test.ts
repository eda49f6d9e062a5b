/**
 * A record (a decision, note or correction) whose subject is a word of the question is the
 * memory's statement on that subject: a search finds it even when the question's other words are
 * ones the memory never heard (a paraphrase), where a hit holding as little of the question would
 * otherwise be left out as a guess. The word must be what the record is about (its first words),
 * and it must be a record: chatter or a record naming the word in passing stays out, and so does
 * anything for a question mostly made of words the memory never heard (more than two of three).
 * Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** Everyday chatter in which "thumbnails" is common (well over 1% of the events: not a rare word). */
async function chatter(m: TestMemory) {
  const pages = ["gallery", "profile", "album", "search", "upload", "settings"];
  for (let i = 0; i < 60; i++) {
    const page = pages[i % pages.length];
    if (i % 6 === 0) await m.add("prompt", `the ${page} page shows blurry thumbnails again, can you check`, "s1");
    else await m.add("prompt", `please tidy the ${page} page css, the spacing is off`, "s1");
    await m.add("answer", `Adjusted the ${page} page layout; spacing is consistent now.`, "s1");
  }
}

/** Two words the memory knows ("page" common, "thumbnails" less so), two it never saw ("tool", "produces"). */
const QUERY = "which tool produces page thumbnails";
const search = async (m: TestMemory, query = QUERY) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.id);

describe("a record about the question's subject", () => {
  test("a note whose subject is a word of the question is found though the question's other words are unknown", async () => {
    const m = testMemory();
    await chatter(m);
    const note = await m.add("note", "thumbnails: made by a sharp worker right after the original lands, webp only", "s2");
    await chatter(m);
    expect(await search(m)).toContain(note);
  });

  test("a decision or correction about the subject counts as well; an answer saying the same does not", async () => {
    const m = testMemory();
    await chatter(m);
    const answer = await m.add("answer", "Thumbnails are cut by a sharp worker once the original lands.", "s2");
    await chatter(m);
    // Chatter holding one word of the four is a guess: left out.
    expect(await search(m)).not.toContain(answer);
    const decision = await m.add("decision", "decision: thumbnails come from a sharp worker, webp only, no jpeg fallback", "s3");
    expect(await search(m)).toContain(decision);
  });

  test("a record naming the word in passing, not as its subject, is still a guess", async () => {
    const m = testMemory();
    await chatter(m);
    const passing = await m.add("note", "release checklist: bump the app version, tag, then purge cached thumbnails on the cdn", "s2");
    await chatter(m);
    expect(await search(m)).not.toContain(passing);
    // The same record answers a question about its own subject.
    expect(await search(m, "what is on the release checklist")).toContain(passing);
  });

  test("the question's words the memory knows still count: a record holding too little of them is left out", async () => {
    const m = testMemory();
    await chatter(m);
    const note = await m.add("note", "thumbnails: made by a sharp worker right after the original lands, webp only", "s2");
    // "gallery", "album", "profile", "search" and "upload" are known words the note does not hold:
    // "thumbnails" is less than a quarter of the question's weight.
    expect(await search(m, "gallery album profile search upload thumbnails")).not.toContain(note);
    expect(await search(m, QUERY)).toContain(note);
  });

  test("a paraphrase of two words the memory never heard still finds the record about the one it knows; three are too many", async () => {
    const m = testMemory();
    await chatter(m);
    const note = await m.add("note", "thumbnails: made by a sharp worker right after the original lands, webp only", "s2");
    // Two of the three words are ones the memory never saw.
    expect(await search(m, "which vendor renders thumbnails")).toContain(note);
    // Three of four: a question mostly of words the memory never heard is likely about something never said.
    expect(await search(m, "which vendor font renders thumbnails")).not.toContain(note);
  });

  test("a record about one of three known words with a quarter of their weight passes; chatter holding as much does not", async () => {
    const m = testMemory();
    await chatter(m);
    // "album" and "settings" are known words neither holds, nor any event holding "thumbnails": it is about a third of the weight.
    const note = await m.add("note", "thumbnails: made by a sharp worker right after the original lands, webp only", "s2");
    const answer = await m.add("answer", "Thumbnails are made by a sharp worker once the original lands.", "s2");
    const hits = await search(m, "profile upload settings thumbnails");
    expect(hits).toContain(note);
    expect(hits).not.toContain(answer);
  });
});
