/**
 * A hit holding two of the question's words is no one-word guess: it passes the gate at
 * LOOSE_SHARE of the question's weight, less than the MIN_SHARE a hit holding one word needs, when
 * the words it holds are the question's everyday ones and the others are said otherwise in it.
 * Histories written for these tests.
 */
import { afterAll, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { hitIds, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** Billing and invoices come up all the time; brokers, workers and publishing now and then. */
async function chatter(m: TestMemory) {
  for (let i = 0; i < 24; i++) {
    if (i % 2 === 0) await m.add("prompt", `the billing page shows the wrong total for customer ${i}`, `s${i}`);
    else await m.add("prompt", `invoices for customer ${i} are missing the tax line`, `s${i}`);
    await m.add("answer", `Fixed the rounding for customer ${i}; the totals add up again.`, `s${i}`);
    if (i % 8 === 0) await m.add("prompt", `the report worker for region ${i} is slow, can you profile it`, `s${i}`);
    if (i % 8 === 1) await m.add("prompt", `publish the changelog for release ${i}`, `s${i}`);
    if (i % 8 === 2) await m.add("prompt", `the broker dashboard for region ${i} needs a login`, `s${i}`);
  }
}

const QUERY = "which broker does billing publish invoices to";

test("an answer holding two everyday words of the question passes; one holding one of them does not", async () => {
  const m = testMemory();
  await chatter(m);
  const two = await m.add(
    "answer",
    "Moved that onto a nats stream with a durable consumer, so whatever billing sends about invoices lands in one place.",
    "s30",
  );
  const one = await m.add("answer", "Invoices are rendered to pdf with weasyprint.", "s31");
  await chatter(m);
  const hits = await hitIds(m, QUERY);
  expect(hits).toContain(two);
  expect(hits).not.toContain(one);
});
