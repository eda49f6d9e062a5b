/**
 * A hex number typed short finds the address a tool printed zero-padded, and the other way round
 * (hex-width.ts). The outputs are made up for the test.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { hexForms } from "../../src/store/search/hex-width.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** A symbolizer's answers: one padded address per line, a function and a place. */
function symbolized(width: number): string {
  const lines: string[] = [];
  for (let i = 0; i < 120; i++) {
    const addr = (0x4a00 + 0x18 * i).toString(16).padStart(width, "0");
    lines.push(`0x${addr}: handler_${i} at /src/app/mod${i % 7}.c:${20 + i}`);
  }
  return `${lines.join("\n")}\n`;
}

describe("hex numbers at the width the text prints them", () => {
  test("the forms: without leading zeros, then padded to 4, 8 and 16 digits", () => {
    expect(hexForms("0x1a4f")).toEqual(["0x00001a4f", "0x0000000000001a4f"]);
    expect(hexForms("0x00001a4f")).toEqual(["0x1a4f", "0x0000000000001a4f"]);
    expect(hexForms("0xff")).toEqual(["0x00ff", "0x000000ff", "0x00000000000000ff"]);
    expect(hexForms("address")).toEqual([]);
  });

  test("a short address finds the line that prints it padded to 16 digits", async () => {
    const { store, source } = await stored(symbolized(16));
    const addr = (0x4a00 + 0x18 * 57).toString(16);
    const hits = top3(store, source, `which function is at address 0x${addr}`);
    expect(shows(hits, 58, "handler_57 at")).toBe(true);
  });

  test("a padded address finds the line that prints it short", async () => {
    const { store, source } = await stored(symbolized(0));
    const addr = (0x4a00 + 0x18 * 33).toString(16).padStart(8, "0");
    expect(shows(top3(store, source, `0x${addr} source line`), 34, "handler_33 at")).toBe(true);
  });

  test("a number the text holds as typed is looked for as typed", async () => {
    const text = `${symbolized(16)}jump table at 0x4a18 (short form)\n`;
    const { store, source } = await stored(text);
    expect(shows(top3(store, source, "0x4a18"), 121, "jump table")).toBe(true);
  });
});
