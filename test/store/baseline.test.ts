/**
 * Savings against the baseline: what the host would have put in the model's context (its own cut,
 * or the whole output), kept with each source and counted with the real tokenizer; texts kept for
 * pruning and memory are no captures; old rows say their baseline is unknown; the read cache and
 * pruning count on their own lines; the store's own answers never become hits; a retrieval is
 * logged with the session that asked.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createEngine, type Engine } from "../../src/engine.ts";
import type { Message } from "../../src/prune/messages.ts";
import { pruneSavings } from "../../src/prune/stats.ts";
import { redact } from "../../src/redact/redact.ts";
import { UNCUT_RULE } from "../../src/store/capture.ts";
import { TOOL_CALLS } from "../../src/store/next-calls.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { cleanupTempDirs, noisyLog, tempDir, testConfig } from "../helpers.ts";

afterAll(cleanupTempDirs);

function engineAt(path = join(tempDir(), "s.db")): Engine & { path: string } {
  return Object.assign(createEngine({ config: testConfig(path), calls: TOOL_CALLS, background: "inline" }), { path });
}

/** pi's bash cut as pi makes it: the last lines within 50 KB, and its footer. */
function piTail(text: string): string {
  const lines = text.trimEnd().split("\n");
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0 && kept.length < 2000; i--) {
    const b = Buffer.byteLength(lines[i]!) + 1;
    if (bytes + b > 50 * 1024) break;
    kept.unshift(lines[i]!);
    bytes += b;
  }
  const start = lines.length - kept.length + 1;
  return `${kept.join("\n")}\n\n[Showing lines ${start}-${lines.length} of ${lines.length} (50.0KB limit). Full output: /tmp/pi-bash-x.log]`;
}

describe("baselines", () => {
  test("a host's own cut is the baseline: net saved = baseline - receipts - retrieved, stored beside", async () => {
    const e = engineAt();
    const text = noisyLog(9000, 5, { line: 4000, text: "fatal: shard 7 checksum mismatch" });
    const cut = piTail(text);
    const rule = "pi 0.87.1's own cut of bash (at most 2,000 lines or 50.0 KiB, the whole in a file)";
    const r = await e.capture({ text, tool: "bash", session: "s1", baseline: { kind: "cut", text: cut, rule } });
    expect(r.stored).toBe(true);
    const got = await e.get({ source: r.stored ? r.sourceId : "", lines: { from: 4000, to: 4000 } });
    expect(got.ok).toBe(true);
    const s = await e.stats({});
    const t = s.totals;
    expect(t.baselineTokens).toBe(countTokens(redact(cut).text));
    expect(t.storedTokens).toBeGreaterThan(5 * t.baselineTokens); // the whole output, as before
    expect(t.retrievedTokens).toBeGreaterThan(0);
    expect(t.netSavedTokens).toBe(t.baselineTokens - t.receiptTokens - t.retrievedTokens);
    expect(t.unknownBaselines).toBe(0);
    expect(s.byTool[0]).toMatchObject({ tool: "bash", baselineTokens: t.baselineTokens, netSavedTokens: t.netSavedTokens });
    expect(s.bySession[0]).toMatchObject({ session: "s1", baselineTokens: t.baselineTokens });
    expect(s.recent[0]).toMatchObject({ baselineKind: "cut", baseline: rule, baselineTokens: t.baselineTokens });
    expect(s.baselines).toEqual([{ kind: "cut", rule, captures: 1, storedTokens: t.storedTokens, baselineTokens: t.baselineTokens }]);
    // The cut text is dropped once counted: nothing of it stays in the database.
    await e.close();
    const db = openDatabase(e.path);
    expect(db.query("SELECT count(*) AS n FROM sources WHERE baseline_text IS NOT NULL").get()).toEqual({ n: 0 });
    db.close();
  });

  test("without a host's cut the baseline is the whole output, labelled uncut; a cut that is the whole is uncut too", async () => {
    const e = engineAt();
    await e.capture({ text: noisyLog(800, 1), tool: "make" });
    const whole = noisyLog(800, 2);
    await e.capture({ text: whole, tool: "grep", baseline: { kind: "cut", text: whole, rule: "pi's own cut of grep" } });
    const s = await e.stats({});
    expect(s.totals.baselineTokens).toBe(s.totals.storedTokens);
    expect(s.recent.map((x) => x.baselineKind)).toEqual(["uncut", "uncut"]);
    expect(s.recent[1]!.baseline).toBe(UNCUT_RULE);
    await e.close();
  });

  test("one way of taking baselines is one line, whatever kind of text the outputs were", async () => {
    const e = engineAt();
    await e.capture({ text: noisyLog(800, 6), tool: "make" });
    await e.capture({
      text: JSON.stringify(
        Array.from({ length: 600 }, (_, i) => ({ id: i, name: `n${i}` })),
        null,
        2,
      ),
      tool: "make",
    });
    const s = await e.stats({});
    expect(s.baselines).toEqual([
      { kind: "uncut", rule: UNCUT_RULE, captures: 2, storedTokens: s.totals.storedTokens, baselineTokens: s.totals.baselineTokens },
    ]);
    await e.close();
  });

  test("texts kept for pruning and memory are no captures; asked for by id they still answer", async () => {
    const e = engineAt();
    await e.capture({ text: noisyLog(700, 3), tool: "bash" });
    const kept = await e.capture({
      text: noisyLog(700, 4),
      tool: "bash",
      force: true,
      baseline: { kind: "none", rule: "kept for pruning" },
    });
    const s = await e.stats({});
    expect(s.totals.captures).toBe(1);
    const one = await e.stats({ source: kept.stored ? kept.sourceId : "" });
    expect(one.totals).toMatchObject({ captures: 1, baselineTokens: 0 });
    await e.close();
  });

  test("rows stored before baselines were kept: unknown (counted as 0), and pruning's and memory's copies are known", async () => {
    const path = join(tempDir(), "old.db");
    const old = openDatabase(path, { migrations: MIGRATIONS.slice(0, 7) });
    old.exec(`INSERT INTO blobs (id, project, hash, bytes, lines, tokens, chunk_count, kind, created_at) VALUES
      (1, '/p', 'h1', 100, 3, 40, 1, 'text', 1), (2, '/p', 'h2', 100, 3, 50, 1, 'text', 1), (3, '/p', 'h3', 100, 3, 60, 1, 'text', 1)`);
    old.exec(`INSERT INTO sources (handle, blob_id, tool, session, project, label, reason, created_at, receipt_tokens) VALUES
      ('ctx_a', 1, 'bash', 's', '/p', 'npm test', 'it is over the 16.0 KiB threshold', 1, 7),
      ('ctx_b', 2, 'memory', 's', '/p', NULL, 'storing was forced', 1, 5),
      ('ctx_c', 3, 'bash', 's', '/p', 'pruned bash result call_9', 'storing was forced', 1, 5)`);
    old.close();
    const e = engineAt(path);
    const s = await e.stats({});
    expect(s.totals).toMatchObject({ captures: 1, storedTokens: 40, baselineTokens: 0, unknownBaselines: 1, receiptTokens: 7 });
    expect(s.totals.netSavedTokens).toBe(-7);
    expect(s.recent[0]!.baseline).toContain("unknown");
    const kinds = await e.stats({ source: "ctx_b" });
    expect(kinds.recent[0]).toMatchObject({ baselineKind: "none", baseline: "kept for memory" });
    expect((await e.stats({ source: "ctx_c" })).recent[0]).toMatchObject({ baselineKind: "none", baseline: "kept for pruning" });
    await e.close();
  });
});

describe("the store's own answers", () => {
  test("a search answer kept as a source (as pruning keeps it) never comes back as a hit", async () => {
    const e = engineAt();
    const cap = await e.capture({ text: noisyLog(900, 8, { line: 450, text: "ERROR quota exceeded for bucket alpha-77" }), tool: "bash" });
    const first = await e.search({ query: "quota exceeded bucket", askedBy: "sess-1" });
    expect(first.ok && first.hits.length).toBeGreaterThan(0);
    const answer = first.ok ? first.text : "";
    await e.capture({ text: answer, tool: "context_search", force: true, baseline: { kind: "none", rule: "kept for pruning" } });
    const again = await e.search({ query: "quota exceeded bucket" });
    expect(again.ok).toBe(true);
    if (!again.ok || !cap.stored) return;
    expect(again.hits.length).toBeGreaterThan(0);
    expect(new Set(again.hits.map((h) => h.sourceId))).toEqual(new Set([cap.sourceId]));
    await e.close();
  });

  test("past a dozen own answers that rank first, the output they came from is still the hit", async () => {
    const e = engineAt();
    const cap = await e.capture({ text: noisyLog(900, 11, { line: 300, text: "ERROR lantern overflow in shard 7" }), tool: "bash" });
    // Short texts saying it again and again: each ranks above the long log, and more of them than a search reads.
    for (let i = 0; i < 14; i++) {
      const answer = `1 hit for "lantern overflow" (${i}).\n${Array.from({ length: 6 }, () => "ERROR lantern overflow in shard 7").join("\n")}\n`;
      await e.capture({ text: answer, tool: "context_search", force: true, baseline: { kind: "none", rule: "kept for pruning" } });
    }
    const r = await e.search({ query: "lantern overflow" });
    if (!r.ok || !cap.stored) throw new Error("search or capture failed");
    expect(new Set(r.hits.map((h) => h.sourceId))).toEqual(new Set([cap.sourceId]));
    expect(r.hits[0]!.lines.some((l) => l.line === 300)).toBe(true);
    await e.close();
  });

  test("searches and gets are logged with the session that asked", async () => {
    const e = engineAt();
    const cap = await e.capture({ text: noisyLog(900, 9, { line: 10, text: "needle-in-log" }), tool: "bash", session: "other" });
    await e.search({ query: "needle-in-log", askedBy: "sess-42" });
    await e.get({ source: cap.stored ? cap.sourceId : "", lines: { from: 1, to: 3 }, askedBy: "sess-42" });
    await e.stats({}); // writes the buffered log
    await e.close();
    const db = openDatabase(e.path);
    expect(db.query("SELECT kind, session FROM retrievals ORDER BY id").all()).toEqual([
      { kind: "search", session: "sess-42" },
      { kind: "get", session: "sess-42" },
    ]);
    db.close();
  });
});

describe("the read cache's and pruning's own lines", () => {
  test("a read answered from the cache saves what pi's read would have sent minus the marker", async () => {
    const e = engineAt();
    const text = `${Array.from({ length: 300 }, (_, i) => `line ${i + 1} of the file, with some words`).join("\n")}\n`;
    const first = await e.readcache({
      path: "/p/a.txt",
      text,
      shown: [1, 300],
      wholeFile: true,
      builtIn: text,
      versions: [],
      session: "s",
    });
    expect(first.mode).toBe("full");
    const again = await e.readcache({
      path: "/p/a.txt",
      text,
      shown: [1, 300],
      wholeFile: true,
      builtIn: text,
      versions: [{ hash: first.record.hash, lines: 300, ranges: [[1, 300]], seq: 1 }],
      session: "s",
    });
    expect(again.mode).toBe("unchanged");
    const s = await e.stats({ session: "s" });
    expect(s.readcache).toMatchObject({
      reads: 1,
      byMode: { unchanged: 1 },
      builtInTokens: countTokens(text),
      sentTokens: countTokens(again.text),
    });
    expect(s.readcache.savedTokens).toBe(countTokens(text) - countTokens(again.text));
    expect((await e.stats({ session: "nobody" })).readcache.reads).toBe(0);
    expect(s.totals.captures).toBe(0); // not mixed into captures
    await e.close();
  });

  test("pruning: one count of results (a batch, the table, the line), a pointer larger than its result saves nothing", async () => {
    const e = engineAt();
    const big = noisyLog(600, 11);
    const messages: Message[] = [];
    const add = (id: string, text: string, turn: number) => {
      messages.push({ role: "user", content: `step ${turn}`, timestamp: turn });
      messages.push({ role: "assistant", content: [{ type: "toolCall", id, name: "bash", arguments: { command: "x" } }], timestamp: turn });
      messages.push({
        role: "toolResult",
        toolCallId: id,
        toolName: "bash",
        content: [{ type: "text", text }],
        isError: false,
        timestamp: turn,
      });
      messages.push({ role: "assistant", content: [{ type: "text", text: "ok" }], timestamp: turn });
    };
    add("call_1", big, 0);
    add("call_1", big, 1); // the same result twice under one call id (a resumed or forked branch)
    add("call_2", noisyLog(600, 12), 2);
    for (let i = 3; i < 9; i++) add(`call_${i}`, "ok", i);
    const out = await e.prune({ messages, session: "p1", settings: { clearAtLeast: 100, maxToolChars: 50 } });
    expect(out.batch.length).toBeGreaterThan(0);
    const s = await e.stats({ session: "p1" });
    expect(s.pruning.batches).toBe(1);
    expect(s.pruning.lastBatch!.results).toBe(s.pruning.results);
    expect(s.pruning.savedPerRequest).toBe(s.pruning.tokensBefore - s.pruning.tokensAfter);
    await e.close();
    // A pointer that came out larger than the small result it replaced saves 0, not a negative number.
    const db = openDatabase(e.path);
    db.exec(`INSERT INTO prune_pointers (call_id, text_hash, source, pointer, tool, session, tokens_before, tokens_after, at)
      VALUES ('call_small', 'h', 'ctx_x', 'p', 'bash', 'p1', 10, 30, 1)`);
    const after = pruneSavings(db, { session: "p1" });
    expect(after.larger).toBe(1);
    expect(after.results).toBe(s.pruning.results + 1);
    expect(after.savedPerRequest).toBe(s.pruning.savedPerRequest);
    db.close();
  });
});
