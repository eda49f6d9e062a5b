/**
 * A plain-text chunk deep in an outline section (a manual page's section name at the margin,
 * its body indented under it over many paragraphs) is titled with that section, so a question
 * naming the section finds the line. The output is made here.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { RawChunk } from "../../src/store/chunk.ts";
import { outlineSections } from "../../src/store/outline-titles.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

const chunk = (lines: string[], lineStart: number): RawChunk => ({
  lineStart,
  lineEnd: lineStart + lines.length - 1,
  text: `${lines.join("\n")}\n`,
});

/** A manual page of a made-up tool: options, then its return values, each a paragraph. */
function manual(): { text: string; answer: number } {
  const rows = ["FROBCTL(1)                 User Commands                FROBCTL(1)", "", "NAME", "       frobctl - settle frobs", ""];
  rows.push("OPTIONS");
  for (let k = 0; k < 60; k++) {
    rows.push(`       --knob-${k} N`, `              Turns knob ${k} to N before settling; a knob left alone keeps the`);
    rows.push(`              setting of the last run (stored per spindle, ${k} at most).`, "");
  }
  rows.push("RETURN VALUES", "       frobctl returns one of these when it stops:", "");
  let answer = 0;
  for (let k = 0; k < 70; k++) {
    if (k === 41) answer = rows.length + 1;
    rows.push(
      `       ${String(k).padEnd(6)} ${k === 41 ? "Spindle jammed." : `Frob state ${k}.`} The settling stopped in phase ${k % 7} of the`,
    );
    rows.push(`              cycle; see the log for the spindle and knob involved.`, "");
  }
  rows.push("SEE ALSO", "       frobd(8)");
  return { text: `${rows.join("\n")}\n`, answer };
}

describe("outline sections", () => {
  test("a chunk that starts inside a section's indented body is titled with it; one at the margin is not", () => {
    const chunks = [
      chunk(["NAME", "       tool - does things", "", "LIMITS", "       first"], 1),
      chunk(["", "       second", "", "       third"], 6),
      chunk(["CAVEATS are long lines at the margin that read as prose and not as a name at all here"], 10),
      chunk(["       under prose"], 11),
    ];
    expect(outlineSections(chunks)).toEqual(["", "LIMITS", "", ""]);
  });

  test("a value deep in a long section is found by the section's name", async () => {
    const { text, answer } = manual();
    const { store, source } = await stored(text);
    expect(shows(top3(store, source, "frobctl return value 41"), answer, "Spindle jammed.")).toBe(true);
  });
});
