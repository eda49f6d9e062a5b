/**
 * Corrections that say a thing left the project ("the X column dropped", "ripped out X",
 * "Y replaces X") are linked, when written, to the older statements naming X; the link holds
 * however the query is worded, and a search shows the correction first (supersede.ts,
 * conflicts.ts). Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** Everyday chatter that also names the old thing, so its name is not rare. */
async function chatter(m: TestMemory, n: number, name: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    await m.add("prompt", `can you rerun the shard ${i} suite`, "s1");
    await m.add("answer", `Shard ${i} is green; ${i % 3 === 0 ? `${name} log was clean,` : ""} took ${i + 40} s.`, "s1");
    await m.add("command", `$ make shard N=${i}`, "s1");
  }
}

const search = (m: TestMemory, query: string) => m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search");

/**
 * A query in the old statement's words (the correction may share none of them): the correction
 * is shown first and the old statement, below it, is marked as replaced by it.
 */
async function correctionFirst(m: TestMemory, query: string, old: string, fix: string): Promise<void> {
  const found = await search(m, query);
  expect(found.hits[0]?.id).toBe(fix);
  expect(found.hits.find((h) => h.id === old)?.supersededBy).toBe(fix);
}

describe("a thing said to be gone", () => {
  test("a clause that ends in 'dropped' (no auxiliary) rejects what it names", async () => {
    const m = testMemory();
    await chatter(m, 20, "quillvec search");
    const old = await m.add("prompt", "note search is Postgres full text with quillvec on notes", "s1");
    await chatter(m, 20, "quillvec search");
    const fix = await m.add("decision", "search moved to Marlindex, quillvec column dropped", "s2");
    await correctionFirst(m, "postgres full text on notes", old, fix);
  });

  test("'ripped out X' links to the statement that chose X even when they share no other word", async () => {
    const m = testMemory();
    await chatter(m, 20, "zorkarg");
    const old = await m.add("prompt", "feat(cli): argument parsing with zorkarg v3 and derive macros", "s1");
    await chatter(m, 20, "zorkarg");
    const fix = await m.add(
      "correction",
      "perf(size): ripped out the zorkarg crate, half the binary was it. a small hand parser now",
      "s2",
    );
    await correctionFirst(m, "argument parsing derive macros", old, fix);
  });

  test("'Y replaces X' in the present rejects X", async () => {
    const m = testMemory();
    await chatter(m, 20, "Pixloom");
    const old = await m.add("note", "thumbnail loading via Pixloom, the list integration lives in :ui:images", "s1");
    await chatter(m, 20, "Pixloom");
    const fix = await m.add("decision", "Decision: Fotokit replaces Pixloom everywhere, works better with the list screens", "s2");
    await correctionFirst(m, "thumbnail loading integration", old, fix);
  });

  test("a commit whose type is a verb ('build(win): ...') states a fact a later decision can replace", async () => {
    const m = testMemory();
    await chatter(m, 20, "Packwiz");
    const old = await m.add("prompt", "build(win): the Packwiz script produces the Windows installer", "s1");
    await chatter(m, 20, "Packwiz");
    const fix = await m.add("decision", "decision: drop Packwiz. Msixer builds the installer starting with 2.0", "s2");
    await correctionFirst(m, "script that produces the windows installer", old, fix);
  });

  test("a common word said to be gone replaces no statement that shares nothing else with it", async () => {
    const m = testMemory();
    await chatter(m, 20, "merge");
    for (let i = 0; i < 12; i++) await m.add("prompt", `the PR for ticket ${i} is up, the checks are green`, "s1");
    const other = await m.add("note", "note: squash merge only, the PR title becomes the commit", "s1");
    await chatter(m, 20, "merge");
    await m.add("correction", "we left Herokite; prod runs on Flyby machines now, PR previews are gone", "s2");
    const found = await search(m, "how do we merge a PR");
    expect(found.hits.find((h) => h.id === other)?.supersededBy).toBeNull();
  });
});

describe("what a correction names", () => {
  test("looked up by its words as written, not by their stems ('tsvector' stems to 'tsvect' as a family key)", async () => {
    const m = testMemory();
    await chatter(m, 20, "rankvector");
    const old = await m.add("prompt", "similarity search runs on rankvector inside the main database", "s1");
    await chatter(m, 20, "rankvector");
    const fix = await m.add("correction", "we no longer use rankvector; embeddings moved to Lancetta", "s2");
    await correctionFirst(m, "similarity search main database", old, fix);
  });

  test("an older statement holding both the new value and the rejected one is still replaced", async () => {
    const m = testMemory();
    await chatter(m, 20, "Blackbird");
    const old = await m.add("note", "note: formatting uses Blackbird with width 100, and Ruffle for lint", "s1");
    await chatter(m, 20, "Blackbird");
    const fix = await m.add("correction", "fyi Ruffle replaced Blackbird a while ago, use Ruffle format", "s2");
    await correctionFirst(m, "formatting width 100", old, fix);
  });

  test("the old statement's clause is replaced when the correction's other sentence holds the new value", async () => {
    const m = testMemory();
    await chatter(m, 20, "nodeenv");
    const old = await m.add("prompt", "node pinned to 18.19.0 (the last LTS we tested), see .nvmrc", "s1");
    await chatter(m, 20, "nodeenv");
    const fix = await m.add("correction", "dropped the nodeenv wrapper. pinned node 20.11.1 everywhere, scripts unchanged", "s2");
    await correctionFirst(m, "node pinned LTS we tested", old, fix);
  });
});
