/**
 * A plain-text chunk that starts among a ruled table's rows (a header line, a rule of dashes under
 * its columns, then hundreds of rows) is titled with the header, so a question naming a column
 * finds a row far below it. Outputs made here.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { RawChunk } from "../../src/store/chunk.ts";
import { tableHeaders } from "../../src/store/table-titles.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

const chunk = (lines: string[], lineStart: number): RawChunk => ({
  lineStart,
  lineEnd: lineStart + lines.length - 1,
  text: `${lines.join("\n")}\n`,
});

describe("tableHeaders", () => {
  test("a chunk starting among a ruled table's rows gets its header; the header's own chunk and one after a blank line do not", () => {
    const chunks = [
      chunk(["intro text", "", "Settings", "Name      Value", "--------  -----", "alpha     1"], 1),
      chunk(["beta      2", "gamma     3"], 7),
      chunk(["delta     4", "", "after the table"], 9),
      chunk(["more prose"], 12),
    ];
    expect(tableHeaders(chunks)).toEqual(["", "Settings Name Value", "Settings Name Value", ""]);
  });

  test("a rule of equals signs or one long run of dashes is a rule too; a line of prose is no header", () => {
    const long = "x".repeat(130);
    const chunks = [chunk(["Package   Version", "========= =======", "a         1"], 1), chunk(["b         2"], 4)];
    expect(tableHeaders(chunks)).toEqual(["", "Package Version"]);
    const prose = [chunk([long, "------------------", "a 1"], 1), chunk(["b 2"], 4)];
    expect(tableHeaders(prose)).toEqual(["", ""]);
  });
});

/** A made-up daemon's --help: options described in words, then every setting and its value in a ruled table. */
function help(): { text: string; answer: number } {
  const rows = ["Usage: quayd [OPTIONS]", ""];
  const names = ["spool-size", "spool-dir", "peer-timeout", "peer-limit", "flush-every", "log-level"];
  for (let i = 0; i < 150; i++) {
    const n = `${names[i % names.length]}-${Math.floor(i / names.length)}`;
    rows.push(`  --${n}=#`, `                      Sets the ${n.replace(/-/g, " ")} the daemon starts with;`);
    rows.push(`                      the spool_size_${i} of a queue is checked at start.`);
  }
  rows.push("  --spool-size=#", "                      Size of the spool in bytes; spool_size is read at start.", "");
  rows.push("Settings (--setting-name=value)", "name                                  value (after reading options)");
  rows.push("------------------------------------- ------------------------------");
  let answer = 0;
  for (let i = 0; i < 400; i++) {
    if (i === 333) {
      rows.push(`${"spool-size".padEnd(38)}67108864`);
      answer = rows.length;
    }
    rows.push(`${`${names[i % names.length]}-${Math.floor(i / names.length)}`.padEnd(38)}${(i * 37) % 1000}`);
  }
  return { text: rows.join("\n"), answer };
}

describe("a row far below a ruled table's header", () => {
  test("is found by a question naming the table's columns", async () => {
    const { text, answer } = help();
    const { store, source } = await stored(text);
    expect(shows(top3(store, source, "spool_size value in settings list"), answer, "67108864")).toBe(true);
  });
});
