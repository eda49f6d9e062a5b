/**
 * The pass after an import (`memory add --jsonl` asks summarize until nothing is pending): the
 * word index the import's batches left in many segments is merged before the supersession checks,
 * and the windows due are written several to a transaction. Neither changes what is found: the
 * same corrections link to the same statements and the same windows become the same summaries as
 * when the backlog is worked off one window per call.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { NewEvent } from "../../src/memory/types.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

type M = ReturnType<typeof testMemory>;

const segments = (m: M) => m.db.query<{ n: number }, []>("SELECT count(DISTINCT segid) AS n FROM memory_events_fts_idx").get()!.n;

/** An import's events: everyday work, with a stated port now and then and a correction of it later. */
function history(n: number): NewEvent[] {
  const services = ["billing", "ledger", "mailer", "search", "gateway"];
  const out: NewEvent[] = [];
  for (let i = 0; i < n; i++) {
    const s = services[i % services.length]!;
    const session = `s${Math.floor(i / 80)}`;
    const ts = Date.UTC(2026, 0, 1) + i * 60_000;
    if (i % 97 === 5) out.push({ kind: "prompt", text: `The staging ${s} service runs on port ${3000 + i}.`, session, ts });
    else if (i % 97 === 60)
      out.push({ kind: "prompt", text: `no, the staging ${s} port is ${5000 + i}, not ${3000 + i - 55}`, session, ts });
    else if (i % 3 === 0) out.push({ kind: "command", text: `npm test -- ${s}/case${i}.test.ts`, session, ts });
    else if (i % 3 === 1) out.push({ kind: "answer", text: `I updated the ${s} handler for case ${i} and the tests pass.`, session, ts });
    else out.push({ kind: "prompt", text: `Can you look at the ${s} retry logic in case ${i}?`, session, ts });
  }
  return out;
}

async function importAll(m: M, events: NewEvent[], batch: number) {
  for (let i = 0; i < events.length; i += batch)
    await m.ok({ type: "addMany", project: PROJECT, events: events.slice(i, i + batch) }, "addMany");
}

/** Summarize calls until nothing is pending; the number of calls. */
async function workOff(m: M, steps: number): Promise<number> {
  for (let calls = 1; ; calls++) {
    const r = await m.ok({ type: "summarize", project: PROJECT, steps }, "summarize");
    if (!r.pending && r.summaries.length === 0) return calls;
  }
}

const outcome = (m: M) => ({
  supersessions: m.db.query("SELECT old_id, new_id FROM memory_supersessions ORDER BY old_id, new_id").all(),
  summaries: m.db.query("SELECT first_event, last_event, events, text, tokens FROM memory_summaries ORDER BY id").all(),
  open: m.db.query("SELECT count(*) AS n FROM memory_events WHERE archived = 0").get(),
});

describe("the pass after an import", () => {
  test("the import's index segments are merged into one before the checks, and every event is still found", async () => {
    const m = testMemory((c) => {
      c.memory.keepDays = 0;
    });
    await importAll(m, history(9000), 3000);
    expect(segments(m)).toBeGreaterThan(1);
    const first = await m.ok({ type: "summarize", project: PROJECT, steps: 1 }, "summarize");
    expect(first.pending).toBe(true);
    expect(segments(m)).toBe(1);
    m.db.exec("INSERT INTO memory_events_fts (memory_events_fts, rank) VALUES ('integrity-check', 1)");
    await workOff(m, 200);
    const found = await m.ok({ type: "search", project: PROJECT, query: `staging mailer port ${5000 + 97 * 81 + 60}`, limit: 5 }, "search");
    expect(found.hits.some((h) => h.text.includes(String(5000 + 97 * 81 + 60)))).toBe(true);
    m.db.close();
  });

  test("a large batch that finds the checks behind is stored without a step of its own; the pass finds the same links", async () => {
    const events = history(4500);
    const stepped = testMemory((c) => {
      c.memory.keepDays = 0;
    });
    const deferred = testMemory((c) => {
      c.memory.keepDays = 0;
    });
    const through = (m: M) =>
      Number(m.db.query<{ value: string }, []>("SELECT value FROM memory_state WHERE key LIKE 'superseded_through:%'").get()?.value ?? 0);
    const behind = (m: M) => m.db.exec("UPDATE memory_state SET value = '0' WHERE key LIKE 'superseded_through:%'");
    await importAll(stepped, events, 1500);
    // The first batch takes its step; then the checks are set back, as a fast import leaves them.
    await importAll(deferred, events.slice(0, 1500), 1500);
    behind(deferred);
    const second = await deferred.ok({ type: "addMany", project: PROJECT, events: events.slice(1500, 3000) }, "addMany");
    expect(second.pending).toBe(true);
    expect(through(deferred)).toBe(0);
    // A small batch (a capture) takes its step even while the checks are behind.
    const small = await deferred.ok({ type: "addMany", project: PROJECT, events: events.slice(3000, 3100) }, "addMany");
    expect(small.added).toBe(100);
    expect(through(deferred)).toBeGreaterThan(0);
    behind(deferred);
    await importAll(deferred, events.slice(3100), 1400);
    expect(through(deferred)).toBe(0);
    await workOff(stepped, 200);
    await workOff(deferred, 200);
    // The same links and the same windows summarised. A summary's wording picks lines by how rare
    // their words are in the memory when the window is written, so it may differ with when that was.
    const { summaries: a, ...linksA } = outcome(deferred);
    const { summaries: b, ...linksB } = outcome(stepped);
    expect(linksA).toEqual(linksB);
    const spans = (list: unknown[]) =>
      (list as { first_event: number; last_event: number; events: number }[]).map((s) => [s.first_event, s.last_event, s.events]);
    expect(spans(a)).toEqual(spans(b));
    expect(linksA.supersessions.length).toBeGreaterThan(0);
    stepped.db.close();
    deferred.db.close();
  });

  test("windows written several to a transaction: the same summaries and links as one window per call", async () => {
    const events = history(1500);
    const together = testMemory((c) => {
      c.memory.keepDays = 0;
    });
    const alone = testMemory((c) => {
      c.memory.keepDays = 0;
    });
    for (const m of [together, alone]) await importAll(m, events, 1500);
    const calls = await workOff(together, 200);
    await workOff(alone, 1);
    const a = outcome(together);
    expect(a.summaries.length).toBe(30);
    // Several windows per call (the first call also checks the corrections).
    expect(calls).toBeLessThan(a.summaries.length);
    expect(a.supersessions.length).toBeGreaterThan(0);
    expect(a).toEqual(outcome(alone));
    together.db.close();
    alone.db.close();
  });
});
