/**
 * Bracketed asides are not what a statement says, unless it says next to nothing outside them
 * (classify.ts, tokenKeys): then its subject is in them, and a later change is linked by them.
 * Statements written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { tokenKeys } from "../../src/memory/classify.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("a statement said in its asides", () => {
  test("keys: the asides are kept only when the rest says fewer than two words", () => {
    expect([...tokenKeys("the api rate limit is 100 per minute (config in limits.yaml)")]).not.toContain("limits.yaml");
    expect([...tokenKeys("pinned: 3.9.2 (Makefile, setup.cfg, tox.ini)")]).toContain("tox.ini");
  });

  test("a version bump named only in brackets replaces the pin it changes", async () => {
    const m = testMemory();
    const pin = await m.add("note", "pin: python 3.9.2 everywhere (Makefile + setup.cfg + tox.ini)", "s1");
    await m.add("prompt", "the nightly build is red again", "s2");
    const bump = await m.add("note", "bumped to 3.11.4 (Makefile, setup.cfg, tox.ini). removed the old shim.", "s3");
    // The query's words are the pin's alone: only the link brings the bump, above it.
    const hits = (await m.ok({ type: "search", project: PROJECT, query: "which python is pinned everywhere", limit: 5 }, "search")).hits;
    const ids = hits.map((h) => h.id);
    expect(ids).toContain(bump);
    expect(ids.indexOf(bump)).toBeLessThan(ids.indexOf(pin));
  });

  test("two statements saying their own subjects share only an aside: no link", async () => {
    const m = testMemory();
    await m.add("note", "the api rate limit is 100 requests per minute (config in limits.yaml)", "s1");
    await m.add("note", "the worker pool size is now 8 threads (config in limits.yaml)", "s2");
    await m.ok({ type: "search", project: PROJECT, query: "rate limit", limit: 5 }, "search");
    expect(m.db.query("SELECT count(*) AS n FROM memory_supersessions").get()).toEqual({ n: 0 });
  });
});
