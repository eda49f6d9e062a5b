/**
 * British and American spelling: a query word finds a note that spells it the other way
 * (spelling.ts), below a note that spells it as the query does.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { spellingVariants } from "../../src/memory/spelling.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("spelling variants", () => {
  test("each regular pattern both ways; short words and words that only look like one left alone", () => {
    expect(spellingVariants("behavior")).toContain("behaviour");
    expect(spellingVariants("behaviours")).toContain("behaviors");
    expect(spellingVariants("color")).toContain("colour");
    expect(spellingVariants("centre")).toContain("center");
    expect(spellingVariants("license")).toContain("licence");
    expect(spellingVariants("serialization")).toContain("serialisation");
    expect(spellingVariants("optimiser")).toContain("optimizer");
    expect(spellingVariants("analyze")).toContain("analyse");
    expect(spellingVariants("catalogue")).toContain("catalog");
    expect(spellingVariants("cancelled")).toContain("canceled");
    expect(spellingVariants("modeling")).toContain("modelling");
    // Too short to be spelled otherwise, or a doubled l that is the word's own.
    expect(spellingVariants("hour")).toEqual([]);
    expect(spellingVariants("size")).toEqual([]);
    expect(spellingVariants("filled")).not.toContain("filed");
    expect(spellingVariants("polling")).toEqual([]);
    expect(spellingVariants("v2beta")).toEqual([]);
  });

  test("a query finds the note in the other spelling, below the note in its own", async () => {
    const m = testMemory();
    for (let i = 0; i < 10; i++) await m.add("answer", `Updated the enemy sprite sheet ${i}, build is green.`, "s1");
    const british = await m.add("note", "the behaviour tree addon is out; cancelled requests are retried once", "s1");
    for (let i = 0; i < 10; i++) await m.add("command", `$ godot --headless --export ${i}`, "s1");
    const found = await m.ok({ type: "search", project: PROJECT, query: "enemy behavior", limit: 5 }, "search");
    expect(found.hits.map((h) => h.id)).toContain(british);
    const canceled = await m.ok({ type: "search", project: PROJECT, query: "canceled requests", limit: 5 }, "search");
    expect(canceled.hits[0]?.id).toBe(british);
    const american = await m.add("note", "enemy behavior is a state machine now", "s2");
    const again = await m.ok({ type: "search", project: PROJECT, query: "enemy behavior", limit: 5 }, "search");
    expect(again.hits[0]!.id).toBe(american);
  });
});
