/**
 * Searches keep each word's newest rows between calls (memory/newest-rows.ts): what a search finds
 * after adds, forgets and retention is what a fresh process (nothing kept) finds on the same file;
 * the count of deletes and rewrites that tells kept rows apart from stale ones is kept by triggers
 * (migration 013), on a database made before them too.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { candidates } from "../../src/memory/candidates.ts";
import { newestRows } from "../../src/memory/newest-rows.ts";
import { queryGroups } from "../../src/memory/query.ts";
import { createMemoryService } from "../../src/memory/service.ts";
import { answerOf } from "../../src/memory/types.ts";
import { cleanupTempDirs, tempDir } from "../helpers.ts";
import { openMemoryDb, PROJECT, realCount, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** What a new connection (nothing kept) finds for the query on the same file. */
async function freshSearch(m: TestMemory, query: string) {
  const db = openMemoryDb(m.path);
  try {
    const service = createMemoryService({ db, config: m.config, now: () => m.clock.t, count: realCount });
    const r = await service.handle({ type: "search", project: PROJECT, query, limit: 10 });
    if (!r.ok) throw new Error(r.message);
    return answerOf(r, "search").hits;
  } finally {
    db.close();
  }
}

const search = async (m: TestMemory, query: string) => (await m.ok({ type: "search", project: PROJECT, query, limit: 10 }, "search")).hits;

/** Works off the checks and summaries adds leave, so both connections search the same settled memory. */
async function settle(m: TestMemory) {
  for (;;) {
    const r = await m.ok({ type: "summarize", project: PROJECT, steps: 100 }, "summarize");
    if (!r.pending && r.summaries.length === 0) return;
  }
}

const changes = (m: TestMemory) =>
  m.db.query<{ value: string }, []>("SELECT value FROM memory_state WHERE key = 'index_changes'").get()?.value ?? null;

describe("kept newest rows", () => {
  test("a search after more adds finds the new rows as a fresh process does, past the per-word limit", async () => {
    const m = testMemory();
    // More rows per word than a search fetches (150), so what is kept is a cut list; both words common, so the all-words query runs too.
    const events = Array.from({ length: 400 }, (_, i) => ({
      kind: "note" as const,
      text: i % 3 === 0 ? `gravel pump ${i} checked` : i % 3 === 1 ? `gravel sifter ${i} oiled` : `pump housing ${i} painted`,
    }));
    await m.ok({ type: "addMany", project: PROJECT, events }, "addMany");
    await settle(m);
    const first = await search(m, "gravel pump");
    expect(first.length).toBeGreaterThan(0);
    expect(await freshSearch(m, "gravel pump")).toEqual(first);
    // New rows holding the words, and one holding both with a rare word: found by the kept lists' catch-up.
    for (let i = 0; i < 30; i++) await m.add("note", `gravel pump ${1000 + i} replaced`);
    await m.add("decision", "gravel pump 77 goes to the quarry shed");
    await settle(m);
    const again = await search(m, "gravel pump quarry");
    expect(again[0]!.text).toContain("quarry shed");
    expect(await freshSearch(m, "gravel pump quarry")).toEqual(again);
    const later = await search(m, "gravel pump");
    expect(later.map((h) => h.id)).not.toEqual(first.map((h) => h.id));
    expect(await freshSearch(m, "gravel pump")).toEqual(later);
    m.db.close();
  });

  test("a forgotten event or one retention dropped is not found again", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 10;
    });
    const id = await m.add("note", "the lantern battery is a 6V alkaline block");
    for (let i = 0; i < 12; i++) await m.add("note", `lantern wick ${i} trimmed`);
    expect((await search(m, "lantern battery")).map((h) => h.id)).toContain(id);
    const before = changes(m);
    await m.ok({ type: "forget", project: PROJECT, id }, "forget");
    expect(changes(m)).not.toBe(before);
    const after = await search(m, "lantern battery");
    expect(after.map((h) => h.id)).not.toContain(id);
    expect(after.some((h) => h.text.includes("6V"))).toBe(false);
    await settle(m);
    expect(await freshSearch(m, "lantern battery")).toEqual(after);

    await search(m, "lantern wick");
    await m.ok({ type: "summarize", project: PROJECT, steps: 100, force: true }, "summarize");
    m.clock.t += 40 * 86_400_000;
    m.config.memory.keepDays = 30;
    await m.ok({ type: "retention" }, "retention");
    expect(await search(m, "lantern wick")).toEqual(await freshSearch(m, "lantern wick"));
    m.db.close();
  });

  test("nothing is kept inside a transaction, and a changed count drops what was kept", () => {
    const db = openMemoryDb(join(tempDir("memory-"), "sidecar.db"));
    let runs = 0;
    const run = (floor: number) => {
      runs++;
      return [30, 20, 10].filter((id) => id > floor).slice(0, 2);
    };
    const q = { table: "events", key: "k", before: Number.MAX_SAFE_INTEGER, floor: 0, limit: 2, hi: 30, changes: "0" };
    db.transaction(() => {
      newestRows(db, q, run);
      newestRows(db, q, run);
    })();
    expect(runs).toBe(2);
    expect(newestRows(db, q, run)).toEqual([30, 20]);
    expect(newestRows(db, q, run)).toEqual([30, 20]);
    expect(runs).toBe(3);
    // Newer rows: only those above the kept newest id are asked for.
    const asked: number[] = [];
    const newer = (floor: number) => {
      asked.push(floor);
      return [40].filter((id) => id > floor);
    };
    expect(newestRows(db, { ...q, hi: 40 }, newer)).toEqual([40, 30]);
    expect(asked).toEqual([30]);
    expect(newestRows(db, { ...q, hi: 40, changes: "1" }, () => [40, 10])).toEqual([40, 10]);
    db.close();
  });

  test("the upgrade adds the count and its triggers to a database that has events", () => {
    const path = join(tempDir("memory-"), "sidecar.db");
    const old = openDatabase(path, { migrations: MIGRATIONS.slice(0, 12) });
    old.exec("INSERT INTO memory_projects (id, path) VALUES (1, '/p')");
    old.exec("INSERT INTO memory_sessions (id, project_id, name) VALUES (1, 1, 's')");
    for (let i = 1; i <= 3; i++)
      old.exec(`INSERT INTO memory_events (project_id, session_id, ts, kind, content, tokens) VALUES (1, 1, ${i}, 'note', 'kiln ${i}', 2)`);
    old.close();
    const db = openDatabase(path, { migrations: MIGRATIONS });
    const count = () => db.query<{ value: string }, []>("SELECT value FROM memory_state WHERE key = 'index_changes'").get()!.value;
    expect(count()).toBe("0");
    db.exec("DELETE FROM memory_events WHERE id = 1");
    expect(count()).toBe("1");
    db.exec("UPDATE memory_events SET archived = 1 WHERE id = 2");
    expect(count()).toBe("1");
    db.exec("UPDATE memory_events SET terms = 'kilns' WHERE id = 2");
    expect(count()).toBe("2");
    db.exec(
      "INSERT INTO memory_summaries (project_id, first_event, last_event, events, text, tokens, method, created_at) VALUES (1, 2, 3, 2, 'x', 1, 'extractive', 0)",
    );
    db.exec("UPDATE memory_summaries SET text = 'y'");
    db.exec("DELETE FROM memory_summaries");
    expect(count()).toBe("4");
    db.close();
  });

  test("candidates from kept rows are the candidates worked out afresh (inside a transaction nothing is kept)", async () => {
    const m = testMemory();
    const events = Array.from({ length: 360 }, (_, i) => ({
      kind: "note" as const,
      text: [
        `depl ${i}: deploy the kiln`,
        `the deployer moved kilns ${i}, glaze next`,
        `kiln and kilner ${i} deploy later, glaze`,
        `glaze ${i} deploy depl`,
      ][i % 4]!,
    }));
    await m.ok({ type: "addMany", project: PROJECT, events }, "addMany");
    const groups = queryGroups("deploy the kiln glaze");
    expect(groups.some((g) => g.forms.length > 1)).toBe(true);
    const o = { projectId: 1, single: true, keep: 60 };
    // Every group common (more rows than a group's list holds), so the all-rare-groups query runs too.
    const whole = m.db.transaction(() => candidates(m.db, "events", groups, o))();
    expect(candidates(m.db, "events", groups, o)).toEqual(whole);
    expect(candidates(m.db, "events", groups, o)).toEqual(whole);
    // Rows added since: the kept lists caught up are the lists worked out afresh.
    const more = Array.from({ length: 40 }, (_, i) => ({ kind: "note" as const, text: `glaze kiln ${i} deploy again` }));
    await m.ok({ type: "addMany", project: PROJECT, events: more }, "addMany");
    const fresh = m.db.transaction(() => candidates(m.db, "events", groups, o))();
    expect(fresh).not.toEqual(whole);
    expect(candidates(m.db, "events", groups, o)).toEqual(fresh);
    m.db.close();
  });
});
