/**
 * Rolling summaries and retention: a project's open window is summarised at 50 events or 4,000
 * tokens (real tokenizer) and its events archived; archived events go after memory.keepDays or
 * when the text passes the size cap, oldest first; summaries stay.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { cleanupTempDirs, tempDir } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

type Summary = { id: number; first_event: number; last_event: number; events: number; text: string; tokens: number; method: string };
const summaries = (m: ReturnType<typeof testMemory>) =>
  m.db.query<Summary, []>("SELECT id, first_event, last_event, events, text, tokens, method FROM memory_summaries ORDER BY id").all();
const unarchived = (m: ReturnType<typeof testMemory>) =>
  m.db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_events WHERE archived = 0").get()!.n;

/** An aggregate over the archived events in a summary's range. */
const archivedIn = (m: ReturnType<typeof testMemory>, s: Summary, what: string) =>
  m.db
    .query<{ n: number }, [number, number]>(`SELECT ${what} AS n FROM memory_events WHERE archived > 0 AND id BETWEEN ? AND ?`)
    .get(s.first_event, s.last_event)!.n;

describe("rolling summaries", () => {
  test("at 50 events the window becomes one summary (corrections kept verbatim) and its events are archived", async () => {
    const m = testMemory();
    expect(m.config.memory.windowEvents).toBe(50);
    await m.add("correction", "no, run the integration tests with --runInBand, not --maxWorkers=2");
    for (let i = 1; i < 48; i++) await m.add(i % 2 ? "prompt" : "answer", `Look at item ${i} in src/items/item${i}.ts please.`);
    expect(summaries(m)).toHaveLength(0);
    await m.add("error", "TypeError: Cannot read properties of undefined (reading 'id') at src/items/item7.ts:12:3");
    expect(summaries(m)).toHaveLength(0);
    await m.add("prompt", "That was the fiftieth event.");
    const [s] = summaries(m);
    expect(s).toMatchObject({ events: 50, method: "extractive" });
    expect(s!.text).toContain("- e1 correction: no, run the integration tests with --runInBand, not --maxWorkers=2");
    expect(s!.text).toContain("error: TypeError");
    expect(s!.tokens).toBe(countTokens(s!.text));
    // The seed design's summaries are ~150 tokens of a ~4,000-token window; ours stay well under the window.
    expect(s!.tokens).toBeLessThan(1300);
    expect(unarchived(m)).toBe(0);
    expect(archivedIn(m, s!, "count(*)")).toBe(50);
    // Archived events stay searchable until retention; the summary is found by its words too.
    const found = await m.ok({ type: "search", project: PROJECT, query: "runInBand integration tests" }, "search");
    expect(found.hits.length).toBeGreaterThan(0);
    const recall = await m.ok({ type: "recall", project: PROJECT, session: "next" }, "recall");
    expect(recall.text).toContain("Earlier (summaries):");
    expect(recall.text).toContain("--runInBand");
  });

  test("at 4,000 tokens (real count) a window is summarised before it has 50 events", async () => {
    const m = testMemory();
    const word = "retry backoff jitter timeout deadline circuit breaker ";
    const long = (i: number) => `Event ${i}: ${word.repeat(60)}`;
    const per = countTokens(long(1));
    const needed = Math.ceil(4000 / per);
    for (let i = 0; i < needed - 1; i++) await m.add("note", long(i));
    expect(summaries(m)).toHaveLength(0);
    await m.add("note", long(needed));
    const [s] = summaries(m);
    expect(s!.events).toBe(needed);
    const windowTokens = archivedIn(m, s!, "sum(tokens)");
    expect(windowTokens).toBeGreaterThanOrEqual(4000);
  });

  test("archived events older than keepDays are dropped, summaries and open events stay", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 10;
      c.memory.keepDays = 30;
    });
    for (let i = 0; i < 10; i++) await m.add("prompt", `Old task ${i}: rename src/old/file${i}.ts.`);
    expect(summaries(m)).toHaveLength(1);
    m.clock.t += 31 * 86_400_000;
    // The next write runs retention itself (at most hourly); the explicit call then finds nothing left.
    await m.add("prompt", "New task 0: update src/new/file0.ts.");
    expect(m.db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_events").get()!.n).toBe(1);
    for (let i = 1; i < 3; i++) await m.add("prompt", `New task ${i}: update src/new/file${i}.ts.`);
    expect((await m.ok({ type: "retention" }, "retention")).events).toBe(0);
    expect(summaries(m)).toHaveLength(1);
    expect(m.db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_events").get()!.n).toBe(3);
    const stats = await m.ok({ type: "stats", project: PROJECT }, "stats");
    expect(stats.projects[0]).toMatchObject({ events: 3, unarchived: 3, summaries: 1 });
    // The summary still answers for the dropped events.
    const found = await m.ok({ type: "search", project: PROJECT, query: "rename old file3" }, "search");
    expect(found.hits[0]!.type).toBe("summary");
  });

  test("a database written before archived became a flag (the summary's id in it) keeps its retention", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 10;
      c.memory.keepDays = 30;
    });
    for (let i = 0; i < 20; i++) await m.add("prompt", `Old task ${i}: rename src/old/file${i}.ts.`);
    const [a, b] = summaries(m);
    expect(b).toBeDefined();
    // What archiving wrote: a flag, in place.
    expect(m.db.query<{ v: number }, []>("SELECT DISTINCT archived AS v FROM memory_events").all()).toEqual([{ v: 1 }]);
    // As an older build wrote them: each event holds its summary's id.
    m.db.query("UPDATE memory_events SET archived = ? WHERE id BETWEEN ? AND ?").run(a!.id, a!.first_event, a!.last_event);
    m.db.query("UPDATE memory_events SET archived = ? WHERE id BETWEEN ? AND ?").run(b!.id, b!.first_event, b!.last_event);
    // The second summary was written 31 days later: its events stay 30 days after that, the first's go.
    m.db.query("UPDATE memory_summaries SET created_at = created_at + ? WHERE id = ?").run(31 * 86_400_000, b!.id);
    m.clock.t += 31 * 86_400_000;
    expect((await m.ok({ type: "retention" }, "retention")).events).toBe(10);
    const left = m.db.query<{ id: number }, []>("SELECT id FROM memory_events ORDER BY id").all();
    expect(left.map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => b!.first_event + i));
    expect(await m.ok({ type: "stats", project: PROJECT }, "stats")).toMatchObject({
      projects: [{ events: 10, unarchived: 0, summaries: 2 }],
    });
  });

  test("an older file is upgraded in place: the summaries' range index is added, what it stored is kept", async () => {
    const path = join(tempDir("memory-"), "sidecar.db");
    const at = MIGRATIONS.findIndex((m) => m.includes("memory_summaries_range"));
    expect(at).toBeGreaterThan(0);
    const old = openDatabase(path, { migrations: MIGRATIONS.slice(0, at) });
    old.exec(
      "INSERT INTO memory_projects (id, path, events) VALUES (1, '/p', 2); INSERT INTO memory_sessions (id, project_id, name) VALUES (1, 1, 's')",
    );
    old.exec(
      "INSERT INTO memory_summaries (id, project_id, first_event, last_event, events, text, tokens, method, created_at) VALUES (7, 1, 1, 2, 2, 'Summary of e1-e2', 5, 'extractive', 0)",
    );
    old.exec(
      "INSERT INTO memory_events (id, project_id, session_id, ts, kind, content, tokens, archived) VALUES (1, 1, 1, 0, 'note', 'the cache TTL is 30m', 6, 7), (2, 1, 1, 0, 'note', 'deploys go through argo', 5, 7)",
    );
    old.close();
    const db = openDatabase(path, { migrations: MIGRATIONS });
    expect(db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
    expect(db.query("SELECT name FROM sqlite_master WHERE name = 'memory_summaries_range'").get()).toEqual({
      name: "memory_summaries_range",
    });
    expect(db.query("SELECT id, archived FROM memory_events ORDER BY id").all()).toEqual([
      { id: 1, archived: 7 },
      { id: 2, archived: 7 },
    ]);
    expect(db.query("SELECT rowid FROM memory_events_fts WHERE memory_events_fts MATCH 'argo'").all()).toEqual([{ rowid: 2 }]);
    db.close();
  });

  test("past the size cap the oldest archived events go first", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 10;
      c.memory.keepDays = 0; // never by age: only the cap
      c.memory.maxBytes = 6_000;
    });
    const text = (i: number) => `Event ${String(i).padStart(3, "0")}: ${"the quick brown fox jumps over the lazy dog ".repeat(5)}`;
    for (let i = 0; i < 40; i++) await m.add("note", text(i));
    await m.ok({ type: "retention" }, "retention");
    const left = m.db.query<{ id: number; archived: number }, []>("SELECT id, archived FROM memory_events ORDER BY id").all();
    const bytes = m.db.query<{ n: number }, []>("SELECT sum(length(CAST(content AS BLOB))) AS n FROM memory_events").get()!.n;
    const counted = (await m.ok({ type: "stats", project: PROJECT }, "stats")).projects[0]!.textBytes;
    expect(counted).toBe(bytes);
    expect(bytes).toBeLessThanOrEqual(6_000);
    // Oldest went first: what is left is a suffix of the ids, and every summary is still there.
    const ids = left.map((r) => r.id);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => 40 - ids.length + 1 + i));
    expect(summaries(m)).toHaveLength(4);
  });

  test("memory.summarize = model: the window waits for the model's summary; corrections it left out are added back; none falls back to extractive", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 5;
      c.memory.summarize = "model";
    });
    const fix = await m.add("correction", "no, deploy the report scheduler with nomad, not helm");
    for (let i = 0; i < 4; i++) await m.add("prompt", `Rename handler ${i} in src/report/h${i}.ts.`);
    const due = await m.ok({ type: "add", project: PROJECT, session: "s1", kind: "prompt", text: "One more task." }, "add");
    expect(due.summaryDue).toBe(true);
    expect(summaries(m)).toHaveLength(0);
    const w = await m.ok({ type: "window", project: PROJECT }, "window");
    expect(w.window).toMatchObject({ first: 1, last: 5, events: 5 });
    expect(w.text).toContain(`- ${fix} correction: no, deploy the report scheduler with nomad, not helm`);
    // The model's summary forgot the correction: it is added back verbatim.
    const stored = await m.ok(
      { type: "storeSummary", project: PROJECT, window: w.window!, text: "- e2 prompt: handlers renamed" },
      "summarize",
    );
    const [s] = summaries(m);
    expect(stored.summaries).toEqual([`s${s!.id}`]);
    expect(s).toMatchObject({ method: "model", events: 5 });
    expect(s!.text).toContain("handlers renamed");
    expect(s!.text).toContain("nomad, not helm");
    // The next window: the model failed (no text), extractive instead.
    for (let i = 0; i < 5; i++) await m.add("command", `command failed (exit 1): make target${i}`);
    const next = await m.ok({ type: "window", project: PROJECT }, "window");
    await m.ok({ type: "storeSummary", project: PROJECT, window: next.window!, text: null }, "summarize");
    expect(summaries(m).map((x) => x.method)).toEqual(["model", "extractive"]);
    // Forgetting an event of the model's window rebuilds that summary from the window's other
    // events (found by its range; the next window's events are not among them).
    const forgot = await m.ok({ type: "forget", project: PROJECT, id: "e3" }, "forget");
    expect(forgot.events).toBe(1);
    const [rebuilt, second] = summaries(m);
    expect(rebuilt!.id).toBe(s!.id);
    expect(rebuilt!.text).not.toContain("handlers renamed");
    expect(rebuilt!.text).not.toContain("src/report/h1.ts");
    expect(rebuilt!.text).toContain("nomad, not helm");
    expect(rebuilt!.text).toContain("src/report/h3.ts");
    expect(rebuilt!.text).not.toContain("make target");
    expect(second!.text).toContain("make target");
  });
});
