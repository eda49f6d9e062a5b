/**
 * Indentation measured in columns, a tab moving to the next multiple of 8: a line indented by a
 * tab is under one indented by two spaces (a key dump that indents its slots by spaces and their
 * fields by tabs). Outputs written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { structureOf } from "../../src/store/search/structure.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** Slots indented by two spaces, their fields by a tab; every slot has the same fields. */
function slotDump(): string {
  const lines = ["Volume header:", "\tversion: 3", "\tsectors: 4096", "", "Slots:"];
  for (const slot of [0, 1, 2, 5, 6]) {
    lines.push(`  ${slot}: active`, "\tCipher:     serpent-cbc", `\tRounds:     ${100000 + slot * 7919}`, "\tSalt:       ab cd ef 01");
    for (let i = 0; i < 8; i++) lines.push(`\tArea ${i}:     ${slot * 8 + i} [sectors]`);
  }
  return lines.join("\n");
}

describe("tab indentation", () => {
  test("a row indented by a tab is owned by the row above indented by two spaces", () => {
    const rows = ["Slots:", "  3: active", "\tRounds: 7", "\tSalt: 00", "  4: active", "\tRounds: 9"];
    const s = structureOf(rows, true);
    expect(s.owner[2]).toBe(1);
    expect(s.owner[3]).toBe(1);
    expect(s.owner[5]).toBe(4);
    expect(s.childEnd[1]).toBe(3);
  });

  test("a tab after spaces moves to the next tab stop", () => {
    const s = structureOf(["a", "   \tb", "        c"], true);
    expect(s.indent[1]).toBe(8);
    expect(s.indent[2]).toBe(8);
  });

  test("the field of the slot the query names, not of the slot listed first", async () => {
    const text = slotDump();
    const { store, source } = await stored(text);
    const answer = text.split("\n").indexOf("\tRounds:     139595") + 1;
    expect(answer).toBeGreaterThan(0);
    expect(shows(top3(store, source, "rounds for slot 5"), answer, "139595")).toBe(true);
  });
});
