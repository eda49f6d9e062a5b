/**
 * The memory store on a real SQLite file: events in and out, forgetting for real (rows, the word
 * index and the file's bytes), redaction before anything is written, huge and empty events, and
 * hostile queries that must answer, not throw.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { cleanupTempDirs, rng, testSeed } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** The file's bytes with the WAL folded in: what is on disk. */
function fileBytes(m: ReturnType<typeof testMemory>): string {
  m.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return readFileSync(m.path).toString("latin1");
}

const ftsHits = (m: ReturnType<typeof testMemory>, word: string) =>
  m.db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM memory_events_fts WHERE memory_events_fts MATCH ?").get(`"${word}"`)!.n;

describe("memory store", () => {
  test("add, search, recall: what was said comes back, by kind, session and time", async () => {
    const m = testMemory();
    const a = await m.add("prompt", "The staging billing service runs on port 8080.", "s1");
    await m.add("command", "command failed (exit 1): npm run test -- src/billing/handler.test.ts", "s1");
    m.clock.t += 60_000;
    const b = await m.add("decision", "Decided to keep retries in src/billing/retry.ts at three attempts.", "s2");
    const found = await m.ok({ type: "search", project: PROJECT, query: "which port does billing staging use", limit: 5 }, "search");
    expect(found.hits[0]).toMatchObject({ id: a, type: "event", kind: "prompt", session: "s1", supersededBy: null });
    expect(found.hits[0]!.text).toContain("8080");
    expect(found.text).toContain(a);
    const retries = await m.ok({ type: "search", project: PROJECT, query: "retry attempts" }, "search");
    expect(retries.hits[0]!.id).toBe(b);
    // Recall for another session: what no summary holds yet comes back, within the budget.
    const recall = await m.ok({ type: "recall", project: PROJECT, session: "s3", prompt: "billing port" }, "recall");
    expect(recall.text).toContain("8080");
    expect(recall.tokens).toBeGreaterThan(0);
    expect(recall.tokens).toBeLessThanOrEqual(recall.budget);
    // Another project sees none of it.
    const other = await m.ok({ type: "search", project: "/work/other", query: "billing port" }, "search");
    expect(other.hits).toEqual([]);
  });

  test("forget by id and by query deletes rows, index entries and the bytes in the file", async () => {
    const m = testMemory();
    const keep = await m.add("note", "The audit logger writes to audit-trail.");
    const gone = await m.add("note", "Remember the zorblaxquux deploy key rotation on Fridays.");
    await m.add("prompt", "What did we say about qwertyvexil and the payments API?");
    await m.add("answer", "qwertyvexil is the payments API sandbox account.");
    expect(fileBytes(m)).toContain("zorblaxquux");
    const byId = await m.ok({ type: "forget", project: PROJECT, id: gone }, "forget");
    expect(byId).toMatchObject({ events: 1, summaries: 0, ids: [gone] });
    expect(m.db.query("SELECT 1 FROM memory_events WHERE id = ?").get(Number(gone.slice(1)))).toBeNull();
    expect(ftsHits(m, "zorblaxquux")).toBe(0);
    expect(fileBytes(m)).not.toContain("zorblaxquux");
    const byQuery = await m.ok({ type: "forget", project: PROJECT, query: "qwertyvexil" }, "forget");
    expect(byQuery.events).toBe(2);
    expect(ftsHits(m, "qwertyvexil")).toBe(0);
    expect(fileBytes(m)).not.toContain("qwertyvexil");
    expect((await m.ok({ type: "search", project: PROJECT, query: "qwertyvexil" }, "search")).hits).toEqual([]);
    // What was not asked for stays, and the project's counts follow.
    expect((await m.ok({ type: "search", project: PROJECT, query: "audit logger" }, "search")).hits[0]!.id).toBe(keep);
    expect((await m.ok({ type: "stats", project: PROJECT }, "stats")).projects[0]!.events).toBe(1);
    // Forgetting what is not there says so.
    expect((await m.ok({ type: "forget", project: PROJECT, query: "nothingmatchesthis" }, "forget")).text).toContain("nothing was deleted");
    const missing = await m.service.handle({ type: "forget", project: PROJECT, id: "e999999" });
    expect(missing).toMatchObject({ ok: false, code: "NOT_FOUND" });
    const both = await m.service.handle({ type: "forget", project: PROJECT, id: keep, query: "audit" });
    expect(both).toMatchObject({ ok: false, code: "BAD_FORGET" });
  });

  test("forget leaves no readable copy in the file or its WAL: archived events, summaries, corrections", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 10;
    });
    const secrets = ["plumvortexan", "quillhazardon", "tarnbellowix"];
    // An import, then enough events that the three are summarised and archived (the archive UPDATE moves rows inside their pages).
    const imported = await m.ok(
      {
        type: "addMany",
        project: PROJECT,
        session: "s1",
        events: [
          { kind: "note", text: `The ${secrets[0]} key lives in vault path kv/alpha.` },
          { kind: "prompt", text: `Remember ${secrets[1]} belongs to the billing team.` },
          { kind: "correction", text: `no, ${secrets[2]} is the staging password hint, not the prod one` },
          ...Array.from({ length: 25 }, (_, i) => ({ kind: "prompt" as const, text: `Task ${i}: look at src/m${i}.ts and the handler.` })),
        ],
      },
      "addMany",
    );
    const a = imported.ids[0]!;
    for (let pending = imported.pending; pending; ) pending = (await m.ok({ type: "summarize", project: PROJECT }, "summarize")).pending;
    expect(m.db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_events WHERE archived > 0").get()!.n).toBeGreaterThan(3);
    const raw = () => {
      // The file and its WAL as they are on disk (no checkpoint by the test).
      let bytes = readFileSync(m.path).toString("latin1");
      if (existsSync(`${m.path}-wal`)) bytes += readFileSync(`${m.path}-wal`).toString("latin1");
      return bytes;
    };
    m.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    for (const w of secrets) expect(raw()).toContain(w);
    await m.ok({ type: "forget", project: PROJECT, id: a }, "forget");
    await m.ok({ type: "forget", project: PROJECT, query: secrets[1]! }, "forget");
    await m.ok({ type: "forget", project: PROJECT, query: `${secrets[2]} staging` }, "forget");
    const after = raw();
    for (const w of secrets) expect({ w, found: after.includes(w) }).toEqual({ w, found: false });
    expect(after).not.toContain("kv/alpha");
    for (const w of secrets) {
      expect(ftsHits(m, w)).toBe(0);
      expect(m.db.query("SELECT 1 FROM memory_events_vocab WHERE term = ?").get(w)).toBeNull();
      expect(m.db.query("SELECT 1 FROM memory_summaries_vocab WHERE term = ?").get(w)).toBeNull();
    }
  });

  test("a database written before freed space was zeroed is rewritten once by the first forget", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 10;
    });
    // As an older build wrote it: no zeroing, and no mark that every page was written so.
    m.db.exec("PRAGMA secure_delete = 0");
    m.db.exec("DELETE FROM memory_state WHERE key = 'clean_pages'");
    const gone = await m.add("note", "The glimmerfaxon account is the billing sandbox.");
    for (let i = 0; i < 12; i++) await m.add("prompt", `Task ${i}: look at src/m${i}.ts please.`);
    m.db.exec("PRAGMA secure_delete = FAST");
    await m.ok({ type: "forget", project: PROJECT, id: gone }, "forget");
    m.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    expect(readFileSync(m.path).toString("latin1")).not.toContain("glimmerfaxon");
    expect(m.db.query("SELECT value FROM memory_state WHERE key = 'clean_pages'").get()).toEqual({ value: "1" });
  });

  test("a forgotten event leaves the summary that held it", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 5;
    });
    const ids: string[] = [];
    ids.push(await m.add("correction", "no, the frobnitzel cache lives in redis, not memcached"));
    for (let i = 0; i < 4; i++) ids.push(await m.add("prompt", `Fix the flaky test number ${i} in src/app/test${i}.ts.`));
    const summary = m.db.query<{ id: number; text: string }, []>("SELECT id, text FROM memory_summaries").get()!;
    expect(summary.text).toContain("frobnitzel");
    await m.ok({ type: "forget", project: PROJECT, id: ids[0]! }, "forget");
    const after = m.db.query<{ text: string }, [number]>("SELECT text FROM memory_summaries WHERE id = ?").get(summary.id)!;
    expect(after.text).not.toContain("frobnitzel");
    expect(
      m.db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_summaries_fts WHERE memory_summaries_fts MATCH 'frobnitzel'").get()!
        .n,
    ).toBe(0);
    expect(fileBytes(m)).not.toContain("frobnitzel");
  });

  test("secrets are redacted before anything is written (a GitHub token never reaches the file)", async () => {
    const m = testMemory();
    const token = `ghp_${"A1b2C3d4E5".repeat(4).slice(0, 36)}`;
    const r = await m.ok(
      { type: "add", project: PROJECT, session: "s1", kind: "error", text: `git push failed: remote rejected, GITHUB_TOKEN=${token}` },
      "add",
    );
    expect(r.redactions).toBeGreaterThan(0);
    const stored = m.db.query<{ content: string }, []>("SELECT content FROM memory_events").get()!.content;
    expect(stored).not.toContain(token);
    expect(stored).toContain("git push failed");
    expect(fileBytes(m)).not.toContain(token);
    expect(fileBytes(m)).not.toContain(token.slice(4, 24));
  });

  test("an empty event is refused with a reason; a huge one is cut and kept whole in the context store", async () => {
    const m = testMemory();
    for (const text of ["", "   \n\t  "]) {
      const r = await m.service.handle({ type: "add", project: PROJECT, kind: "note", text });
      expect(r).toMatchObject({ ok: false, code: "EMPTY" });
    }
    // A NUL (which ends a string for SQLite's functions) and half a surrogate pair are made harmless, not stored.
    const odd = await m.ok({ type: "add", project: PROJECT, kind: "note", text: "nul\u0000here and half \ud800 pair" }, "add");
    const oddRow = m.db
      .query<{ content: string }, [number]>("SELECT content FROM memory_events WHERE id = ?")
      .get(Number(odd.id.slice(1)))!;
    expect(oddRow.content).toBe("nul here and half \ufffd pair");
    await m.ok({ type: "forget", project: PROJECT, id: odd.id }, "forget");
    const bad = await m.service.handle({ type: "add", project: PROJECT, kind: "gossip" as "note", text: "x" });
    expect(bad).toMatchObject({ ok: false, code: "BAD_KIND" });
    const huge = Array.from({ length: 4000 }, (_, i) => `line ${i}: TypeError at frame ${i} in src/deep/module${i % 40}.ts`).join("\n");
    const r = await m.ok({ type: "add", project: PROJECT, session: "s1", kind: "error", text: huge }, "add");
    expect(r.cut).toBe(true);
    expect(r.sourceId).not.toBeNull();
    expect(m.wholes.get(r.sourceId!)).toBe(huge);
    const row = m.db.query<{ content: string; source: string }, []>("SELECT content, source FROM memory_events").get()!;
    expect(Buffer.byteLength(row.content)).toBeLessThanOrEqual(m.config.memory.maxEventBytes);
    expect(row.content).toContain(`context source ${r.sourceId}`);
    expect(row.source).toBe(r.sourceId!);
    // Forgetting it drops the whole text too.
    await m.ok({ type: "forget", project: PROJECT, id: r.id }, "forget");
    expect(m.wholes.has(r.sourceId!)).toBe(false);
  });

  test("hostile queries answer (no FTS syntax leaks through); an empty one says what to send", async () => {
    const seed = testSeed("memory hostile queries");
    const next = rng(seed);
    const m = testMemory();
    await m.add("note", 'The "auth gateway" uses NEAR-zero timeouts (col:value AND/OR NOT) * ^ - + ( ) {braces}.');
    const empty = await m.service.handle({ type: "search", project: PROJECT, query: "  " });
    expect(empty).toMatchObject({ ok: false, code: "EMPTY_QUERY" });
    expect((empty as { message: string }).message).toContain("memory_search");
    const random = Array.from({ length: 10_240 }, () => String.fromCharCode(32 + Math.floor(next() * 95))).join("");
    const queries = [
      '"',
      '"unterminated',
      "NEAR(auth gateway, 2)",
      "content:auth",
      "auth*",
      "AND OR NOT",
      "((((",
      "^auth",
      "- + * : ; '",
      "\u0000\u0001\u0002 auth",
      "🦀 auth gateway ✓",
      random,
      "auth ".repeat(3000),
    ];
    for (const query of queries) {
      const r = await m.service.handle({ type: "search", project: PROJECT, query, limit: 5 });
      expect({ query: query.slice(0, 30), ok: r.ok }).toEqual({ query: query.slice(0, 30), ok: true });
      const recall = await m.service.handle({ type: "recall", project: PROJECT, prompt: query });
      expect(recall.ok).toBe(true);
    }
    const plain = await m.ok({ type: "search", project: PROJECT, query: 'auth "gateway"' }, "search");
    expect(plain.hits).toHaveLength(1);
    const bad = await m.service.handle({ type: "search", project: "", query: "x" });
    expect(bad).toMatchObject({ ok: false, code: "BAD_PROJECT" });
    const unknown = await m.service.handle({ type: "explode" } as never);
    expect(unknown).toMatchObject({ ok: false, code: "BAD_REQUEST" });
  });

  test("a clock that goes backwards never reorders: times stay monotonic, the later statement stays current", async () => {
    const m = testMemory();
    const first = await m.add("prompt", "The staging search indexer runs on port 7001.");
    m.clock.t -= 3 * 86_400_000; // the clock jumps three days back
    const second = await m.add("correction", "no, the staging search indexer runs on port 7002, not 7001");
    const rows = m.db.query<{ id: number; ts: number }, []>("SELECT id, ts FROM memory_events ORDER BY id").all();
    expect(rows[1]!.ts).toBeGreaterThanOrEqual(rows[0]!.ts);
    const found = await m.ok({ type: "search", project: PROJECT, query: "staging search indexer port" }, "search");
    expect(found.hits[0]!.id).toBe(second);
    expect(found.hits.find((h) => h.id === first)?.supersededBy).toBe(second);
    // An import keeps its own (even older) time, and still counts as later by its order.
    const imported = await m.ok(
      { type: "add", project: PROJECT, kind: "note", text: "The search indexer owner is Wei.", ts: Date.UTC(2020, 0, 1) },
      "add",
    );
    expect(m.db.query<{ ts: number }, [number]>("SELECT ts FROM memory_events WHERE id = ?").get(Number(imported.id.slice(1)))!.ts).toBe(
      Date.UTC(2020, 0, 1),
    );
    const badTs = await m.service.handle({ type: "add", project: PROJECT, kind: "note", text: "x", ts: -5 });
    expect(badTs).toMatchObject({ ok: false, code: "BAD_TS" });
  });
});
