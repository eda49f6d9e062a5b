/**
 * The memory evaluation sets' reader (bench/memory/sets.ts): a facts.json of records counts only
 * their `contains` as planted statements, and every set in the repository loads.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { factStrings, findSets, loadSet } from "../../bench/memory/sets.ts";

describe("memory evaluation sets", () => {
  test("records give their `contains` only: ids, roles and kinds are not planted text", () => {
    const facts = factStrings([
      { id: "k-f01", role: "fact", eventKind: "prompt", contains: "Flash With  JLink", question: "k-q01" },
      { id: "k-f02", role: "correction", eventKind: "note", contains: "moved to UART1", supersedes: "k-f01" },
    ]);
    expect(facts).toEqual(["flash with jlink", "moved to uart1"]);
    expect(factStrings(["plain string"])).toEqual(["plain string"]);
  });

  test("the sets in the repository load, the former blind sets among them", () => {
    const { sets } = findSets(join(import.meta.dir, "..", "..", "bench", "memory"));
    const names = sets.map((s) => loadSet(s).name);
    expect(names).toEqual(expect.arrayContaining(["memory-1", "memory-2", "memory-3", "tuning"]));
    const m2 = loadSet(sets.find((s) => s.endsWith("memory-2"))!);
    expect(m2.projects.map((p) => p.name)).toEqual(["kestrel", "pebblepop", "strata"]);
    expect(m2.projects.every((p) => p.facts.length === 18 && !p.facts.includes("prompt"))).toBe(true);
    const m3 = loadSet(sets.find((s) => s.endsWith("memory-3"))!);
    expect(m3.projects.map((p) => p.name)).toEqual(["basalt", "lumen", "tidewater"]);
    expect(m3.projects.flatMap((p) => p.questions).length).toBe(60);
  });
});
