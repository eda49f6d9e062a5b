/**
 * A record (a decision, note or correction) about one of the question's words ranks above chatter
 * that names the word as often: short prompts and file lists around a subject hold its word in
 * few other words (BM25 favours them), the record is what was said about it. Histories written
 * for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const search = async (m: TestMemory, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.id);

/** Short tasks about receipts (each a little different, so none is a repeat of another), and other work. */
async function chatter(m: TestMemory) {
  const tasks = [
    "the receipts page crashes on an empty cart",
    "the csv export of receipts lacks the tax column",
    "receipt totals are off by a cent",
    "the reprinted receipt shows the wrong date",
    "the receipts list is slow with many orders",
    "the emailed receipt has the old address",
    "the receipt footer wraps badly on narrow printers",
  ];
  for (const [i, t] of tasks.entries()) {
    await m.add("prompt", t, `s${i}`);
    await m.add("answer", `Looked into it and pushed a fix for item ${i}; tests pass.`, `s${i}`);
    await m.add("prompt", `tidy the styles of the settings screen, part ${i}`, `s${i}`);
    await m.add("answer", `Settings screen styles tidied, part ${i}.`, `s${i}`);
  }
}

describe("a record about the question's subject ranks above chatter naming it", () => {
  test("a note on what receipts look like is shown among short statements that name receipts", async () => {
    const m = testMemory();
    await chatter(m);
    const note = await m.add(
      "note",
      "receipts: store code, then the year, then a six digit counter that restarts every January, for example BER-2025-000187",
      "s9",
    );
    await chatter(m);
    // "number" is a word no event holds: the note and the tasks hold "receipt" alone.
    const hits = await search(m, "what does a receipt number look like");
    // Fourteen short statements hold the word as well; the note is among the five shown.
    expect(hits).toContain(note);
  });

  test("the same words in passing, not as the record's subject, get no such lift", async () => {
    const m = testMemory();
    await chatter(m);
    const passing = await m.add(
      "note",
      "release checklist: bump the version, tag the build, check that printed receipts still show the counter",
      "s9",
    );
    await chatter(m);
    const hits = await search(m, "what does a receipt number look like");
    expect(hits[0]).not.toBe(passing);
  });
});

describe("of two records about the question's subject, the later first", () => {
  async function history(later: "note" | "prompt") {
    const m = testMemory();
    await chatter(m);
    // "nightly" is a common word here (not a rare one, which a question would be asking for).
    for (let i = 0; i < 12; i++) await m.add("answer", `The nightly report for till ${i} went out.`, "s9");
    // The earlier note holds two of the question's words, the later one only its subject.
    const earlier = await m.add("note", "backups: nightly pg_dump to the office nas, kept for two weeks", "s10");
    await chatter(m);
    const newer = await m.add(later, "backups: restic snapshots into a b2 bucket, thirty of them kept", "s11");
    return { m, earlier, newer };
  }

  test("a later note about backups ranks above an earlier one that holds more of the question", async () => {
    const { m, earlier, newer } = await history("note");
    const hits = await search(m, "where do the nightly backups go");
    expect(hits).toContain(earlier);
    expect(hits.indexOf(newer)).toBeLessThan(hits.indexOf(earlier));
    expect(hits.indexOf(newer)).not.toBe(-1);
  });

  test("a later prompt saying the same is chatter: the earlier record keeps its place", async () => {
    const { m, earlier, newer } = await history("prompt");
    const hits = await search(m, "where do the nightly backups go");
    expect(hits[0]).toBe(earlier);
    expect(hits.indexOf(newer) === -1 || hits.indexOf(newer) > hits.indexOf(earlier)).toBe(true);
  });
});

describe("a later statement of change above the earlier statement the query found", () => {
  async function history(later: string) {
    const m = testMemory();
    for (let i = 0; i < 7; i++) {
      await m.add("prompt", `the receipt totals are off by a cent on till ${i}`, `s${i}`);
      await m.add("answer", `Fixed the rounding on till ${i} through the api; the ops box logs look clean.`, `s${i}`);
    }
    // A statement in a prompt (not a record: the rule for two records does not apply).
    const earlier = await m.add("prompt", "fyi the api image is built on the ops box by a nightly cron job", "s10");
    await chatter(m);
    const newer = await m.add("prompt", later, "s11");
    return { m, earlier, newer };
  }

  test("a prompt saying the image build moved ranks above the statement it changed, though it holds fewer of the question's words", async () => {
    const { m, earlier, newer } = await history(
      "heads up: image builds moved to a github actions workflow last week, it runs on every merge to main and pushes the tags to the registry, the dashboards and alerts stay as they were",
    );
    // "api", "ops" and "box" are common here: no rare word of the question is the earlier one's alone.
    const hits = await search(m, "where is the api image built, the ops box?");
    expect(hits[0]).toBe(newer);
    expect(hits).toContain(earlier);
  });

  test("a later prompt that changes nothing stays below", async () => {
    const { m, earlier, newer } = await history(
      "the image builds on a github actions workflow look slow to me, every merge to main waits for them and for the tags pushed to the registry, can you profile them",
    );
    const hits = await search(m, "where is the api image built, the ops box?");
    expect(hits[0]).toBe(earlier);
    expect(hits.indexOf(newer) === -1 || hits.indexOf(newer) > hits.indexOf(earlier)).toBe(true);
  });
});

describe("a rare word of the question held by the earlier statement alone keeps it first", () => {
  test("a question naming a job by its number finds the note that holds it, above later notes on the subject", async () => {
    const m = testMemory();
    await chatter(m);
    const job = await m.add("note", "staging: the ledger export job 7101 is paused until the auditors reply", "s20");
    await chatter(m);
    const later = [
      "staging: the mailer renders its templates from the theme repository",
      "staging: the search index is rebuilt every sunday night",
      "staging: the billing sandbox keys rotate on the first of the month",
      "staging: the gateway allows only the office addresses",
      "staging: the ledger database is a copy of production from last week",
    ];
    for (const [i, text] of later.entries()) await m.add("note", text, `s${21 + i}`);
    // 7101 is in one event: the question asks for that one, not the latest note on staging.
    const hits = await search(m, "staging ledger job 7101");
    expect(hits[0]).toBe(job);
  });
});
