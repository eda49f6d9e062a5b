/**
 * Rule rows and records' owners. A lone `---` between two stanzas separates records (as a blank
 * line does); a `=====` under a table's column names makes them the header of every row below;
 * the stanza whose own first row names what the query asks about ranks over stanzas that merely
 * list it. The outputs are real (test/store/fixtures/retrieval/README.md).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { headersOf, isRule, structureOf } from "../../src/store/search/structure.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

const fixture = (name: string) => readFileSync(join(import.meta.dir, "fixtures/retrieval", name), "utf8");
const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

describe("pip show of seven packages, stanzas between `---` rows", () => {
  const text = fixture("pip-show-urllib3.txt");
  const rows = text.split("\n");
  const own = lineOf(text, "Name: urllib3");
  const version = own + 1;

  test("each `---` ends a block: the urllib3 stanza is a block of its own", () => {
    const s = structureOf(rows, true);
    expect(rows[own - 2]).toBe("---");
    expect(s.paraStart[version - 1]).toBe(own - 1);
    expect(s.paraEnd[version - 1]).toBeLessThan(rows.indexOf("---", own));
  });

  test("the first hit for `urllib3 version` is urllib3's own stanza, not one that requires it", async () => {
    // Four other stanzas name urllib3 on their `Requires:` row, next to their own `Version:`.
    expect(rows.filter((r) => r.startsWith("Requires:") && r.includes("urllib3")).length).toBe(4);
    const { store, source } = await stored(text);
    const hits = top3(store, source, "urllib3 version");
    const first = hits[0]!.lines.filter((l) => l.match).map((l) => l.line);
    expect(first[0]).toBeGreaterThanOrEqual(own);
    expect(shows([hits[0]!], version, "Version: 2.7.0")).toBe(true);
  });
});

describe("jfr summary: event counts under `Event Type  Count` and a `=====` rule", () => {
  const text = fixture("jfr-summary-sieve.txt");
  const rows = text.split("\n");
  const header = lineOf(text, "Event Type");
  const row = lineOf(text, "jdk.G1MMU");

  test("the rule is as wide as the column names, and the row is far below them", () => {
    expect(isRule(rows[header]!)).toBe(true);
    expect(row - header).toBeGreaterThan(30);
  });

  test("the column names are a header of a row far down the table", () => {
    const s = structureOf(rows, true);
    expect(headersOf(s, row - 1, rows)).toContain(header - 1);
  });

  test("the first hit shows the event's row with the column names that say what its numbers are", async () => {
    const { store, source } = await stored(text);
    const hits = top3(store, source, "G1MMU event size bytes");
    expect(shows([hits[0]!], row, "jdk.G1MMU")).toBe(true);
    expect(shows([hits[0]!], header, "Size (bytes)")).toBe(true);
  });
});

describe("protoc --decode: a map field's record lacks one query word its nested entry type has", () => {
  const text = fixture("protoc-decode-shelf.txt");
  const field = lineOf(text, 'type_name: ".shelf.v2.Book.TagsEntry"');

  test("the field's own record is still shown in a slot the complete places leave", async () => {
    // `tags map entry type`: the nested `TagsEntry` type has every word (`map_entry`), the field
    // that uses it (`name: "tags"`, `type_name: ...TagsEntry`) all but `map`.
    expect(
      text
        .split("\n")
        .slice(field - 6, field + 2)
        .join("\n"),
    ).not.toContain("map");
    const { store, source } = await stored(text);
    const hits = top3(store, source, "tags map entry type");
    expect(hits.length).toBeLessThanOrEqual(3);
    expect(shows(hits, field, "TagsEntry")).toBe(true);
  });
});

describe("rule rows", () => {
  test("a rule is three or more rule characters and spaces, nothing else", () => {
    expect(isRule("---")).toBe(true);
    expect(isRule("--------  ----  --------")).toBe(true);
    expect(isRule("+----+----+")).toBe(true);
    expect(isRule("--")).toBe(false);
    expect(isRule("--- a")).toBe(false);
    expect(isRule("")).toBe(false);
  });

  test("a rule indented under a row is that row's (a TAP report's `  ---` opens its YAML block)", () => {
    const rows = ["not ok 3 - loads", "  ---", "  duration_ms: 0.8", "  error: |-", "    boom", "  ...", "ok 4 - next"];
    const s = structureOf(rows, true);
    expect(s.indent[1]).toBe(2);
    expect(s.owner[3]).toBe(0);
  });
});
