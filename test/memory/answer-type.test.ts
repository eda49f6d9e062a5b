/**
 * A question asking for a quantity ("how long", "how many", "which version", "... upload size")
 * is answered only by a text holding one (answer-type.ts); a text matching its other words but
 * holding no quantity is not a confident answer, and a search returns nothing rather than it.
 * Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { asksQuantity } from "../../src/memory/answer-type.ts";
import { holdsQuantity } from "../../src/memory/value-kinds.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("questions that ask for a quantity", () => {
  test("how many/long/often, a version, a numeric head noun; not where/who/how-to questions", () => {
    for (const q of [
      "how many workers run",
      "How long are backups kept",
      "how often does the cache refresh",
      "rust version we pin",
      "max attachment size",
      "cleanup period",
      "session lock duration",
      "max filename length",
      "what is the upload fee for large files",
      "after how many failures does the breaker open",
      "for how long are sessions kept",
      "at what size does the cache get evicted",
    ])
      expect(asksQuantity(q)).toBe(true);
    for (const q of [
      "where does the version string come from",
      "who bumps the version",
      "how do we deploy",
      "which logger do we use",
      "cache setup",
    ])
      expect(asksQuantity(q)).toBe(false);
  });

  test("the head of the what/which phrase names what is asked; a yes/no question asks for no version", () => {
    // A numeric noun modifying the head is not what is asked: a format, a unit, a check.
    for (const q of [
      "what date format do the invoices print",
      "which unit does the export write for sizes",
      "what extra check do refunds need during a count",
      "is it safe to drop the cache when the api version changes",
      "should we bump the version before tagging",
    ])
      expect(asksQuantity(q)).toBe(false);
    for (const q of [
      "what date do the invoices print",
      "which node version does ci use",
      "what version of python is pinned",
      "which unit size does the export write",
      "node version pinned",
    ])
      expect(asksQuantity(q)).toBe(true);
  });

  test("a statement without a number answers a question whose numeric word only modifies what is asked", async () => {
    const m = testMemory();
    for (let i = 0; i < 20; i++) {
      await m.add("prompt", `the invoice pdf for customer ${i} looks off, can you check the layout`, "s1");
      await m.add("answer", `Fixed the invoice layout for customer ${i}.`, "s1");
    }
    const format = await m.add("decision", "decided: invoices print dates as day month year, written out in words", "s1");
    const found = await m.ok({ type: "search", project: PROJECT, query: "what date format do the invoices print", limit: 5 }, "search");
    expect(found.hits.map((h) => h.id)).toContain(format);
  });

  test("a quantity is a number standing alone or with its unit, a number word, or a word of frequency", () => {
    for (const t of [
      "kept for 30 days",
      "pinned to 1.79",
      "TTL 12h",
      "v4 everywhere",
      "runs nightly",
      "twice a day",
      "every sprint",
      "once a week",
    ])
      expect(holdsQuantity(t)).toBe(true);
    // A digit inside a name is not a quantity; a summary line's label is left out.
    for (const t of ["files land in s3://raw-bucket/", "moved the worker to ec2", "- e931 decision: the version comes from git tags"])
      expect(holdsQuantity(t)).toBe(false);
  });

  test("a statement holding the question's words but no quantity is not returned; one with a quantity is", async () => {
    const m = testMemory();
    for (let i = 0; i < 15; i++) {
      await m.add("prompt", `can you look at the sync job for store ${i}`, "s1");
      await m.add("answer", `The sync job for store ${i} looks fine.`, "s1");
    }
    const vague = await m.add("note", "note: the audit log lives in the reporting schema, entries are kept as json", "s1");
    const asked = "how long are audit log entries kept";
    const before = await m.ok({ type: "search", project: PROJECT, query: asked, limit: 5 }, "search");
    expect(before.hits.map((h) => h.id)).not.toContain(vague);
    // The same words with a value: found, first.
    const answer = await m.add("note", "note: audit log entries are kept for 400 days, then archived", "s2");
    const after = await m.ok({ type: "search", project: PROJECT, query: asked, limit: 5 }, "search");
    expect(after.hits[0]?.id).toBe(answer);
    // Another kind of question about the same words still finds the statement without a quantity.
    const where = await m.ok({ type: "search", project: PROJECT, query: "where does the audit log live", limit: 5 }, "search");
    expect(where.hits.map((h) => h.id)).toContain(vague);
  });

  test("a statement with a quantity answers a quantity question in other words than the question's", async () => {
    const m = testMemory();
    const regions = ["east", "west", "north", "south", "central"];
    for (let i = 0; i < 40; i++) {
      const region = regions[i % regions.length];
      await m.add(
        "prompt",
        i % 4 === 0 ? `can you check the archive job in the ${region} region` : `please look at the ${region} login page`,
        "s1",
      );
      await m.add("answer", `The ${region} page renders fine now.`, "s1");
    }
    // "snapshots" is a word the memory never heard and "archive" a common one: without the quantity
    // the statement would be a guess (the query's unknown words count against it).
    const answer = await m.add("prompt", "archive retention_window: 90d, the pruner deletes the rest", "s1");
    const found = await m.ok({ type: "search", project: PROJECT, query: "how long does the archive keep snapshots", limit: 5 }, "search");
    expect(found.hits[0]?.id).toBe(answer);
  });
});
