/**
 * Requests, wishes and questions replace nothing (mood.ts, change-cues.ts): a wish reported of
 * others, a question after an opener of correction or tacked on with a comma, a question with its
 * interrogative word at the end, a request in the imperative, a change still to come under a
 * condition, a word of change used as a noun or adjective. A later statement of what holds on the same subject still replaces. Inputs are our own.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { isCorrection, statementOf } from "../../src/memory/classify.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("what asks or wishes is no correction", () => {
  test.each([
    // A wish reported of others.
    "the volunteers want a printed rota not the spreadsheet",
    // A question after an opener of correction.
    "wait, do refunds apply to gift vouchers too",
    "actually is the greenhouse sensor still on the old firmware?",
    // A question tacked on with a comma, after a report that uses "change" as a noun.
    "the export job broke after my change to the date columns, what did i do",
    // A question with its interrogative word at the end.
    "archive the old invoices now, or when",
    "drop the legacy importer when",
    // A request in the imperative.
    "sort the allotment waiting list by date now",
    "please paginate the seed catalogue, it has 3000 rows now",
    // A change still to come, under a condition: a plan.
    "the guest wifi gets cut from the office network if the audit isn't done by friday",
    // A past participle after a preposition is an adjective.
    "the formatter on changed files only",
  ])("%s", (text) => {
    expect(isCorrection(text, "prompt")).toBe(false);
    expect(statementOf(text, "prompt").changes).toBe(false);
  });

  test.each([
    "no, use pnpm",
    "I want vitest, not jest",
    "actually the greenhouse sensor runs firmware 2.1 now",
    "drop the enum, plants get their own table now",
    "we moved the rota to a shared calendar",
    "wait, the tenants get invoices by post now",
    "we cut the guest wifi from the office network, if anyone asks",
    "btw the staging port is 8081 now",
  ])("%s still corrects", (text) => {
    expect(isCorrection(text, "prompt")).toBe(true);
  });
});

/** Chatter so that not every word of the statements is rare. */
async function chatter(m: TestMemory, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await m.add("prompt", `could you rerun the greenhouse ${i} checks once more`, "s1");
    await m.add("answer", `Reran the greenhouse ${i} checks: all green, the dashboard loads in ${i + 40} ms.`, "s1");
  }
}

const addOk = (m: TestMemory, kind: "prompt" | "note", text: string) =>
  m.ok({ type: "add", project: PROJECT, session: "s2", kind, text }, "add");

describe("a request does not supersede a statement; a later statement of what holds does", () => {
  test("a wish reported of others leaves the reminder statement current", async () => {
    const m = testMemory();
    await chatter(m, 20);
    const old = await m.add("decision", "the watering reminder email goes out at 06:00 to every plot holder", "s1");
    await chatter(m, 20);
    const wish = await addOk(m, "prompt", "plot holders want a text message reminder not email");
    expect(wish.supersedes).toEqual([]);
    const fix = await addOk(m, "prompt", "the watering reminder goes out as a text message now, not email");
    expect(fix.supersedes).toEqual([old]);
  });

  test("a request in the imperative leaves the sign-in statement current", async () => {
    const m = testMemory();
    await chatter(m, 20);
    await m.add("decision", "plot holders sign in with one-time codes sent by email, no passwords", "s1");
    await chatter(m, 20);
    const asked = await addOk(m, "prompt", "paginate the plot holders list its 700 rows now");
    expect(asked.supersedes).toEqual([]);
  });
});

describe("a pointer at which thing was meant rejects no value", () => {
  test("'not that X, the other one' names no rejected value; 'Y, not X' does", () => {
    expect([...statementOf("no no, not that report, the weekly one. my bad", "correction").rejected]).toEqual([]);
    expect(statementOf("the weekly report, not the daily report", "correction").rejected.size).toBeGreaterThan(0);
  });

  test("'nope not that one, i meant X' asserts no value either: it says nothing of what holds", () => {
    const s = statementOf("nope not that one, i meant the weekly report", "correction");
    expect([...s.asserted]).toEqual([]);
    expect(s.states).toBe(false);
  });
});

describe("two reports on two things in the same words", () => {
  test("'gw-7 deploy hangs on staging' does not replace 'gw-3 deploy hangs on staging'; a new value of one thing does", async () => {
    const m = testMemory();
    await chatter(m, 20);
    await m.add("note", "gw-3 deploy hangs on staging", "s1");
    await chatter(m, 5);
    const other = await addOk(m, "note", "gw-7 deploy hangs on staging");
    expect(other.supersedes).toEqual([]);
    const old = await m.add("note", "the greenhouse gateway listens on port 8440", "s1");
    await chatter(m, 5);
    const fix = await addOk(m, "note", "the greenhouse gateway listens on port 8441");
    expect(fix.supersedes).toEqual([old]);
  });
});
