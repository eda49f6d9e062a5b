/**
 * Short forms: a long query word also finds the clipped forms notes write it in (abbreviations.ts),
 * made by rule from the word itself, and a search holding only the short form still answers.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { shortForms } from "../../src/memory/abbreviations.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("short forms", () => {
  test("clippings stop at a syllable's edge; contractions keep the first letter and the last consonant", () => {
    expect(shortForms("messages")).toEqual(expect.arrayContaining(["msg", "msgs"]));
    expect(shortForms("configuration")).toEqual(expect.arrayContaining(["conf", "config"]));
    expect(shortForms("config")).toContain("cfg");
    expect(shortForms("package")).toContain("pkg");
    expect(shortForms("revision")).toContain("rev");
    expect(shortForms("environment")).toContain("env");
    // Not a word of its own cut from a compound or at a doubled consonant.
    expect(shortForms("database")).not.toContain("data");
    expect(shortForms("timestamp")).not.toContain("time");
    expect(shortForms("settings")).not.toContain("set");
    // A stop word is that word, not a clipping: "per" is not "period", "any" not "anything".
    expect(shortForms("period")).not.toContain("per");
    expect(shortForms("periods")).not.toContain("per");
    // Short words and identifiers have none.
    expect(shortForms("port")).toEqual([]);
    expect(shortForms("v1beta2")).toEqual([]);
  });

  test("a query in full words finds the note written in short forms, below a statement in full words", async () => {
    const m = testMemory();
    for (let i = 0; i < 12; i++) await m.add("answer", `Rebuilt the parser module, run ${i} green.`, "s1");
    const terse = await m.add("note", "dropped msgs on the radio link; pkg cfg now in boards/radio.yaml", "s1");
    await m.add("answer", "Checked the uplink timing, nothing changed.", "s1");
    const found = await m.ok({ type: "search", project: PROJECT, query: "which package config", limit: 5 }, "search");
    expect(found.hits.map((h) => h.id)).toContain(terse);
    const full = await m.add("note", "the package config is boards/main.yaml", "s2");
    const again = await m.ok({ type: "search", project: PROJECT, query: "which package config", limit: 5 }, "search");
    expect(again.hits[0]!.id).toBe(full);
  });
});
