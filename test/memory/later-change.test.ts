/**
 * A later statement that changes what an earlier one said is shown above it even when it holds
 * too little of the question to be found on its own: the two share a word of the question and
 * words besides (the old tool's name). One that shares only the question's word is not pulled in.
 * Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { holdsAsMuchAsked, swapsValue } from "../../src/memory/later-change.ts";
import type { Unit } from "../../src/memory/units.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { hitIds, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** Chatter about builds and release notes ("release" common, "artifacts" not). */
const chatter = async (m: TestMemory) => {
  for (let i = 0; i < 14; i++) {
    await m.add("prompt", `the nightly build ${i} is red again, can you look`, "s1");
    await m.add("answer", `Build ${i} was a flaky snapshot test; reran it green.`, "s1");
    if (i % 3 === 0) await m.add("prompt", `tidy the release notes for build ${i}`, "s1");
  }
};

const history = async (m: TestMemory) => {
  await chatter(m);
  return m.add("note", "release artifacts get uploaded to Artifactory (repo libs-release), creds in the ci vault", "s2");
};

/** An agent's answer too thin to be found on its own that changes what the history said. */
const THIN_CHANGE = "done. release uploads go to the github package registry now; the Artifactory uploader and its creds are deleted";

/** A few prompts, then the change (an agent's answer); whether it is shown right above `old`. */
async function changeShownAbove(m: TestMemory, old: string, text = THIN_CHANGE): Promise<void> {
  for (let i = 0; i < 4; i++) await m.add("prompt", `bump the changelog for ${i}`, "s4");
  const change = await m.add("answer", text, "s5");
  const found = await hitIds(m, "where are release artifacts stored");
  expect(found).toContain(change);
  expect(found.indexOf(change)).toBeLessThan(found.indexOf(old));
}

test("the change is shown above the statement it changes, found through what they both name", async () => {
  const m = testMemory();
  await changeShownAbove(m, await history(m));
});

test("the earlier statement's bracketed aside counts among the words they share", async () => {
  const m = testMemory();
  await chatter(m);
  const old = await m.add("note", "release artifacts get uploaded to the team drive (shared download folder), creds in the ci vault", "s2");
  await changeShownAbove(m, old, "done. release downloads moved to the github package registry now; the shared folder is deleted");
});

describe("a later change holding as much of the question as the earlier statement", () => {
  /** A unit holding the query groups given as {group: weight}, `held` of the query's weight. */
  const unit = (groups: Record<number, number>, held: number) =>
    ({
      match: {
        groups: new Map(Object.entries(groups).map(([g, w]) => [Number(g), w])),
        held,
        matched: Object.keys(groups).length,
        score: 1,
        total: 10,
        forms: new Map(),
      },
    }) as unknown as Unit;

  test("all of the earlier one's query words, two or more, or as much of their weight with two in common", () => {
    const earlier = unit({ 0: 3, 1: 2 }, 5);
    expect(holdsAsMuchAsked(unit({ 0: 3, 1: 2, 2: 1 }, 4), earlier)).toBe(true);
    expect(holdsAsMuchAsked(unit({ 0: 3, 1: 2 }, 5), earlier)).toBe(true);
    const wider = unit({ 0: 3, 1: 2, 3: 4 }, 9);
    expect(holdsAsMuchAsked(unit({ 0: 3, 1: 2 }, 9), wider)).toBe(true);
    expect(holdsAsMuchAsked(unit({ 0: 3, 1: 2 }, 5), wider)).toBe(false);
  });

  test("one word in common is not enough", () => {
    expect(holdsAsMuchAsked(unit({ 0: 3, 2: 5 }, 8), unit({ 0: 3 }, 3))).toBe(false);
    expect(holdsAsMuchAsked(unit({ 0: 3, 2: 5 }, 8), unit({ 0: 3, 1: 2 }, 5))).toBe(false);
  });
});

test.each([
  [
    "a change that shares only the question's word with it is not pulled in",
    "done. the release checklist page of the wiki is archived now",
  ],
  [
    "a later statement saying mostly the earlier one's words again is not pulled in",
    "done. the release upload to Artifactory libs-release works again now, creds from the ci vault replaced",
  ],
])("%s", async (_, text) => {
  const m = testMemory();
  const old = await history(m);
  const other = await m.add("answer", text, "s4");
  const found = await hitIds(m, "where are release artifacts stored");
  expect(found).toContain(old);
  expect(found).not.toContain(other);
});

test("the change stays right above the statement it changes when an older record on the subject lifts that statement", async () => {
  const m = testMemory();
  await chatter(m);
  await m.add("note", "release artifacts: stored on the old nexus box", "s2");
  const old = await m.add(
    "note",
    "release artifacts get uploaded to Artifactory (repo libs-release), creds in the ci vault, stored for a year",
    "s3",
  );
  await changeShownAbove(m, old);
});

test("a change that holds enough of the question itself is also kept right above the statement it changes", async () => {
  const m = testMemory();
  await chatter(m);
  const old = await m.add("note", "release artifacts are stored on Artifactory (repo libs-release), creds in the ci vault", "s2");
  // It holds enough of the question to be found on its own, but less of it than the note does.
  await changeShownAbove(
    m,
    old,
    "done. release artifacts go to the github package registry now; the Artifactory uploader and its creds are deleted",
  );
});

test("a number of the same unit set to another value counts as a word they share ('min 24 px' and 'raised to 40 px')", async () => {
  const run = async (change: string) => {
    const m = testMemory();
    for (let i = 0; i < 10; i++) {
      await m.add("prompt", `the list screen ${i} feels cramped, check the drag handles`, "s1");
      await m.add("answer", `List screen ${i} is fine; the drag handles line up.`, "s1");
      await m.add("answer", `Build ${i}: the minimum coverage check passed, size report attached.`, "s1");
    }
    const old = await m.add("note", "ui rule: drag handles min 24 px, per the platform guideline", "s2");
    for (let i = 0; i < 4; i++) await m.add("prompt", `bump the changelog for ${i}`, "s3");
    const later = await m.add("answer", change, "s4");
    const found = await hitIds(m, "what is the minimum size for drag handles?");
    return { old, later, found };
  };
  const raised = await run("raised the minimum grab target to 40 px; the list grips and the close x were the only ones under that.");
  expect(raised.found).toContain(raised.later);
  expect(raised.found.indexOf(raised.later)).toBeLessThan(raised.found.indexOf(raised.old));
  // A number of another unit, or the same number again, is no such word.
  expect(swapsValue("raised the minimum to 40 px", "drag handles min 24 px")).toBe(true);
  expect(swapsValue("raised the minimum to 40 rows", "drag handles min 24 px")).toBe(false);
  expect(swapsValue("still 24 px, checked", "drag handles min 24 px")).toBe(false);
  // One unit however written: a symbol or a name, singular or plural.
  expect(swapsValue("slots go to 45 min from april", "public slots are 30 minutes")).toBe(true);
  expect(swapsValue("the window is 12h now", "the window is 24 hours")).toBe(true);
  expect(swapsValue("still 30 mins", "public slots are 30 minutes")).toBe(false);
});

test("the same commit scope or label ('feat(print): ...' and 'fix(print): ...') counts as a word they share", async () => {
  const m = testMemory();
  for (let i = 0; i < 10; i++) {
    await m.add("prompt", `customer ${i} wants their invoice again, can you resend`, "s1");
    await m.add("answer", `Resent invoice ${i}; the customer got it.`, "s1");
  }
  const old = await m.add("answer", "feat(print): invoices rendered with wkhtml, one template per customer in the options", "s2");
  for (let i = 0; i < 4; i++) await m.add("prompt", `bump the changelog for ${i}`, "s3");
  const later = await m.add("answer", "fix(print): invoices come from typst now; the old package is gone.", "s4");
  const found = await hitIds(m, "which tool renders the invoices");
  expect(found).toContain(later);
  expect(found.indexOf(later)).toBeLessThan(found.indexOf(old));
});

describe("an answer taking on a requested change", () => {
  async function renderHistory(m: TestMemory): Promise<string> {
    for (let i = 0; i < 14; i++) {
      await m.add("prompt", `invoice ${i} shows the wrong total, can you look`, "s1");
      await m.add("answer", `Invoice ${i} rounded before summing; fixed the total.`, "s1");
    }
    await m.add("prompt", "how do the invoices get made? the office wants a new logo", "s2");
    return m.add(
      "answer",
      "Invoice PDFs are generated with PdfKit from `InvoiceRenderer`; the logo is a file at assets/invoice/logo.png.",
      "s2",
    );
  }

  test("the answer and the request it takes on are shown above what they change", async () => {
    const m = testMemory();
    const old = await renderHistory(m);
    for (let i = 0; i < 4; i++) await m.add("prompt", `bump the changelog for ${i}`, "s3");
    const request = await m.add(
      "prompt",
      "the client wants that pdf thing gone. use Typst instead, can you swap it for the invoices?",
      "s4",
    );
    const answer = await m.add(
      "answer",
      "Sure. I'll rewrite InvoiceRenderer to emit a template and render it with Typst; the logo stays a one-line change.",
      "s4",
    );
    const found = await hitIds(m, "which library renders the invoice pdfs?");
    expect(found.indexOf(answer)).toBeGreaterThanOrEqual(0);
    expect(found.indexOf(request)).toBeGreaterThanOrEqual(0);
    expect(found.indexOf(answer)).toBeLessThan(found.indexOf(old));
    expect(found.indexOf(request)).toBeLessThan(found.indexOf(old));
  });

  test("an answer after a prompt asking no change changes nothing", async () => {
    const m = testMemory();
    const old = await renderHistory(m);
    await m.add("prompt", "the pdf for the invoices looks blurry on print, can you check?", "s4");
    const answer = await m.add("answer", "Sure. InvoiceRenderer embeds the logo at 72 dpi; the pdf itself is vector.", "s4");
    const found = await hitIds(m, "which library renders the invoice pdfs?");
    expect(found.indexOf(old)).toBeGreaterThanOrEqual(0);
    if (found.includes(answer)) expect(found.indexOf(old)).toBeLessThan(found.indexOf(answer));
  });
});

test("a change setting another value in the same unit needs no word besides the question's", async () => {
  const m = testMemory();
  for (let i = 0; i < 14; i++) {
    await m.add("prompt", `snapshot ${i} of the wiki failed to mount, can you look`, "s1");
    await m.add("answer", `Snapshot ${i} had a stale lock file; removed it and it mounts.`, "s1");
  }
  for (let i = 0; i < 6; i++) await m.add("prompt", `the backup host ${i} is low on disk`, "s1");
  const old = await m.add("note", "note: the backup host keeps each snapshot 30 d, then the janitor prunes it", "s2");
  for (let i = 0; i < 4; i++) await m.add("prompt", `bump the changelog for ${i}`, "s3");
  const change = await m.add("prompt", "fix(snapshots): retention now 14 d per the new storage policy", "s4");
  const found = await hitIds(m, "how long does the backup host keep one snapshot?");
  expect(found.indexOf(change)).toBeGreaterThanOrEqual(0);
  expect(found.indexOf(change)).toBeLessThan(found.indexOf(old));
});

test("a thin change tied to the statement only by the project's everyday words is not pulled in", async () => {
  const m = testMemory();
  await chatter(m);
  const old = await m.add("note", "release artifacts get uploaded to Artifactory once the nightly build is green", "s2");
  for (let i = 0; i < 4; i++) await m.add("prompt", `bump the changelog for ${i}`, "s4");
  // It shares "release" with the question and "nightly", "build", "green" with the note: words of most of the history.
  const other = await m.add("answer", "done. the nightly build now tags a release at 3am instead of midnight, only when green", "s5");
  const found = await hitIds(m, "where are release artifacts stored");
  expect(found).toContain(old);
  expect(found).not.toContain(other);
});

/** The history, a few prompts, then the agent's answer `text` (never linked at write time): its id, the note's, the hits for `query`. */
async function answerAfter(text: string, query: string) {
  const m = testMemory();
  const old = await history(m);
  for (let i = 0; i < 4; i++) await m.add("prompt", `bump the changelog for ${i}`, "s4");
  const change = await m.add("answer", text, "s5");
  return { old, change, found: await hitIds(m, query) };
}

/** Questions asked of the history: one holding other words than the note's besides "release artifacts", and the note's own. */
const OTHER_WORDS = "where are the release artifacts of a build stored";
const NOTE_WORDS = "where are release artifacts stored";

test.each([
  [
    "a change holding only other words of the question is shown above the statement when they share two words each rare in the project",
    "done. uploads are stored in the GitHub package registry from now on with a fresh token; the Artifactory account is closed and its creds are deleted from the vault",
    OTHER_WORDS,
  ],
  [
    "a change sharing one word besides the question's is shown above the statement when it says that word, rare in the project, is gone",
    "done. the release job pushes to the GitHub package registry; dropped Artifactory",
    NOTE_WORDS,
  ],
])("%s", async (_, text, ask) => {
  const { old, change, found } = await answerAfter(text, ask);
  expect(found).toContain(change);
  expect(found.indexOf(change)).toBeLessThan(found.indexOf(old));
});

test.each([
  [
    "a change holding only other words of the question is not pulled in by one rare word they share",
    "done. builds are stored in the GitHub package registry from now on with a fresh token; Artifactory stays for the docs site",
    OTHER_WORDS,
  ],
  [
    "a change sharing one word besides the question's is not pulled in when it keeps that word",
    "done. the release job pushes to the GitHub package registry; Artifactory stays for the docs",
    NOTE_WORDS,
  ],
])("%s", async (_, text, ask) => {
  const { old, change, found } = await answerAfter(text, ask);
  expect(found).toContain(old);
  expect(found).not.toContain(change);
});

test("a change naming the quantity asked for ties to a statement that holds it only by its value", async () => {
  const m = testMemory();
  for (let i = 0; i < 14; i++) {
    await m.add("prompt", `the sync job ${i} timed out again, can you check the logs`, "s1");
    await m.add("answer", `Sync ${i} hit a slow query; added an index and reran it.`, "s1");
    if (i % 4 === 0) await m.add("command", `$ curl -s localhost:8080/health\n{"status":"ok","job":${i}}`, "s1");
  }
  const old = await m.add("answer", "Done. main.go wires the router and middleware; the web server listens on 8080 by default.", "s2");
  for (let i = 0; i < 4; i++) await m.add("prompt", `bump the changelog for ${i}`, "s3");
  // Too thin to pass alone ("port" is all it holds of the question), it shares with the statement "listen" (rare) and "8080" (not).
  const change = await m.add("prompt", "fix(config): move listen port to 8420, 8080 clashes with the printer admin page", "s4");
  const found = await hitIds(m, "what port is the web server bound to?");
  expect(found).toContain(old);
  expect(found).toContain(change);
  expect(found.indexOf(change)).toBeLessThan(found.indexOf(old));
});
