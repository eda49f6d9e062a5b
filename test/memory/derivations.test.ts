/**
 * A word finds the nouns English derives from it and the verbs it derives from, where no suffix
 * rule reaches (derivations.ts, from WordNet): "archive" and "archival" aside, "store" and
 * "storage", "decide" and "decision", "fail" and "failure". A search for one form finds a
 * statement holding the other. Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { derivedWords } from "../../src/memory/derivations.ts";
import { wordForms } from "../../src/memory/morphology.ts";
import { porterStem } from "../../src/memory/stem.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const stems = (w: string) => wordForms(w).map((f) => f.stem);

describe("dictionary derivations", () => {
  test("a verb and its noun find each other, in both directions and from an inflection", () => {
    expect(stems("stores")).toContain(porterStem("storage"));
    expect(stems("storage")).toContain(porterStem("store"));
    expect(stems("decided")).toContain(porterStem("decision"));
    expect(stems("failures")).toContain(porterStem("fail"));
    expect(stems("describe")).toContain(porterStem("description"));
  });

  test("a derivation counts less than the word itself, and the word's own stem stays first", () => {
    const forms = wordForms("store");
    expect(forms[0]?.stem).toBe(porterStem("store"));
    expect(forms.find((f) => f.stem === porterStem("storage"))?.weight).toBeLessThan(1);
  });

  test("a word the dictionary does not derive gets no partner", () => {
    expect(derivedWords("zzyzx")).toEqual([]);
    expect(stems("ticket")).not.toContain(porterStem("tickle"));
  });

  test("a search naming the verb finds the statement naming the noun", async () => {
    const m = testMemory();
    for (let i = 0; i < 6; i++) {
      await m.add("prompt", `the scans from branch ${i} look blurry, can you check`, `s${i}`);
      await m.add("answer", `Rescanned the pages from branch ${i}; the scans look sharp now.`, `s${i}`);
    }
    const answer = await m.add("answer", "The scans sit in the cold storage tier of the eu bucket, never on local disk.", "s9");
    const hits = (await m.ok({ type: "search", project: PROJECT, query: "where do we store the scans", limit: 1 }, "search")).hits;
    expect(hits.map((h) => h.id)).toEqual([answer]);
  });
});
