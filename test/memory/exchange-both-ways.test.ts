/**
 * An exchange read both ways (exchange.ts): the output of what was run right after a prompt is
 * its reply, and a prompt that says the value holds the words of the answer replying to it.
 * Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const search = async (m: TestMemory, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.id);

/** Everyday work on the print spooler and the label printer, each item a little different. */
async function chatter(m: TestMemory, from: number) {
  for (let i = from; i < from + 8; i++) {
    await m.add("prompt", `the spooler drops job ${i} when the label printer sleeps`, `c${i}`);
    await m.add("answer", `Retry added for job ${i}; the spooler waits for the printer to wake.`, `c${i}`);
    await m.add("prompt", `label template ${i} prints the barcode too small`, `c${i}`);
    await m.add("answer", `Template ${i} barcode scaled up to 40 mm.`, `c${i}`);
  }
}

describe("the output after a prompt is its reply", () => {
  /** A crash reported in session s1 and its trace printed in `traceSession`; whether the trace is found by the prompt's words. */
  async function traceFound(traceSession: string): Promise<boolean> {
    const m = testMemory();
    await chatter(m, 0);
    await m.add("prompt", "spooler on the warehouse laptop crashes at start, trace below", "s1");
    const trace = await m.add(
      "error",
      "Error: cannot open queue directory\n  caused by: reading C:\\ProgramData\\Spoolr\\queue.db: access denied",
      traceSession,
    );
    await chatter(m, 10);
    return (await search(m, "which file holds the spooler queue on the warehouse laptop?")).includes(trace);
  }

  test("an error printed after a prompt naming the subject is found by the prompt's words", async () => {
    expect(await traceFound("s1")).toBe(true);
  });

  test("the same output in another session is not lifted", async () => {
    expect(await traceFound("s2")).toBe(false);
  });
});

describe("a prompt that says the value is read with its reply", () => {
  /** A request stating the printer model, then `reply` in its session; whether the request is found by the reply's words. */
  async function requestFound(reply: string): Promise<boolean> {
    const m = testMemory();
    await chatter(m, 0);
    const request = await m.add("prompt", "chore(warehouse): labels go to the Zebra ZD421 from now on", "s1");
    await m.add("answer", reply, "s1");
    await chatter(m, 10);
    return (await search(m, "which label printer model does the spooler drive?")).includes(request);
  }

  test("the request holding the value is found by the words of the answer that carried it out", async () => {
    expect(await requestFound("label printer model updated in the spooler config, driver installed")).toBe(true);
  });

  test("a request followed by an answer on something else is not lifted", async () => {
    expect(await requestFound("the barcode font is embedded now, the printer no longer substitutes it")).toBe(false);
  });
});

describe("a reply holds its prompt's words at three quarters of their weight", () => {
  test("an answer naming one common word of the question is found when its prompt names two rare ones", async () => {
    const m = testMemory();
    for (let i = 0; i < 8; i++) await m.add("answer", `label template ${i} prints the barcode too small on receipts`, `r${i}`);
    await chatter(m, 0);
    // Chatter making the question's other words known (not a record about them: one would rank ten times above the reply).
    await m.add("prompt", "provider contract review is due in spring, put it in the calendar", "n1");
    await m.add("prompt", "the checkout page shows mail options twice", "n3");
    await m.add("prompt", "customers asked for tracking links; the courier portal has them per parcel", "n2");
    await m.add("prompt", "customers say shipping notices land in junk folders, any idea why?", "s1");
    const answer = await m.add("answer", "Outgoing receipts now leave through the Mailgun eu endpoint with DKIM set.", "s1");
    await chatter(m, 10);
    expect(await search(m, "which provider delivers shipping receipts to customers by mail after checkout?")).toContain(answer);
  });
});

describe("a record after an answer is read with it", () => {
  test("a note setting down what the answer worked out is found by the answer's words", async () => {
    const m = testMemory();
    await chatter(m, 0);
    await m.add("prompt", "the depot sent their rules for failed courier visits, put them in", "s1");
    await m.add("answer", "pickup_fee() now adds a charge line when the courier reports a missed pickup; tests green.", "s1");
    const note = await m.add("note", "policy: a second visit for the same job is billed at 4 EUR", "s1");
    await chatter(m, 10);
    expect(await search(m, "what is charged when a pickup job is missed?")).toContain(note);
  });
});
