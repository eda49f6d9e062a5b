/**
 * Phrase shapes: a run of query words also finds a note that writes it as its initials ("FFT"),
 * with a digit for "to" ("e2e"), fused into one word ("codeowners", "memmap") or as a numeronym
 * ("k8s") (phrases.ts), below a note in the words themselves; and shapes that are other words
 * ("pr" for any two words, "ads" for "app download size") find nothing.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { phraseForms } from "../../src/memory/phrases.ts";
import { queryGroups } from "../../src/memory/query.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const shapes = (q: string) => phraseForms(q.toLowerCase()).map((p) => p.form);

async function search(m: TestMemory, query: string): Promise<string[]> {
  const found = await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search");
  return found.hits.map((h) => h.id);
}

/** Chatter that holds the query's words one at a time, so no shape is needed to find it. */
async function chatter(m: TestMemory): Promise<void> {
  for (let i = 0; i < 8; i++) {
    await m.add("command", `$ make test-${i}\nok ${i} tests passed`, "s1");
    await m.add("answer", `Updated the signal plot ${i}, the library build is green.`, "s1");
    await m.add("prompt", `can you look at the owners page layout ${i}`, "s1");
  }
}

describe("phrase shapes", () => {
  test("initials, a digit for 'to', fused and clipped words, numeronyms", () => {
    expect(shapes("fast fourier transform library")).toEqual(expect.arrayContaining(["fft", "fftl"]));
    expect(shapes("what runs end-to-end tests")).toEqual(expect.arrayContaining(["e2e"]));
    expect(shapes("proof of concept")).toContain("poc");
    expect(shapes("memory-map policy")).toEqual(expect.arrayContaining(["memorymap", "memmap"]));
    expect(shapes("code owners")).toContain("codeowners");
    expect(shapes("kubernetes namespace")).toContain("k8s");
    expect(shapes("internationalization strings")).toContain("i18n");
  });

  test("no shape of two letters, none the index would stem to another word, none across a clause", () => {
    expect(shapes("psp request timeout")).not.toContain("pr");
    // "ads" is indexed as "ad", "ifs" as "if": the words, not initials.
    expect(shapes("app download size")).not.toContain("ads");
    expect(shapes("input file size")).not.toContain("ifs");
    // A mark other than a space or hyphen ends a run; a stop word ends it too.
    expect(shapes("command failed (exit code): curl timed out")).not.toContain("fec");
    expect(shapes("policy for input files")).not.toContain("pif");
    // A shape that is a stop word or one of the query's own words is none.
    expect(shapes("fast fourier fft")).not.toContain("ff");
  });

  test("a shape counts below the word: words written whole in a fused form more than initials", () => {
    const groups = queryGroups("memory map of the fast fourier transform");
    const form = (word: string, shape: string) => groups.find((g) => g.word === word)!.forms.find((f) => f.word === shape)?.weight;
    expect(form("map", "memmap")).toBeLessThan(1);
    expect(form("memory", "memmap")).toBeLessThan(form("map", "memmap")!);
    expect(form("fourier", "fft")).toBeLessThan(1);
    expect(groups.find((g) => g.word === "fourier")!.forms[0]).toMatchObject({ word: "fourier", weight: 1 });
  });

  test("a verb and its particle fuse into one word, counted for the verb alone; a particle after a noun-like stop word does not", () => {
    expect(shapes("how do we roll back a release")).toContain("rollback");
    expect(shapes("where do users sign up")).toContain("signup");
    const groups = queryGroups("how do members log in to the site");
    expect(groups.find((g) => g.word === "log")!.forms.find((f) => f.word === "login")?.weight).toBeLessThan(1);
    expect(shapes("what is in the box")).not.toContain("isin");
  });

  test("an inflected verb fuses with its particle in its base form", () => {
    expect(shapes("how is the wiki backed up")).toContain("backup");
    expect(shapes("who logged in last")).toContain("login");
    expect(shapes("why was the job timed out")).toContain("timeout");
  });

  test("a query in words finds the note in initials, a digit-for-'to' shape or a fused word", async () => {
    const m = testMemory();
    await chatter(m);
    const fft = await m.add("note", "convolution FFT comes from pocketfft, not the dsp module", "s1");
    const e2e = await m.add("note", "Playwright only for the e2e folder, everything else is unit level", "s1");
    const owners = await m.add("note", "CODEOWNERS puts @ana on everything under billing/", "s1");
    await chatter(m);
    expect(await search(m, "fast fourier transform choice")).toContain(fft);
    expect(await search(m, "end-to-end tests")).toContain(e2e);
    expect(await search(m, "who are the code owners")).toContain(owners);
  });

  test("the words themselves rank above their initials", async () => {
    const m = testMemory();
    await chatter(m);
    const short = await m.add("note", "FFT size is 4096 samples", "s1");
    const full = await m.add("note", "the fast fourier transform comes from pocketfft", "s1");
    await chatter(m);
    const hits = await search(m, "fast fourier transform");
    expect(hits.indexOf(full)).toBeGreaterThanOrEqual(0);
    expect(hits.indexOf(full)).toBeLessThan(hits.indexOf(short) === -1 ? Number.POSITIVE_INFINITY : hits.indexOf(short));
  });

  test("no false recall through a shape: two-letter initials and initials that are words find nothing", async () => {
    const m = testMemory();
    await chatter(m);
    const pr = await m.add("note", "every PR needs two approvals before merge", "s1");
    const ads = await m.add("note", "rewarded ads are served by the mediation plugin", "s1");
    await chatter(m);
    expect(await search(m, "psp request timeout")).not.toContain(pr);
    expect(await search(m, "app download size")).not.toContain(ads);
  });
});
