/**
 * A query word the text writes apart (word-split.ts), on outputs written for these tests: the
 * split itself, and search finding the key when the query runs its words together, with the
 * other query words on the line or nowhere in the text.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { search } from "../../src/store/search/search.ts";
import { splitWord } from "../../src/store/search/word-split.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

describe("splitWord", () => {
  const vocabulary = (words: string[]) => {
    const set = new Set(words);
    return (w: string) => set.has(w);
  };

  test("cuts a run into the fewest known words, the longest first", () => {
    const exists = vocabulary(["pool", "idle", "timeout", "time", "out", "poolid", "le"]);
    expect(splitWord("poolidletimeout", exists)).toEqual(["pool", "idle", "timeout"]);
  });

  test("no split when a piece is unknown, too short, or the run is short or not letters", () => {
    const exists = vocabulary(["queue", "depth", "ab", "cd", "max"]);
    expect(splitWord("queuedepthx", exists)).toBeNull();
    expect(splitWord("abcdab", exists)).toBeNull();
    expect(splitWord("maxmax", exists)).toEqual(["max", "max"]);
    expect(splitWord("queue2depth", exists)).toBeNull();
    expect(splitWord("queue", exists)).toBeNull();
  });

  test("at most four parts", () => {
    const exists = vocabulary(["one", "two", "six", "ten", "red"]);
    expect(splitWord("onetwosixten", exists)).toEqual(["one", "two", "six", "ten"]);
    expect(splitWord("onetwosixtenred", exists)).toBeNull();
  });
});

/** A daemon's settings, one `name value` per line, and log lines that use the same words apart. */
function settingsDump(): string {
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) lines.push(`worker ${i}: pool resized after idle check, timeout reset to ${i * 3}s`);
  const keys = [
    "listen_port 7300",
    "pool_min_size 2",
    "pool_idle_timeout 45",
    "pool_max_size 64",
    "read_timeout 30",
    "idle_check_every 10",
  ];
  lines.push(...keys);
  for (let i = 0; i < 40; i++) lines.push(`request ${i} served from pool slot ${i % 8} in ${i}ms`);
  return lines.join("\n");
}

describe("a query word the text writes apart", () => {
  test("one run of words finds the key written with underscores", async () => {
    const text = settingsDump();
    const { store, source } = await stored(text);
    const answer = text.split("\n").indexOf("pool_idle_timeout 45") + 1;
    expect(shows(top3(store, source, "poolidletimeout"), answer, "pool_idle_timeout 45")).toBe(true);
  });

  test("with other query words the text never writes, the split word still names the line", async () => {
    const text = settingsDump();
    const { store, source } = await stored(text);
    const answer = text.split("\n").indexOf("pool_idle_timeout 45") + 1;
    expect(shows(top3(store, source, "poolidletimeout configured daemon"), answer, "pool_idle_timeout 45")).toBe(true);
  });
});

describe("a split after a typo correction", () => {
  test("the answer says what was corrected, as every other mode does", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 30; i++) lines.push(`request ${i} served by listener ${i % 4} in ${i}ms`);
    lines.push("listener_backlog 512", "pool_idle_timeout 45", "pool_max_size 64");
    const { store, source } = await stored(lines.join("\n"));
    // "lisener" is corrected to listener; "poolidletimeout" is then split into the text's words.
    const r = search(store, { query: "lisener poolidletimeout", source, limit: 3 });
    if (!r.ok) throw new Error(r.message);
    expect(r.corrections).toEqual({ lisener: "listener" });
    expect(r.text.split("\n")[0]).toContain("corrected: lisener -> listener");
  });
});

describe("splitWord's cost", () => {
  test("a long run of letters that splits nowhere stops after a bounded number of lookups", () => {
    let asked = 0;
    const exists = (w: string) => {
      asked++;
      return w.length === 3;
    };
    // Every 3-letter piece exists but no split has four parts or fewer: the lookups stay bounded.
    expect(splitWord("abcdefghijklmnopqrstuvwxyzabcdef", exists)).toBeNull();
    expect(asked).toBeLessThanOrEqual(96);
  });

  test("runs longer than 32 letters are not split", () => {
    expect(splitWord("a".repeat(33), () => true)).toBeNull();
  });
});
