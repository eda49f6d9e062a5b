/**
 * One key per word family (morphology.ts familyKey): a word and its inflections share a key, so
 * supersession compares "grapes" with "grape" and "saved" with "save" (a suffix rule that guesses
 * a wrong base, "grap" + es or "sav" + ed, must not split them). Plain English words.
 */
import { describe, expect, test } from "bun:test";
import { familyKey } from "../../src/memory/morphology.ts";

describe("familyKey", () => {
  test.each([
    ["grape", "grapes"],
    ["save", "saved"],
    ["line", "lines"],
    ["score", "scores"],
    ["score", "scored"],
    ["size", "sizes"],
    ["note", "notes"],
    ["filter", "filtered"],
    ["answer", "answered"],
  ])("%s and %s share a key", (a, b) => {
    expect(familyKey(b)).toBe(familyKey(a));
  });

  test("derived words keep their family: deploy, deployment, deployments; log, logger, logging", () => {
    expect(familyKey("deployment")).toBe(familyKey("deploy"));
    expect(familyKey("deployments")).toBe(familyKey("deploy"));
    expect(familyKey("logger")).toBe(familyKey("log"));
    expect(familyKey("logging")).toBe(familyKey("log"));
  });

  test("an irregular verb's forms share its base's key", () => {
    expect(familyKey("rebuilt")).toBe(familyKey("rebuild"));
    expect(familyKey("met")).toBe(familyKey("meet"));
    expect(familyKey("meeting")).toBe(familyKey("meet"));
  });

  test("different words keep different keys", () => {
    expect(familyKey("plate")).not.toBe(familyKey("plan"));
    expect(familyKey("store")).not.toBe(familyKey("story"));
  });
});
