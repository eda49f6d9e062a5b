/**
 * "what time", "at what time", "time of day" ask for a time of day (Li and Roth's NUM:date): a
 * statement about the job that says no time of day is about another side of it. Histories written
 * for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { asksClockTime, holdsClockTime } from "../../src/memory/answer-type.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { hitIds, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("a time of day", () => {
  test("asked by 'what time', 'at what time' and 'time of day'; not by 'what time zone' or 'how much time'", () => {
    expect(asksClockTime("at what time does the backup job run")).toBe(true);
    expect(asksClockTime("what time of day are invoices mailed")).toBe(true);
    expect(asksClockTime("What time do the reminders go out?")).toBe(true);
    expect(asksClockTime("what time zone are dates stored in")).toBe(false);
    // "time" before any noun modifies it: a resolution, a step, a window is asked for, not a time of day.
    expect(asksClockTime("what time resolution does the simulation take its input in")).toBe(false);
    expect(asksClockTime("which time step does the solver use")).toBe(false);
    expect(asksClockTime("what time is the nightly export")).toBe(true);
    expect(asksClockTime("how much time does the backup take")).toBe(false);
  });

  test("said as a clock time, a part of the day or a cron schedule", () => {
    expect(holdsClockTime("backups run at 02:30 every day")).toBe(true);
    // ISO 8601's basic format with its leading zero; a four-digit number without one is a year or a port as often.
    expect(holdsClockTime("the gate opens 0630, closes at dusk")).toBe(true);
    expect(holdsClockTime("built in 2019, port 8080")).toBe(false);
    expect(holdsClockTime("ticket 0042-b")).toBe(false);
    expect(holdsClockTime("invoices go out at 6pm")).toBe(true);
    expect(holdsClockTime("the mailer runs nightly")).toBe(true);
    expect(holdsClockTime("schedule: 30 2 * * *")).toBe(true);
    expect(holdsClockTime("backups are kept for 14 days in the b2 bucket")).toBe(false);
    expect(holdsClockTime("upgraded the backup tool to 2.30.1")).toBe(false);
  });
});

test("a statement about the job that says no time of day does not answer when it runs; one that does, does", async () => {
  const m = testMemory();
  for (let i = 0; i < 12; i++) {
    await m.add("prompt", `the backup job failed on host ${i}, can you look`, "s1");
    await m.add("answer", `The backup job on host ${i} ran out of disk; pruned old archives.`, "s1");
  }
  const where = await m.add("note", "backup job: runs restic on the nas, archives go to the b2 bucket, kept 14 days", "s2");
  expect(await hitIds(m, "at what time does the backup job run")).not.toContain(where);
  const when = await m.add("note", "backup job runs at 02:30, after the db dump", "s3");
  expect(await hitIds(m, "at what time does the backup job run")).toContain(when);
});

describe("'when' and 'what time' are answered by a time said with part of the question", () => {
  async function digestHistory(): Promise<TestMemory> {
    const m = testMemory();
    for (let i = 0; i < 30; i++) await m.add("prompt", `the theme colour on page ${i} is off`, "s1");
    for (let i = 0; i < 3; i++) await m.add("prompt", `the digest for team ${i} has a broken link`, "s1");
    await m.add("answer", "Rebuilt the docker image; the base layer was stale.", "s1");
    return m;
  }

  test("a day and a time of day with the question's subject answer 'when'", async () => {
    const m = await digestHistory();
    const answer = await m.add("answer", "DigestBuilder runs from cron, Fridays 07:30 local, four weeks ahead.", "s2");
    expect(await hitIds(m, "when does the digest get rebuilt?")).toContain(answer);
  });

  test("the same text without a time does not", async () => {
    const m = await digestHistory();
    const answer = await m.add("answer", "DigestBuilder runs from cron, a few weeks ahead.", "s2");
    expect(await hitIds(m, "when does the digest get rebuilt?")).not.toContain(answer);
  });
});
