/**
 * The web server over HTTP: the API answers what the CLI answers, the token and the loopback
 * checks hold, writes need the CSRF token and a confirmation, and a viewer never writes.
 */

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { cleanupTempDirs, runCli, tempDir, testConfig, testSeed, waitingDb } from "../helpers.ts";
import { MEMORY_EVENTS, NEEDLE, NEEDLE_LINE, type Running, type Seeded, seedStore, startServer } from "./harness.ts";

let seeded: Seeded;
let web: Running;

beforeAll(async () => {
  seeded = await seedStore(testSeed("web api store"));
  web = startServer(seeded.config);
});

afterAll(async () => {
  await web?.stop();
  cleanupTempDirs();
});

const get = (path: string, headers: Record<string, string> = web.auth) => fetch(`${web.base}${path}`, { headers, redirect: "manual" });
const json = async <T = any>(path: string): Promise<T> => {
  const r = await get(path);
  expect(r.status).toBe(200);
  return (await r.json()) as T;
};
const retrievalRows = () => {
  const db = waitingDb(seeded.path);
  try {
    return db.query("SELECT count(*) AS n FROM retrievals").get() as { n: number };
  } finally {
    db.close();
  }
};

/** What `stats --json` prints that does not move between two reads (the file sizes do, with the WAL). */
function comparable(s: any) {
  const { fileBytes: _f, walBytes: _w, ...database } = s.database;
  return { ...s, database };
}

describe("API answers", () => {
  test("/api/stats is `pi-sidecar stats --json`, with the same filters", async () => {
    const cli = runCli(["--db", seeded.path, "stats", "--json"]);
    expect(cli.code).toBe(0);
    expect(comparable(await json("/api/stats"))).toEqual(comparable(JSON.parse(cli.stdout)));
    const one = runCli(["--db", seeded.path, "stats", "--json", "--session", "s-two", "--tool", "read"]);
    const api = await json("/api/stats?session=s-two&tool=read");
    expect(comparable(api)).toEqual(comparable(JSON.parse(one.stdout)));
    expect(api.totals.captures).toBe(1);
  });

  test("usage adds up to the totals, by time and by project", async () => {
    const stats = await json("/api/stats");
    const usage = await json("/api/usage");
    const sum = (rows: any[], k: string) => rows.reduce((n, r) => n + r[k], 0);
    for (const k of ["captures", "baselineTokens", "storedTokens", "receiptTokens", "retrievedTokens", "netSavedTokens"]) {
      expect(sum(usage.timeline.buckets, k)).toBe(stats.totals[k]);
      expect(sum(usage.byProject, k)).toBe(stats.totals[k]);
    }
    expect(usage.byProject.map((p: any) => p.project).sort()).toEqual(["/repo/a", "/repo/b"]);
    expect(stats.totals.netSavedTokens).toBe(stats.totals.baselineTokens - stats.totals.receiptTokens - stats.totals.retrievedTokens);
    expect(stats.totals.baselineTokens).toBeLessThan(stats.totals.storedTokens); // one capture has a host's cut
    expect(usage.pending).toEqual({ unindexedTexts: 0, uncountedReceipts: 0, uncountedRetrievals: 0 });
  });

  test("search finds the planted needle as context_search answers, and is not logged", async () => {
    const before = retrievalRows().n;
    const r = await json(`/api/search?q=${encodeURIComponent("ZEBRA_NEEDLE_4711")}`);
    expect(r.ok).toBe(true);
    expect(r.hits[0].sourceId).toBe(seeded.needleSource);
    expect(r.text).toContain(`${NEEDLE_LINE}: ${NEEDLE}`);
    const line = await json(`/api/sources/${seeded.needleSource}?lines=${NEEDLE_LINE}-${NEEDLE_LINE}`);
    expect(line.text).toBe(`${NEEDLE}\n`);
    expect(retrievalRows().n).toBe(before);
  });

  test("the retrieval log lists every call with how its question went", async () => {
    const log = await json("/api/retrievals");
    expect(log.summary.searches).toBe(3);
    expect(log.summary.gets).toBe(2);
    expect(log.entries).toHaveLength(5);
    // Newest first: the get alone, the needle's get (its search came first), two identical searches, the needle's search.
    const needle = log.entries.filter((e: any) => e.firstSource === seeded.needleSource);
    expect(needle.map((e: any) => [e.kind, e.nth, e.calls])).toEqual([
      ["get", 2, 2],
      ["search", 1, 2],
    ]);
    const lone = log.entries.find((e: any) => e.kind === "get" && e.firstSource === seeded.sources[3]);
    expect([lone.nth, lone.calls]).toEqual([1, 1]);
    expect(log.entries.every((e: any) => typeof e.tokens === "number" && e.tokens > 0)).toBe(true);
    expect(log.summary.tokens).toBe(log.entries.reduce((n: number, e: any) => n + e.tokens, 0));
    const stats = await json("/api/stats");
    expect(log.summary.tokens).toBe(stats.totals.retrievedTokens);
    expect(log.summary.captures).toBe(4);
    const page = await json("/api/retrievals?limit=2");
    expect(page.entries).toHaveLength(2);
    const rest = await json(`/api/retrievals?limit=10&before=${page.next}`);
    expect(rest.entries).toHaveLength(3);
  });

  test("the subsystem panels answer, empty ones included", async () => {
    expect((await json("/api/readcache")).objects).toBe(0);
    expect((await json("/api/pruning")).batches).toBe(0);
    expect((await json("/api/code")).repos).toEqual([]);
    const g = await json("/api/gateway");
    expect(g.servers).toEqual([]);
    expect(g.perTurn.tokens).toBe(0);
    const page = await (await get("/pruning")).text();
    expect(page).toContain("has not replaced any tool result yet");
  });

  test("a bad request says what is wrong", async () => {
    const missing = await get("/api/sources/ctx_nothere");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).code).toBe("NO_SUCH_SOURCE");
    expect((await get("/api/search")).status).toBe(400);
    const unknown = await get("/api/nothing");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).ok).toBe(false);
    const page = await get(`/sources/${seeded.needleSource}?lines=oops`);
    expect(await page.text()).toContain("lines must look like 120-180");
  });
});

describe("who may ask", () => {
  test("no token or a wrong one: 401 with what to do, never a stack", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong-token-wrong-token00" }] as Record<string, string>[]) {
      const r = await get("/api/stats", headers);
      expect(r.status).toBe(401);
      const body = (await r.json()) as any;
      expect(body.code).toBe("UNAUTHORIZED");
      expect(body.message).toContain("URL pi-sidecar web printed");
      expect(JSON.stringify(body)).not.toContain(" at ");
    }
    expect((await get("/", {})).status).toBe(401);
    expect((await get(`/api/stats?token=${web.token}`, {})).status).toBe(200);
  });

  test("the printed URL answers the page itself and sets no cookie (a cookie would go to every port of 127.0.0.1)", async () => {
    const r = await get(`/?token=${web.token}`, {});
    expect(r.status).toBe(200);
    expect(r.headers.get("set-cookie")).toBeNull();
    expect(await r.text()).toContain("Net saved");
  });

  test("a page load without the token is the shell: no data, no CSRF token, the page's script and styles", async () => {
    const r = await get("/sources", { accept: "text/html,application/xhtml+xml" });
    expect(r.status).toBe(200);
    expect(r.headers.get("set-cookie")).toBeNull();
    const body = await r.text();
    expect(body).toContain('name="pi-sidecar-shell"');
    expect(body).not.toContain("csrf-token");
    expect(body).not.toContain(seeded.path);
    expect(body).not.toContain("ctx_");
    // The shell's own script and styles load without the token; they hold no data.
    const script = /<script src="([^"]+)"/.exec(body)![1]!;
    expect((await get(script, {})).status).toBe(200);
    // A cookie, even one holding the token, opens nothing.
    expect((await get("/api/stats", { cookie: `pi_sidecar_web_${web.port}=${web.token}` })).status).toBe(401);
  });

  test("another Host or Origin is refused (DNS rebinding); no CORS", async () => {
    expect((await get("/api/stats", { ...web.auth, host: "evil.example" })).status).toBe(403);
    expect((await get("/api/stats", { ...web.auth, host: `evil.example:${web.port}` })).status).toBe(403);
    expect((await get("/api/stats", { ...web.auth, origin: "http://evil.example" })).status).toBe(403);
    const local = await get("/api/stats", { ...web.auth, host: `localhost:${web.port}`, origin: `http://localhost:${web.port}` });
    expect(local.status).toBe(200);
    expect(local.headers.get("access-control-allow-origin")).toBeNull();
    const pre = await fetch(`${web.base}/api/purge`, { method: "OPTIONS", headers: { ...web.auth, origin: web.base } });
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    expect(pre.status).toBe(405);
  });
});

describe("writes", () => {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${web.base}${path}`, {
      method: "POST",
      headers: { ...web.auth, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  test("purge needs the CSRF token, then a confirmation, then deletes", async () => {
    const target = seeded.sources[1]!;
    expect((await post("/api/purge", { source: target, confirm: true })).status).toBe(403);
    expect((await post("/api/purge", { source: target, confirm: true }, { "x-csrf-token": "guess" })).status).toBe(403);
    const { csrf } = await json("/api/csrf");
    const evil = await post("/api/purge", { source: target, confirm: true }, { "x-csrf-token": csrf, origin: "http://evil.example" });
    expect(evil.status).toBe(403);
    const ask = await post("/api/purge", { source: target }, { "x-csrf-token": csrf });
    expect(ask.status).toBe(409);
    const question = (await ask.json()) as any;
    expect(question.code).toBe("CONFIRM");
    expect(question.message).toContain(`Delete source ${target} (1 capture,`);
    expect((await get(`/api/sources/${target}`)).status).toBe(200);
    const done = await post("/api/purge", { source: target, confirm: true }, { "x-csrf-token": csrf });
    expect(done.status).toBe(200);
    expect(((await done.json()) as any).message).toContain("Purged 1 source");
    expect((await get(`/api/sources/${target}`)).status).toBe(404);
    const again = await post("/api/purge", { source: target }, { "x-csrf-token": csrf });
    expect(again.status).toBe(404);
    expect((await post("/api/purge", { session: "x", project: "y" }, { "x-csrf-token": csrf })).status).toBe(400);
  });
});

describe("memory", () => {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${web.base}/api/memory/forget`, {
      method: "POST",
      headers: { ...web.auth, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  test("the panel counts what memory holds and searches it as memory_search does", async () => {
    const view = await json("/api/memory");
    expect(view.available).toBe(true);
    expect(view.projects.map((p: any) => [p.project, p.events])).toEqual([["/repo/a", MEMORY_EVENTS.length]]);
    const found = await json(`/api/memory?project=${encodeURIComponent("/repo/a")}&q=${encodeURIComponent("staging database port")}`);
    const texts = found.search.hits.map((h: any) => h.text);
    expect(texts).toContain(MEMORY_EVENTS[0][1]);
    expect(texts).toContain(MEMORY_EVENTS[2][1]);
    // The older statement shows which later one replaced it.
    const old = found.search.hits.find((h: any) => h.text === MEMORY_EVENTS[0][1]);
    expect(old.supersededBy).toBe(found.search.hits.find((h: any) => h.text === MEMORY_EVENTS[2][1]).id);
    const page = await (await get(`/memory?project=${encodeURIComponent("/repo/a")}&q=deploys`)).text();
    expect(page).toContain("/repo/a");
    expect(page).toContain("blue-green script");
    expect(page).toContain('data-action="/api/memory/forget"');
  });

  test("forget needs the CSRF token, then a confirmation, then forgets that one memory", async () => {
    const search = async () =>
      (await json(`/api/memory?project=${encodeURIComponent("/repo/a")}&q=deploys`)).search.hits.filter((h: any) =>
        h.text.includes("blue-green"),
      );
    const [hit] = await search();
    expect(hit).toBeDefined();
    const target = { project: "/repo/a", id: hit.id };
    expect((await post({ ...target, confirm: true })).status).toBe(403);
    const { csrf } = await json("/api/csrf");
    const ask = await post(target, { "x-csrf-token": csrf });
    expect(ask.status).toBe(409);
    expect(((await ask.json()) as any).message).toContain(`Forget memory ${hit.id} of /repo/a`);
    expect(await search()).toHaveLength(1);
    const done = await post({ ...target, confirm: true }, { "x-csrf-token": csrf });
    expect(done.status).toBe(200);
    expect(((await done.json()) as any).ok).toBe(true);
    expect(await search()).toHaveLength(0);
    expect((await json("/api/memory")).projects[0].events).toBe(MEMORY_EVENTS.length - 1);
    expect((await post({ project: "/repo/a" }, { "x-csrf-token": csrf })).status).toBe(400);
  });
});

describe("subsystem panels with data", () => {
  test("pruning, read cache and code index count what their tables hold", async () => {
    const db = new Database(seeded.path);
    db.exec("PRAGMA busy_timeout = 5000");
    db.transaction(() => {
      const pointer = db.query(
        "INSERT INTO prune_pointers (call_id, text_hash, source, pointer, tool, session, tokens_before, tokens_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      );
      pointer.run("c1", "h1", seeded.sources[0]!, "[pointer]", "bash", "s-one", 5000, 40, 1000);
      pointer.run("c2", "h2", seeded.sources[0]!, "[pointer]", "read", "s-one", 3000, 30, 1000);
      pointer.run("c3", "h3", seeded.sources[0]!, "[pointer]", "bash", "s-two", 2000, 20, 2000);
      const batch = db.query(
        "INSERT INTO prune_batches (at, session, results, tokens_before, tokens_after, adaptive) VALUES (?, ?, ?, ?, ?, ?)",
      );
      batch.run(1000, "s-one", 2, 8000, 70, 0);
      batch.run(2000, "s-two", 1, 2000, 20, 1);
      const object = db.query("INSERT INTO objects (hash, content, bytes, created_at, used_at) VALUES (?, ?, ?, ?, ?)");
      object.run("a", "x".repeat(100), 100, 1, Date.now());
      object.run("b", "y".repeat(250), 250, 1, 5);
      db.query("INSERT INTO code_repos (id, root, indexed_at, generation, needs_resolve) VALUES (1, '/repo/a', 1700000000000, 2, 0)").run();
      const file = db.query(
        "INSERT INTO code_files (id, repo_id, path, size, mtime_ms, hash, is_test, error) VALUES (?, 1, ?, ?, 0, 'h', ?, ?)",
      );
      file.run(1, "src/a.ts", 1200, 0, null);
      file.run(2, "test/a.test.ts", 800, 1, "Unexpected token");
      const symbol = db.query(
        "INSERT INTO code_symbols (file_id, name, kind, line_start, line_end, exported) VALUES (?, ?, 'function', 1, 2, ?)",
      );
      symbol.run(1, "alpha", 1);
      symbol.run(1, "beta", 1);
      symbol.run(2, "gamma", 0);
      const imp = db.query("INSERT INTO code_imports (file_id, specifier, kind, line, target_id, status) VALUES (?, ?, 'import', 1, ?, ?)");
      imp.run(2, "../src/a.ts", 1, 1);
      imp.run(1, "zod", null, 2);
    })();
    db.close();
    const prune = await json("/api/pruning");
    expect(prune.batches).toBe(2);
    expect(prune.adaptiveBatches).toBe(1);
    expect(prune.totals).toEqual({ results: 3, tokensBefore: 10_000, tokensAfter: 90, savedPerRequest: 9910 });
    expect(prune.byTool.map((t: any) => [t.tool, t.results, t.savedPerRequest])).toEqual([
      ["bash", 2, 6940],
      ["read", 1, 2970],
    ]);
    const cache = await json("/api/readcache");
    expect([cache.objects, cache.bytes, cache.usedRecently]).toEqual([2, 350, 1]);
    const code = await json("/api/code");
    expect(code.repos).toEqual([
      {
        root: "/repo/a",
        indexedAt: 1700000000000,
        needsResolve: false,
        files: 2,
        testFiles: 1,
        parseErrors: 1,
        symbols: 3,
        exportedSymbols: 2,
        imports: 2,
        resolvedImports: 1,
        packageImports: 1,
        bytes: 2000,
      },
    ]);
    const page = await (await get("/pruning")).text();
    expect(page).toContain("results' tokens − pointers' tokens = 10,000 − 90");
    expect(await (await get("/code")).text()).toContain("/repo/a");
  });
});

describe("bad databases", () => {
  test("a missing file: the page names it and says what to do, and it is not created", async () => {
    const path = join(tempDir(), "none", "sidecar.db");
    const w = startServer(testConfig(path));
    try {
      const page = await fetch(`${w.base}/`, { headers: w.auth });
      const text = await page.text();
      expect(text).toContain(`No database at ${path} yet.`);
      expect(text).toContain("--db PATH");
      const api = await fetch(`${w.base}/api/stats`, { headers: w.auth });
      expect(api.status).toBe(503);
      expect(((await api.json()) as any).code).toBe("DB_MISSING");
      expect(existsSync(path)).toBe(false);
    } finally {
      await w.stop();
    }
  });

  test("a damaged file: 503, the file named, how to set it aside; no stack", async () => {
    const path = join(tempDir(), "sidecar.db");
    writeFileSync(path, "this is not an SQLite database, just text ".repeat(200));
    const w = startServer(testConfig(path));
    try {
      const page = await fetch(`${w.base}/`, { headers: w.auth });
      expect(page.status).toBe(503);
      const text = await page.text();
      expect(text).toContain(path);
      expect(text).toContain("Move it aside");
      expect(text).not.toMatch(/at .*\.ts:\d+/);
      const api = await fetch(`${w.base}/api/stats`, { headers: w.auth });
      expect(api.status).toBe(503);
      expect(((await api.json()) as any).code).toBe("DB_CORRUPT");
    } finally {
      await w.stop();
    }
  });

  test("a file an older pi-sidecar wrote: the page says how to upgrade it, and leaves it as it was", async () => {
    const path = join(tempDir(), "sidecar.db");
    openDatabase(path, { migrations: MIGRATIONS.slice(0, 2) }).close();
    const w = startServer(testConfig(path));
    try {
      const api = await fetch(`${w.base}/api/stats`, { headers: w.auth });
      expect(api.status).toBe(503);
      const body = (await api.json()) as any;
      expect(body.code).toBe("DB_OLD_SCHEMA");
      expect(body.message).toContain(`pi-sidecar --db "${path}" stats`);
    } finally {
      await w.stop();
    }
    const db = waitingDb(path);
    expect((db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(2);
    db.close();
  });

  test("a writer holding the write lock does not stall the page", async () => {
    const holder = Bun.spawn([process.execPath, join(import.meta.dir, "hold-lock.ts"), seeded.path, "4000"], { stdout: "pipe" });
    const reader = holder.stdout.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("locked");
    const started = performance.now();
    const r = await get("/");
    expect(r.status).toBe(200);
    expect(await r.text()).toContain("Net saved");
    expect(performance.now() - started).toBeLessThan(2000);
    holder.kill();
    await holder.exited;
  });
});
