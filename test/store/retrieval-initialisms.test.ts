/**
 * A compound the question writes out ("read-only", "time-to-live") that the output only prints
 * as its initials (`ro`, `ttl`): the initials are looked for as a whole part of an identifier,
 * as a word's clippings are (`sched` for "scheduler"), and only when the text never writes the
 * compound out. Outputs written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { initialismOf } from "../../src/store/search/abbreviations.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** An NFS server's export table: path, client, options; one export is `ro`, every other `rw`. */
function exportsTable(): string {
  const lines = ["EXPORT                 CLIENT            OPTIONS"];
  const names = ["home", "srv", "data", "media", "backup", "scratch", "build", "logs", "www", "repo"];
  for (let i = 0; i < 40; i++) {
    const opts = i === 27 ? "ro,sync,no_subtree_check" : `rw,sync,no_subtree_check,anonuid=${1000 + i}`;
    lines.push(`/export/${names[i % names.length]}${i}`.padEnd(23) + `10.0.${i}.0/24`.padEnd(18) + opts);
  }
  return lines.join("\n");
}

/** A resolver cache dump: every record with its `ttl=`; a note writes "time to live" out. */
function cacheDump(withNote: boolean): string {
  const lines = withNote ? ["; the time to live of a record is in seconds"] : [];
  for (let i = 0; i < 30; i++) lines.push(`host${i}.corp.example. A 10.1.0.${i} ttl=${300 + i * 7} class=IN`);
  return lines.join("\n");
}

describe("a compound's initials", () => {
  test("are its words' first letters, for two to four words of letters", () => {
    expect(initialismOf(["read", "only"])).toEqual(["ro"]);
    expect(initialismOf(["time", "to", "live"])).toEqual(["ttl"]);
    expect(initialismOf(["read"])).toEqual([]);
    expect(initialismOf(["ipv6", "only"])).toEqual([]);
  });

  test("find the row that prints only the initials (`ro` for read-only)", async () => {
    const text = exportsTable();
    const { store, source } = await stored(text);
    const answer = text.split("\n").findIndex((l) => l.includes("ro,sync")) + 1;
    expect(shows(top3(store, source, "which export is read-only"), answer, "ro,sync")).toBe(true);
  });

  test("are not looked for when the text writes the compound out", async () => {
    const { store, source } = await stored(cacheDump(true));
    // "zone" is in no line: no place has every word, and the stages that follow are reached.
    const hits = top3(store, source, "zone record time-to-live");
    const matched = hits.flatMap((h) => h.lines.filter((l) => l.match));
    expect(matched.some((l) => l.text.includes("time to live"))).toBe(true);
    // No record row matches by its `ttl=` in place of the words.
    expect(matched.filter((l) => l.text.includes("ttl="))).toEqual([]);
  });
});
