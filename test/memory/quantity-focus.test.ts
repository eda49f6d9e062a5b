/**
 * A quantity question's focus word ("big" in "how big can a canvas get", "version") is said with a
 * value, not with the word: a text holding a value of the kind asked for (a size, a period, a
 * version), about the question's most specific other word, holds it (answer-type.ts: quantityFocus,
 * holdsValueFor; search.ts: the gate). Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { frequencyFocus, quantityFocus, versionCompound, versionOf } from "../../src/memory/answer-type.ts";
import { holdsValueFor } from "../../src/memory/value-kinds.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { hitIds, PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("the focus of a quantity question", () => {
  test("the word naming the quantity: after 'how', a version, a numeric head noun", () => {
    expect(quantityFocus("how big can a canvas get")).toEqual(["big"]);
    expect(quantityFocus("which postgres version do we run")).toEqual(["version"]);
    expect(quantityFocus("max attachment size")).toEqual(["size"]);
    // "many" and "often" are stop words: no focus word to stand in for.
    expect(quantityFocus("how many shards are there")).toEqual([]);
    expect(quantityFocus("where does the version come from")).toEqual([]);
    // A release named by its tool is a version; "release notes" ask for notes.
    expect(quantityFocus("which postgres release do we run")).toEqual(["release"]);
    expect(quantityFocus("what release notes template do we use")).toEqual([]);
  });

  test("a value of the kind asked for: a period for 'long', a size for 'big', a dotted number for a version", () => {
    expect(holdsValueFor("long", "tokens expire after 15 minutes")).toBe(true);
    expect(holdsValueFor("long", "pinned ruby 3.4.1")).toBe(false);
    expect(holdsValueFor("big", "canvas capped at 4096x4096")).toBe(true);
    expect(holdsValueFor("big", "uploads up to 25 MB")).toBe(true);
    expect(holdsValueFor("big", "retry 3 times")).toBe(false);
    expect(holdsValueFor("version", "we run postgres 16.2 in prod")).toBe(true);
    expect(holdsValueFor("version", "min api level is 26")).toBe(false);
    // A word of no listed kind takes any quantity.
    expect(holdsValueFor("count", "there are 12 of them")).toBe(true);
  });
});

async function canvasHistory(): Promise<TestMemory> {
  const m = testMemory();
  for (let i = 0; i < 30; i++) {
    await m.add("prompt", `the canvas flickers when I zoom on layer ${i}, can you look`, "s1");
    await m.add("answer", `Fixed the canvas redraw for layer ${i}.`, "s1");
    if (i % 10 === 0) await m.add("prompt", `big ${["refactor", "cleanup", "rename"][i / 10]} of the toolbar today`, "s1");
  }
  return m;
}

describe("a value stands in for the focus word", () => {
  test("a statement with a size about the canvas answers 'how big can a canvas get'; one without a size does not", async () => {
    const m = await canvasHistory();
    const sized = await m.add("answer", "Done: the canvas is clamped to 8192x8192 now, larger images get downscaled on import.", "s2");
    const r = await m.ok({ type: "search", project: PROJECT, query: "how big can a canvas get?", limit: 5 }, "search");
    expect(r.hits.map((h) => h.id)).toContain(sized);
  });

  test("a value of another kind, or one not said of the question's most specific word, does not stand in", async () => {
    const m = await canvasHistory();
    // A version is no size; a size of the toolbar is not the canvas's.
    const version = await m.add("answer", "Bumped the canvas library to 2.14.0, release notes are in the PR.", "s2");
    const toolbar = await m.add("answer", "The toolbar icons are 32x32 now.", "s2");
    const r = await m.ok({ type: "search", project: PROJECT, query: "how big can a canvas get?", limit: 5 }, "search");
    expect(r.hits.map((h) => h.id)).not.toContain(version);
    expect(r.hits.map((h) => h.id)).not.toContain(toolbar);
  });

  test("a later change saying the value ranks above an earlier statement that said the word", async () => {
    const m = await canvasHistory();
    const older = await m.add("decision", "max canvas size 4096x4096 -- anything bigger stutters on tablets", "s2");
    await m.add("prompt", "the poster templates need more room, can the editor cope", "s3");
    const later = await m.add("answer", "Yes: raised the canvas cap to 8192x8192 and tiles render lazily on tablets.", "s3");
    const r = await m.ok({ type: "search", project: PROJECT, query: "how big can a canvas get?", limit: 5 }, "search");
    const ids = r.hits.map((h) => h.id);
    expect(ids).toContain(older);
    expect(ids.indexOf(later)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(later)).toBeLessThan(ids.indexOf(older));
  });
});

describe("a release named by its tool is a version", () => {
  test("a tool's pinned version answers 'which <tool> release'; the tool named without one does not", async () => {
    const m = testMemory();
    for (let i = 0; i < 20; i++) {
      await m.add("prompt", `bundle ${i} fails on the worker, can you check the build log`, "s1");
      await m.add("answer", `The build of bundle ${i} failed on a missing import; fixed.`, "s1");
      if (i % 5 === 0) await m.add("prompt", `is deno fmt happy with bundle ${i}`, "s1");
    }
    await m.add("prompt", "the release checklist needs a line about the changelog", "s1");
    const pin = await m.add("command", "$ cat .dvmrc\ndeno 1.46.3", "s2");
    const named = await m.add("answer", "deno bundles fine on the build box too", "s2");
    const found = await hitIds(m, "which deno release do we build with");
    expect(found).toContain(pin);
    expect(found).not.toContain(named);
  });
});

describe("a version is said of what the question names it of", () => {
  test("the word right before 'version' or 'release' is what it is of", () => {
    expect(versionOf("which zig release does the box run")).toEqual(["zig"]);
    expect(versionOf("what postgres version is prod on")).toEqual(["postgres"]);
    expect(versionOf("where does the version come from")).toEqual([]);
    expect(versionOf("what release notes template do we use")).toEqual([]);
  });

  test("what it is of is the whole noun compound before 'version' or 'release'", () => {
    expect(versionCompound("which mongo server version is the club database on")).toEqual(["mongo", "server"]);
    expect(versionCompound("which php version does the production server run")).toEqual(["php"]);
    expect(versionCompound("where does the version come from")).toEqual([]);
    expect(versionCompound("which host runs the api")).toEqual([]);
  });

  test("another thing's version on the same server is no answer; the thing's own is", async () => {
    const m = testMemory();
    for (let i = 0; i < 12; i++) {
      await m.add("prompt", `the production server ran out of disk again on day ${i}, can you check`, "s1");
      await m.add(
        "answer",
        `Cleared old logs on the production server (day ${i}); ${i % 4 === 0 ? "php-fpm restarted fine" : "disk at 61%"}.`,
        "s1",
      );
    }
    const other = await m.add("command", "$ ssh prod-server 'mysql --version'\nmysql  Ver 8.0.36 for Linux on x86_64 (Ubuntu)", "s2");
    const asked = "which php version does the production server run";
    expect(await hitIds(m, asked)).not.toContain(other);
    const own = await m.add("command", "$ ssh prod-server 'php -v'\nPHP 8.2.12 (cli) (built: Oct 24 2024)", "s3");
    expect(await hitIds(m, asked)).toContain(own);
  });

  test("a tool's version answers though the question's rarest word is another", async () => {
    const m = testMemory();
    for (let i = 0; i < 25; i++) {
      await m.add("prompt", `test for module ${i} fails, can you run it again`, "s1");
      await m.add("answer", `Ran module ${i} again; ${i % 3 === 0 ? "the zig allocator leak" : "the flaky timeout"} is fixed.`, "s1");
    }
    await m.add("prompt", "cut the release notes for the docs site", "s1");
    await m.add("note", "build box was rebooted after the kernel update", "s1");
    await m.add("prompt", "the build box fan is loud", "s1");
    const pin = await m.add("command", "$ zig version\n0.13.0", "s2");
    expect(await hitIds(m, "which zig release does the box run")).toContain(pin);
  });
});

describe("a value of the kind asked for ranks above chatter naming the subject", () => {
  test("the version in a tool's output ranks above the build errors around it", async () => {
    const m = testMemory();
    const types = ["u8", "i32", "bool", "f64", "usize", "void", "anyerror", "comptime_int"];
    const parts = ["parser", "lexer", "codegen", "linker", "allocator", "printer", "scheduler", "resolver"];
    for (let i = 0; i < 8; i++)
      await m.add("error", `error: src/${parts[i]}.zig:${i + 3}:5: expected type '${types[i]}' in the ${parts[i]} build step`, "s1");
    for (let i = 0; i < 12; i++) await m.add("prompt", `the theme colour on page ${i} is off`, "s1");
    const out = await m.add("command", '$ zig env | grep -i ver\n  "zig_ver": "0.13.0",', "s2");
    expect(await hitIds(m, "what zig version does the build step use?")).toContain(out);
  });
});

describe("'how often' asks for a frequency", () => {
  test("its word is a stop word: the frequency stands for it", () => {
    expect(frequencyFocus("how often does the backup run")).toBe("often");
    expect(frequencyFocus("How frequently are logs rotated?")).toBe("frequently");
    expect(frequencyFocus("how long are logs kept")).toBeNull();
    expect(holdsValueFor("often", "cadence: 5s active, 300s idle")).toBe(true);
    expect(holdsValueFor("often", "rotated nightly")).toBe(true);
    expect(holdsValueFor("often", "pinned to 3.2")).toBe(false);
  });

  test("a statement with a frequency about the question's rarest word answers it in other words", async () => {
    const m = testMemory();
    for (let i = 0; i < 30; i++) {
      await m.add("prompt", `the ${["login", "billing", "export"][i % 3]} page on the dashboard is slow again, can you look`, "s1");
      await m.add("answer", `Cached the ${["login", "billing", "export"][i % 3]} queries, the page is fast again.`, "s1");
      if (i % 5 === 0) await m.add("prompt", "sensor reading on the map looks stale", "s1");
      if (i % 7 === 0) await m.add("prompt", "can the dashboard send a weekly digest", "s1");
    }
    const answer = await m.add(
      "note",
      "firmware cadence: 5s when active, 300s when paused (battery saver). nothing to do on our side.",
      "s2",
    );
    const r = await m.ok(
      { type: "search", project: PROJECT, query: "how often does a paused sensor send its reading", limit: 5 },
      "search",
    );
    expect(r.hits.map((h) => h.id)).toContain(answer);
  });
});

describe("'how often' is answered by a frequency, not by any quantity", () => {
  async function kettleHistory(): Promise<TestMemory> {
    const m = testMemory();
    for (let i = 0; i < 25; i++) {
      await m.add("prompt", `the kettle sensor shows a gap on shelf ${i}, can you look`, "s1");
      await m.add("answer", `Looked at shelf ${i}: nothing wrong with the wiring.`, "s1");
    }
    return m;
  }

  test("a statement holding the question's words and a percentage is no answer to how often", async () => {
    const m = await kettleHistory();
    const percent = await m.add("answer", "The kettle sensor calibration offset is 4.5% of the reading, set in calibration.toml.", "s2");
    const r = await m.ok(
      { type: "search", project: PROJECT, query: "how often is the kettle sensor calibration refreshed", limit: 5 },
      "search",
    );
    expect(r.hits.map((h) => h.id)).not.toContain(percent);
  });

  test("the same words with a period answer it", async () => {
    const m = await kettleHistory();
    const period = await m.add("answer", "The kettle sensor calibration is refreshed every 6 hours by the cron job.", "s2");
    const r = await m.ok(
      { type: "search", project: PROJECT, query: "how often is the kettle sensor calibration refreshed", limit: 5 },
      "search",
    );
    expect(r.hits.map((h) => h.id)).toContain(period);
  });
});
