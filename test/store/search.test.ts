import { afterAll, describe, expect, test } from "bun:test";
import { type SearchAnswer, search } from "../../src/store/search/search.ts";
import { captureIndexed, cleanupTempDirs, noisyLog, rng, settleStore, testStore } from "../helpers.ts";

afterAll(cleanupTempDirs);

function ok(r: ReturnType<typeof search>): SearchAnswer {
  if (!r.ok) throw new Error(`search failed: ${r.message}`);
  return r;
}

async function seeded() {
  const store = testStore();
  const uuid = crypto.randomUUID();
  const line = 500 + Math.floor(Math.random() * 400);
  const log = noisyLog(1400, Date.now() % 1000, { line, text: `2026-11-22T08:00:00Z [w3] deploy check TARGET_VALUE=${uuid} status=ok` });
  const r = await captureIndexed(store, { text: log, tool: "bash", session: "s1", project: "/proj" });
  if (!r.stored) throw new Error("not stored");
  return { store, uuid, line, sourceId: r.sourceId };
}

describe("search", () => {
  test("finds a random TARGET_VALUE in the noisy middle of a 1,400-line log; the hit is under 4 KiB", async () => {
    const { store, uuid, line, sourceId } = await seeded();
    for (const query of ["TARGET_VALUE", "target value", `TARGET_VALUE=${uuid}`, uuid]) {
      const r = ok(search(store, { query }));
      const hit = r.hits[0]!;
      expect(hit.sourceId).toBe(sourceId);
      expect(hit.lines.some((l) => l.line === line && l.text.includes(uuid))).toBe(true);
      expect(Buffer.byteLength(hit.text)).toBeLessThan(4096);
      expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(4096 + 200);
      // The matching line, with its number, not the chunk's first lines.
      expect(hit.text).toContain(`${line}: `);
    }
  });

  test("hits the size limit cut are said to be cut by it, apart from matches past the limit asked for", async () => {
    const store = testStore();
    const n = 1200 + Math.floor(Math.random() * 300);
    const text = Array.from({ length: n }, (_, i) => `step ${i}: widget failure in stage ${i % 7} after ${i * 3} ms`).join("\n");
    await captureIndexed(store, { text, tool: "bash", force: true });
    const r = ok(search(store, { query: "widget failure", limit: 20 }));
    expect(r.hits.length).toBeGreaterThan(0);
    expect(r.hits.length).toBeLessThanOrEqual(20);
    const [summary] = r.text.split("\n");
    if (r.hits.length < 20) expect(summary).toMatch(/\d+ more did not fit the answer's [\d.]+ KiB limit \(search\.maxResponseBytes\)/);
    else expect(summary).not.toContain("did not fit");
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(store.config.search.maxResponseBytes);
    // A limit the answer holds: nothing is said to be cut.
    const small = ok(search(store, { query: "widget failure", limit: 1 }));
    expect(small.hits).toHaveLength(1);
    expect(small.text.split("\n")[0]).not.toContain("did not fit");
    expect(small.text.split("\n")[0]).toMatch(/more matches not shown/);
  });

  test("substring of an identifier and of a uuid", async () => {
    const { store, uuid, line } = await seeded();
    const r = ok(search(store, { query: "GET_VAL" }));
    expect(r.hits[0]!.lines.some((l) => l.line === line)).toBe(true);
    const part = uuid.slice(9, 23);
    const r2 = ok(search(store, { query: part }));
    expect(r2.hits[0]!.lines.map((l) => l.line)).toContain(line);
  });

  test("typos: a misspelled word still finds the line", async () => {
    const store = testStore();
    const log = noisyLog(800, 11, { line: 420, text: "FATAL: the authentication handshake with upstream failed" });
    await captureIndexed(store, { text: log, tool: "bash" });
    for (const query of ["authentcation", "handshak upstream", "authetnication"]) {
      const r = ok(search(store, { query }));
      expect(r.hits.length).toBeGreaterThan(0);
      expect(r.hits[0]!.lines.map((l) => l.line)).toContain(420);
      expect(r.mode === "typo-tolerant" || r.mode === "all words" || r.mode === "any word").toBe(true);
    }
    expect(ok(search(store, { query: "authentcation" })).mode).toBe("typo-tolerant");
  });

  test("stemming: 'failing connections' finds 'connection failed'", async () => {
    const store = testStore();
    await captureIndexed(store, { text: noisyLog(600, 5, { line: 300, text: "worker: connection failed after 3 retries" }), tool: "bash" });
    const r = ok(search(store, { query: "failing connections" }));
    expect(r.hits[0]!.lines.map((l) => l.line)).toContain(300);
  });

  test("AND first, OR when no chunk has every word", async () => {
    const store = testStore();
    await captureIndexed(store, { text: noisyLog(600, 9, { line: 100, text: "alpha bravo charlie" }), tool: "bash" });
    expect(ok(search(store, { query: "alpha bravo" })).mode).toBe("all words");
    const r = ok(search(store, { query: "alpha zulu" }));
    expect(r.mode).toBe("any word");
    expect(r.hits[0]!.lines.map((l) => l.line)).toContain(100);
  });

  test("hostile query strings never throw and never leak FTS5 syntax errors", async () => {
    const { store } = await seeded();
    const r = rng(42);
    const fixed = [
      '"',
      '""',
      "'",
      "(",
      ")",
      "((a)",
      "a:b",
      "col:value",
      "-x",
      "-",
      "*",
      "a*",
      "^start",
      "NEAR(a b)",
      "NEAR",
      "AND",
      "OR",
      "NOT",
      "a AND",
      "OR b",
      "a OR OR b",
      "{a b}",
      "[x]",
      "x + y",
      "\\",
      "%",
      "_",
      "a%b_c",
      "\u0000",
      "😀",
      "日本語",
      "ñandú",
      "ǅ",
      "SELECT * FROM chunks; DROP TABLE chunks;--",
      "' OR 1=1 --",
      '"a" NEAR/2 "b"',
      "a".repeat(5000),
      "TARGET_VALUE:*",
    ];
    const alphabet = "\"'()*:-^{}[]+ NEARORANDNOT\\%_xyz0😀";
    const randoms = Array.from({ length: 200 }, () =>
      Array.from({ length: 1 + Math.floor(r() * 20) }, () => alphabet[Math.floor(r() * alphabet.length)]).join(""),
    );
    for (const query of [...fixed, ...randoms]) {
      const res = search(store, { query });
      if (!res.ok) expect(res.code).toBe("EMPTY_QUERY");
    }
    expect(store.db.query("SELECT count(*) AS n FROM chunks").get()).not.toEqual({ n: 0 });
  });

  test("filters by source, tool, session and project", async () => {
    const store = testStore();
    const a = await captureIndexed(store, {
      text: noisyLog(400, 1, { line: 10, text: "shared marker zebra" }),
      tool: "bash",
      session: "s1",
      project: "/a",
    });
    const b = await captureIndexed(store, {
      text: noisyLog(400, 2, { line: 20, text: "shared marker zebra" }),
      tool: "mcp",
      session: "s2",
      project: "/b",
    });
    if (!a.stored || !b.stored) throw new Error("not stored");
    const ids = (f: object) => ok(search(store, { query: "zebra", ...f })).hits.map((h) => h.sourceId);
    expect(new Set(ids({}))).toEqual(new Set([a.sourceId, b.sourceId]));
    expect(ids({ source: a.sourceId })).toEqual([a.sourceId]);
    expect(ids({ tool: "mcp" })).toEqual([b.sourceId]);
    expect(ids({ session: "s1" })).toEqual([a.sourceId]);
    expect(ids({ project: "/b" })).toEqual([b.sourceId]);
    const missing = search(store, { query: "zebra", source: "ctx_nothere" });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.message).toContain("ctx_nothere");
  });

  test("responses stay bounded however many chunks match", async () => {
    const store = testStore();
    await captureIndexed(store, {
      text: Array.from({ length: 3000 }, (_, i) => `error ${i}: something failed in module ${i % 13}`).join("\n"),
      tool: "bash",
    });
    const r = ok(search(store, { query: "error failed", limit: 50 }));
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(4096 + 300);
    expect(r.omitted).toBeGreaterThan(0);
    for (const h of r.hits) expect(h.lines.length).toBeLessThanOrEqual(6);
  });

  test("search results are counted as retrieved tokens for their source", async () => {
    const { store, sourceId } = await seeded();
    const before = store.db.query<{ t: number }, [string]>("SELECT retrieved_tokens AS t FROM sources WHERE handle = ?").get(sourceId)!.t;
    ok(search(store, { query: "TARGET_VALUE" }));
    await settleStore(store); // counted off the search's path
    const after = store.db.query<{ t: number }, [string]>("SELECT retrieved_tokens AS t FROM sources WHERE handle = ?").get(sourceId)!.t;
    expect(after).toBeGreaterThan(before);
  });
});

describe("typo correction against stems and crowded vocabularies", () => {
  test("a misspelled word finds its stem even among thousands of hex ids with the same first letter", async () => {
    const store = testStore();
    const r = rng(3);
    const hexLines = Array.from(
      { length: 4000 },
      () => `id=${Array.from({ length: 12 }, () => "abcdef0123456789"[Math.floor(r() * 16)]).join("")} dbg`,
    );
    hexLines[2500] = "rolling deployment finished for service billing";
    await captureIndexed(store, { text: hexLines.join("\n"), tool: "bash" });
    const res = ok(search(store, { query: "deplomyent" }));
    expect(res.mode).toBe("typo-tolerant");
    expect(res.hits[0]!.lines.map((l) => l.line)).toContain(2501);
  });

  test("one misspelled word of two is corrected, not dropped", async () => {
    const store = testStore();
    await captureIndexed(store, { text: noisyLog(800, 21, { line: 400, text: "feature component crashed on mount" }), tool: "bash" });
    await captureIndexed(store, { text: noisyLog(800, 22, { line: 10, text: "component rendered fine" }), tool: "bash" });
    const res = ok(search(store, { query: "featurre component" }));
    expect(res.corrections).toEqual({ featurre: "feature" }); // a word that exists, not a stem
    expect(res.hits[0]!.lines.map((l) => l.text)).toContain("feature component crashed on mount");
  });
});

describe("typo correction in one source", () => {
  test("corrects only to a word of the source searched: the closest word of another output is passed over", async () => {
    const store = testStore();
    // "restord" is one edit from `restore` (only in the other output) and two from `restart` (in the one searched).
    const other = await captureIndexed(store, { text: noisyLog(600, 41, { line: 200, text: "snapshot restore completed" }), tool: "bash" });
    const mine = await captureIndexed(store, {
      text: noisyLog(600, 42, { line: 300, text: "daemon restart requested by operator" }),
      tool: "bash",
    });
    if (!mine.stored || !other.stored) throw new Error("not stored");
    const res = ok(search(store, { query: "restord", source: mine.sourceId }));
    expect(res.corrections).toEqual({ restord: "restart" });
    expect(res.hits[0]!.lines.map((l) => l.line)).toContain(301);
    // Searched everywhere, the closest word is still the correction.
    expect(ok(search(store, { query: "restord" })).corrections).toEqual({ restord: "restore" });
  });

  test("a correction the source writes only inside a longer name is in scope", async () => {
    const store = testStore();
    await captureIndexed(store, { text: noisyLog(500, 45, { line: 100, text: "allocator tcmalloc selected" }), tool: "bash" });
    const mine = await captureIndexed(store, {
      text: noisyLog(500, 46, { line: 260, text: "mapped /opt/lib/libtcmalloc.so.4 into worker" }),
      tool: "bash",
    });
    if (!mine.stored) throw new Error("not stored");
    const res = ok(search(store, { query: "tcmaloc mapped", source: mine.sourceId }));
    expect(res.corrections).toEqual({ tcmaloc: "tcmalloc" });
    expect(res.hits[0]!.lines.map((l) => l.line)).toContain(261);
  });

  test("a word no output writes is not turned into a word only another output writes", async () => {
    const store = testStore();
    await captureIndexed(store, { text: noisyLog(500, 43, { line: 100, text: "mounted the overlay filesystem" }), tool: "bash" });
    const mine = await captureIndexed(store, { text: noisyLog(500, 44, { line: 250, text: "TOTAL 812 97 88%" }), tool: "bash" });
    if (!mine.stored) throw new Error("not stored");
    const res = ok(search(store, { query: "overall", source: mine.sourceId }));
    expect(res.corrections).toEqual({});
  });
});

describe("numbers inside longer tokens", () => {
  test("a digits-only piece of a uuid finds its line", async () => {
    const store = testStore();
    const uuid = "4cb7ef3f-15e1-4122-9876-b88b5dc901dc";
    await captureIndexed(store, { text: noisyLog(700, 31, { line: 350, text: `request ${uuid} done` }), tool: "bash" });
    const r = ok(search(store, { query: "4122-98" }));
    expect(r.hits[0]!.lines.map((l) => l.line)).toContain(350);
    const digits = ok(search(store, { query: uuid.slice(19, 23) })); // "9876"
    expect(digits.hits[0]!.lines.map((l) => l.line)).toContain(350);
  });
});
