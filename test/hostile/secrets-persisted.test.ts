/**
 * Secrets through every persistence path of the context store and its surfaces: a token in a
 * search's question, in a session id, a tool name, a label and a project path never reaches the
 * database file, its WAL or its shared memory; the retrieval log and its web page show it
 * redacted; what was stored under a redacted session is still found and purged by the session as
 * typed. An MCP server killed right after it answered has already written its retrieval record; pruning
 * keeps a session id and call ids redacted in its pointers, batches and the /pruning page.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { openDatabase } from "../../src/db/open.ts";
import { createEngine } from "../../src/engine.ts";
import { CLI_CALLS } from "../../src/store/next-calls.ts";
import { BUN, cleanupTempDirs, databaseFileTexts, noisyLog, ROOT, rng, runCli, tempDir, testConfig, testSeed } from "../helpers.ts";
import { startServer } from "../web/harness.ts";

afterAll(cleanupTempDirs);

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const seed = testSeed("hostile secrets");
const r = rng(seed);
const chars = (n: number) => Array.from({ length: n }, () => ALNUM[Math.floor(r() * ALNUM.length)]).join("");
/** Shapes of real credentials (random, never real ones). */
const githubToken = () => `ghp_${chars(36)}`;
const slackToken = () => `xoxb-${chars(11)}-${chars(12)}-${chars(24)}`;

/** Which of `secrets` can be read anywhere in the database's files. */
function inFiles(db: string, secrets: readonly string[]): string[] {
  const bytes = databaseFileTexts(db).map((f) => f.text);
  return secrets.filter((s) => bytes.some((b) => b.includes(s)));
}

function rowsOf(db: string, sql: string): Record<string, unknown>[] {
  const out = runCli(["--db", db, "stats", "--json"]); // a reader first, as a user would (and it must not fail)
  expect(out.code).toBe(0);
  const d = openDatabase(db, { readonly: true });
  try {
    return d.query(sql).all() as Record<string, unknown>[];
  } finally {
    d.close();
  }
}

describe("secrets never stored raw", () => {
  test("capture's tool, label, session and project; a search's question; all redacted, still found by the names as typed", async () => {
    const db = join(tempDir(), "sidecar.db");
    const secrets = { tool: githubToken(), label: slackToken(), session: githubToken(), project: githubToken(), query: githubToken() };
    const project = join(tempDir(), `work-${secrets.project}`);
    mkdirSync(project);
    const engine = createEngine({ config: testConfig(db), calls: CLI_CALLS });
    const c = await engine.capture({
      text: noisyLog(600, seed, { line: 77, text: "the deploy key rotated at 09:14" }),
      tool: `mcp__${secrets.tool}`,
      label: `curl -H 'Authorization: Bearer ${secrets.label}' https://api.example.com`,
      session: `sess-${secrets.session}`,
      project,
      force: true,
    });
    expect(c.stored).toBe(true);
    // A model pasting a token into its question, then reading what it found.
    const found = await engine.search({ query: `deploy key rotated ${secrets.query}` });
    expect(found.ok).toBe(true);
    // Found by the session and project as the caller knows them (stored redacted).
    expect((await engine.stats({ session: `sess-${secrets.session}` })).totals.captures).toBe(1);
    expect((await engine.list({ project })).length).toBe(1);
    await engine.close();

    expect(inFiles(db, Object.values(secrets))).toEqual([]);
    const [retrieval] = rowsOf(db, "SELECT query FROM retrievals WHERE kind = 'search'");
    expect(String(retrieval!.query)).toContain("[REDACTED:");
    expect(String(retrieval!.query)).toContain("deploy key rotated");

    // The retrieval log page shows it redacted.
    const web = startServer(testConfig(db));
    try {
      const page = await (await fetch(`${web.base}/retrievals`, { headers: web.auth })).text();
      expect(page).toContain("deploy key rotated");
      expect(page).not.toContain(secrets.query);
      const api = await (await fetch(`${web.base}/api/retrievals`, { headers: web.auth })).text();
      expect(api).not.toContain(secrets.query);
    } finally {
      await web.stop();
    }

    // Purged by the session as typed.
    const p = runCli(["--db", db, "purge", "--session", `sess-${secrets.session}`, "--json"]);
    expect(p.code).toBe(0);
    expect(JSON.parse(p.stdout).sources).toBe(1);
  }, 60_000);

  test("an MCP server killed right after it answered: its retrieval record is written, its question redacted, its session too", async () => {
    const db = join(tempDir(), "sidecar.db");
    const cwd = tempDir();
    writeFileSync(join(cwd, "build.log"), noisyLog(2500, seed + 1, { line: 1999, text: "linker error: undefined symbol quux_init" }));
    const question = `undefined symbol quux_init ${githubToken()}`;
    const session = `ci-${slackToken()}`;
    const transport = new StdioClientTransport({
      command: BUN,
      args: [join(ROOT, "src/main.ts"), "--db", db, "mcp", "--no-servers", "--session", session],
      cwd,
      env: { HOME: tempDir(), PATH: process.env.PATH ?? "" },
      stderr: "pipe",
    });
    const client = new Client({ name: "hostile", version: "1.0.0" });
    await client.connect(transport);
    const pid = transport.pid!;
    try {
      const indexed = await client.callTool({ name: "context_index", arguments: { path: "build.log" } });
      expect(JSON.stringify(indexed)).toContain("Source ctx_");
      const hits = await client.callTool({ name: "context_search", arguments: { query: question } });
      expect(JSON.stringify(hits)).toContain("quux_init");
    } finally {
      // Killed the moment the answer arrived: no flush at exit, no timer.
      process.kill(pid, "SIGKILL");
      await client.close().catch(() => {});
    }
    const rows = rowsOf(db, "SELECT kind, query FROM retrievals");
    const search = rows.find((x) => x.kind === "search");
    expect(search).toBeDefined();
    expect(String(search!.query)).toContain("undefined symbol quux_init [REDACTED:");
    expect(inFiles(db, [question.split(" ").at(-1)!, session.slice(3)])).toEqual([]);
    const sessions = rowsOf(db, "SELECT session FROM sources");
    expect(String(sessions[0]!.session)).toMatch(/^ci-\[REDACTED:/);
  }, 60_000);

  test("pruning through the CLI: a token in --session and in a call id is in neither the file nor the /pruning page", async () => {
    const db = join(tempDir(), "sidecar.db");
    const session = `sess-${slackToken()}`;
    const call = `call_${githubToken()}`;
    const messages = Array.from({ length: 6 }, (_, i) => {
      const id = i === 1 ? call : `call_${i}`;
      return [
        { role: "user", content: `step ${i}`, timestamp: i },
        { role: "assistant", content: [{ type: "toolCall", id, name: "bash", arguments: { command: `make ${i}` } }], timestamp: i },
        {
          role: "toolResult",
          toolCallId: id,
          toolName: "bash",
          content: [{ type: "text", text: noisyLog(500, seed + 10 + i) }],
          isError: false,
          timestamp: i,
        },
        { role: "assistant", content: [{ type: "text", text: `done ${i}` }], timestamp: i },
      ];
    }).flat();
    const p = runCli(["--db", db, "prune", "--session", session], { stdin: JSON.stringify({ messages }) });
    expect(p.code).toBe(0);
    const out = JSON.parse(p.stdout) as { batch: { callId: string }[]; messages: unknown[] };
    expect(out.batch.length).toBeGreaterThan(1);
    expect(JSON.stringify(out.messages)).toContain(call); // the model's own ids come back as sent
    const again = runCli(["--db", db, "prune", "--session", session], { stdin: JSON.stringify({ messages }) });
    expect(JSON.parse(again.stdout).batch).toEqual([]); // the same session, found under its redacted id
    expect(inFiles(db, [session.slice(5), call.slice(5)])).toEqual([]);
    const web = startServer(testConfig(db));
    try {
      for (const path of ["/pruning", "/api/pruning"]) {
        const page = await (await fetch(`${web.base}${path}`, { headers: web.auth })).text();
        expect(page).not.toContain(session.slice(5));
        expect(page).not.toContain(call.slice(5));
      }
    } finally {
      await web.stop();
    }
  }, 60_000);
});
