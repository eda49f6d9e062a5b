/**
 * "who ..." asks for a person (Li and Roth's HUM class): a statement about the subject that names
 * no one is about another side of it, not an answer. A text names someone by a personal pronoun,
 * an @handle or a capitalised word inside a sentence; one holding the question's own verb ("kim
 * reviews ...") answers too, a name written in lower case included. Histories written for these
 * tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { asksPerson, namesSomeone } from "../../src/memory/answer-type.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { hitIds, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("a text naming someone", () => {
  test("who, whom and whose ask for a person; other questions do not", () => {
    expect(asksPerson("who maintains the exporter?")).toBe(true);
    expect(asksPerson("Whose key signs the release")).toBe(true);
    expect(asksPerson("which exporter do we run")).toBe(false);
    expect(asksPerson("how do we find who broke it")).toBe(false);
  });

  test("a pronoun, an @handle or a capitalised word inside a sentence; not a sentence's first word, a day or a month", () => {
    expect(namesSomeone("ask her before touching the exporter")).toBe(true);
    expect(namesSomeone("@dana owns the exporter")).toBe(true);
    expect(namesSomeone("the exporter belongs to Dana now")).toBe(true);
    expect(namesSomeone("anything under lib/export -> Dana signs off")).toBe(true);
    expect(namesSomeone("Exporter runs nightly. Output goes to the share.")).toBe(false);
    expect(namesSomeone("- e12 note: Exporter runs nightly")).toBe(false);
    expect(namesSomeone("the exporter runs on Tuesday and in March")).toBe(false);
    expect(namesSomeone("mail me at ops@example.org when the exporter fails")).toBe(false);
    expect(namesSomeone("the exporter writes csv files to the share")).toBe(false);
  });
});

describe("who-questions in a search", () => {
  const history = async (m: TestMemory) => {
    for (let i = 0; i < 12; i++) {
      await m.add("prompt", `the csv exporter failed on batch ${i}, can you rerun it`, "s1");
      await m.add("answer", `Reran the exporter for batch ${i}; the share was full, cleaned it up.`, "s1");
    }
    return m.add("note", "exporter: writes the nightly csv files to the finance share, one per region", "s2");
  };

  test("a statement about the subject that names no one is left out", async () => {
    const m = testMemory();
    const note = await history(m);
    expect(await hitIds(m, "who maintains the csv exporter")).not.toContain(note);
    // The same statement answers a question about what it says.
    expect(await hitIds(m, "where does the csv exporter write its files")).toContain(note);
  });

  test("'who is the X' has no verb: a statement holding the role X but naming no one is left out", async () => {
    const m = testMemory();
    await history(m);
    const role = await m.add("note", "exporter maintainer rota: still to be agreed, the share stays read-only till then", "s3");
    const named = await m.add("note", "the exporter maintainer from march is Dana", "s3");
    const found = await hitIds(m, "who is the exporter's maintainer?");
    expect(found).toContain(named);
    expect(found).not.toContain(role);
  });

  test("a statement naming the person answers, and so does one holding the question's verb with a name in lower case", async () => {
    const m = testMemory();
    await history(m);
    const named = await m.add("note", "the csv exporter is looked after by Dana, ask her before changing the regions", "s3");
    const lower = await m.add("prompt", "fyi kim reviews every exporter change, tag kim on those prs", "s3");
    expect(await hitIds(m, "who maintains the csv exporter")).toContain(named);
    expect(await hitIds(m, "who reviews changes to the exporter")).toContain(lower);
  });

  test("a person named with the question's most specific word answers, though the question's other words are not said", async () => {
    const m = testMemory();
    // Every word of the question is common here (none is rare); "wireframes" is the least common.
    for (let i = 0; i < 16; i++) {
      await m.add("prompt", `the onboarding flow on tablet ${i} is off, can you fix it`, "s1");
      await m.add("answer", `Fixed the checkout screens spacing for build ${i}.`, "s1");
      if (i % 2 === 0) await m.add("prompt", `export the wireframes for sprint ${i} to the drive`, "s1");
    }
    const lena = await m.add("prompt", "btw Lena does all the wireframes in penpot, ask first", "s2");
    const nobody = await m.add("prompt", "the wireframes in penpot are out of date, ask first", "s3");
    const found = await hitIds(m, "who draws the wireframes for the onboarding and checkout screens on tablet");
    expect(found).toContain(lena);
    expect(found).not.toContain(nobody);
  });
});
