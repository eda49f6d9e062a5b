/**
 * A reply is read with the prompt it replies to (exchange.ts): the prompt names the subject, the
 * record that follows it in the same session says only the value. Histories written for these
 * tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { CONTEXT, REPLY_WINDOW, readRepliesWithPrompts, withPromptWords } from "../../src/memory/exchange.ts";
import type { TextScore } from "../../src/memory/rank.ts";
import type { EventKind } from "../../src/memory/types.ts";
import type { EventHit, Unit } from "../../src/memory/units.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const search = async (m: TestMemory, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.id);

/** Work that names the audit log and the database, each item a little different. */
async function chatter(m: TestMemory, from: number) {
  for (let i = from; i < from + 8; i++) {
    await m.add("prompt", `the audit log page times out for tenant ${i}`, `c${i}`);
    await m.add("answer", `Added an index for tenant ${i}; the audit page loads in 80 ms now.`, `c${i}`);
    await m.add("prompt", `database migration ${i} fails on the staging copy`, `c${i}`);
    await m.add("answer", `Migration ${i} fixed: a column default was missing.`, `c${i}`);
  }
}

describe("a reply is read with the prompt it replies to", () => {
  test("the record that settles a prompt's question is found by the prompt's words", async () => {
    const m = testMemory();
    await chatter(m, 0);
    await m.add("prompt", "where should the audit trail be stored? which database, compliance wants to know", "s1");
    const reply = await m.add(
      "decision",
      "append-only table in the ledger schema for the audit rows, writes through a trigger, no updates",
      "s1",
    );
    await chatter(m, 10);
    expect(await search(m, "which database holds the audit trail")).toContain(reply);
  });

  test("the same record after a prompt on something else is not lifted", async () => {
    const m = testMemory();
    await chatter(m, 0);
    await m.add("prompt", "the nightly export is slow again", "s1");
    const reply = await m.add(
      "decision",
      "append-only table in the ledger schema for the audit rows, writes through a trigger, no updates",
      "s1",
    );
    await chatter(m, 10);
    expect(await search(m, "which database holds the audit trail")).not.toContain(reply);
  });

  test("a prompt in another session lends nothing", async () => {
    const m = testMemory();
    await chatter(m, 0);
    await m.add("prompt", "the audit trail needs a home in a database, compliance wants to know which", "s1");
    const reply = await m.add(
      "decision",
      "append-only table in the ledger schema for the audit rows, writes through a trigger, no updates",
      "s2",
    );
    await chatter(m, 10);
    expect(await search(m, "which database holds the audit trail")).not.toContain(reply);
  });
});

describe("withPromptWords", () => {
  const score = (groups: [number, number][], held: number, matched: number, total: number, s: number): TextScore => ({
    score: s,
    matched,
    groups: new Map(groups),
    held,
    total,
    forms: new Map(groups.map(([g]) => [g, 1])),
  });

  test("the prompt's words the reply lacks count at CONTEXT of their weight, its own groups unchanged", () => {
    const own = score([[0, 2]], 2, 1, 8, 1);
    const prompt = score(
      [
        [0, 2],
        [1, 4],
      ],
      6,
      2,
      8,
      3,
    );
    const read = withPromptWords(own, prompt, 3);
    expect(read.held).toBeCloseTo(2 + CONTEXT * 4);
    expect(read.matched).toBe(2);
    expect([...read.groups.keys()]).toEqual([0]);
    expect(read.score).toBeGreaterThan(own.score);
  });

  test("a reply holding none of the query's words borrows nothing", () => {
    const own = score([], 0, 0, 8, 0);
    const prompt = score([[1, 4]], 4, 1, 8, 3);
    expect(withPromptWords(own, prompt, 3)).toBe(own);
  });
});

describe("readRepliesWithPrompts", () => {
  /** An event hit holding the given groups (each of weight 2, of 4 groups in all). */
  const hit = (id: number, kind: EventKind, session: number, groups: number[]): EventHit => {
    const held = 2 * groups.length;
    const match: TextScore = {
      score: groups.length === 0 ? 0 : (groups.length / 4) ** 2 * (0.5 + (0.5 * held) / 8),
      matched: groups.length,
      groups: new Map(groups.map((g) => [g, 2])),
      held,
      total: 8,
      forms: new Map(groups.map((g) => [g, 1])),
    };
    const unit: Unit = {
      event: id,
      order: id,
      text: kind,
      score: match.score,
      match,
      claim: true,
      record: true,
      replacedBy: null,
      repeats: 1,
    };
    return {
      type: "event",
      row: { id, project_id: 1, session_id: session, ts: id, kind, content: kind, tokens: 1, archived: 0, source: null, terms: null },
      unit,
    };
  };
  const opensAll = () => true;

  test("the reply holds its prompt's words; the prompt, and a reply in another session or past the window, do not change", () => {
    const prompt = hit(10, "prompt", 1, [0, 1, 2]);
    const reply = hit(12, "decision", 1, [0]);
    const elsewhere = hit(13, "decision", 2, [0]);
    const late = hit(10 + REPLY_WINDOW + 1, "note", 1, [0]);
    const before = reply.unit.score;
    readRepliesWithPrompts([prompt, reply, elsewhere, late], 4, opensAll);
    expect(reply.unit.match.held).toBeCloseTo(2 + CONTEXT * 4);
    expect(reply.unit.match.matched).toBe(3);
    expect(reply.unit.score).toBeGreaterThan(before);
    expect(prompt.unit.match.held).toBe(6);
    expect(elsewhere.unit.match.held).toBe(2);
    expect(late.unit.match.held).toBe(2);
  });

  test("a prompt that does not open (the caller's test) lends nothing; nor does a file list", () => {
    const prompt = hit(10, "prompt", 1, [0, 1, 2]);
    const reply = hit(11, "answer", 1, [0]);
    readRepliesWithPrompts([prompt, reply], 4, () => false);
    expect(reply.unit.match.held).toBe(2);
    const files = hit(11, "files", 1, [0]);
    readRepliesWithPrompts([hit(10, "prompt", 1, [0, 1, 2]), files], 4, opensAll);
    expect(files.unit.match.held).toBe(2);
  });
});
