/**
 * Pruning as a library call (messages in, messages out) on a real engine and SQLite file: batches
 * at clearAtLeast, byte-identical prefixes between batches, exact rehydration through the pointer,
 * and what is never pruned.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createEngine, type Engine } from "../../src/engine.ts";
import type { Message } from "../../src/prune/messages.ts";
import { TOOL_CALLS } from "../../src/store/next-calls.ts";
import { cleanupTempDirs, rng, runCli, tempDir, testConfig } from "../helpers.ts";

afterAll(cleanupTempDirs);

let calls = 0;
/** Text that looks like tool output (varied, so it tokenizes like real output). */
function output(seed: number, lines: number): string {
  const r = rng(seed);
  return Array.from(
    { length: lines },
    (_, i) =>
      `${String(i + 1).padStart(4)} src/module-${Math.floor(r() * 90)}.ts: value_${Math.floor(r() * 1e6).toString(36)} = compute(${Math.floor(r() * 1e4)});`,
  ).join("\n");
}

type Turn = { tool: string; args: Record<string, unknown>; text: string; isError?: boolean; image?: boolean; details?: unknown };

/** One user turn per entry: prompt, the model's tool call, its result, the model's answer. */
function session(turns: Turn[]): Message[] {
  const messages: Message[] = [];
  turns.forEach((t, i) => {
    const id = `call_${++calls}`;
    messages.push({ role: "user", content: `step ${i}`, timestamp: i });
    messages.push({ role: "assistant", content: [{ type: "toolCall", id, name: t.tool, arguments: t.args }], timestamp: i });
    const content: unknown[] = [{ type: "text", text: t.text }];
    if (t.image) content.push({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
    messages.push({
      role: "toolResult",
      toolCallId: id,
      toolName: t.tool,
      content,
      isError: t.isError ?? false,
      details: t.details,
      timestamp: i,
    });
    messages.push({ role: "assistant", content: [{ type: "text", text: `done ${i}` }], timestamp: i });
  });
  return messages;
}

function engineAt(path = join(tempDir(), "prune.db"), patch: Parameters<typeof testConfig>[1] = () => {}): Engine {
  return createEngine({ config: testConfig(path, patch), calls: TOOL_CALLS, background: "inline" });
}

const texts = (messages: Message[]) =>
  messages.filter((m) => m.role === "toolResult").map((m) => (m.content as { text?: string }[]).map((c) => c.text ?? "[image]").join(""));

describe("prune (messages in, messages out)", () => {
  test("below clearAtLeast nothing changes; past it one batch replaces the old results, the last turns stay", async () => {
    const engine = engineAt();
    const small = session([
      { tool: "bash", args: { command: "npm test" }, text: output(1, 40) },
      { tool: "read", args: { path: "a.ts" }, text: output(2, 40) },
      { tool: "bash", args: { command: "ls" }, text: output(3, 40) },
    ]);
    const none = await engine.prune({ messages: small, session: "s1" });
    expect(none.pruned).toEqual([]);
    expect(none.messages).toEqual(small);
    expect(none.pending).toBeGreaterThan(0);

    const big = session(
      Array.from({ length: 8 }, (_, i) => ({ tool: "bash", args: { command: `make step${i}` }, text: output(10 + i, 300) })),
    );
    const out = await engine.prune({ messages: big, session: "s1" });
    expect(out.batch.length).toBe(6); // 8 turns, the last 2 kept
    const after = texts(out.messages);
    for (const t of after.slice(0, 6)) expect(t).toStartWith('[pruned] bash "make step');
    expect(after.slice(6)).toEqual(texts(big).slice(6));
    // Only tool results changed: user and assistant messages are the same objects' content.
    expect(out.messages.filter((m) => m.role !== "toolResult")).toEqual(big.filter((m) => m.role !== "toolResult"));
    await engine.close();
  });

  test("between batches the messages sent keep a byte-identical prefix; the next batch waits for clearAtLeast", async () => {
    const engine = engineAt();
    const turns: Turn[] = Array.from({ length: 8 }, (_, i) => ({
      tool: "bash",
      args: { command: `run ${i}` },
      text: output(100 + i, 300),
    }));
    const base = session(turns);
    const first = await engine.prune({ messages: base, session: "s2" });
    expect(first.batch.length).toBeGreaterThan(0);
    let previous = JSON.stringify(first.messages);
    let messages = base;
    let batches = 1;
    for (let i = 0; i < 6; i++) {
      messages = [...messages, ...session([{ tool: "read", args: { path: `f${i}.ts` }, text: output(200 + i, 60) }])];
      const out = await engine.prune({ messages, session: "s2" });
      const sent = JSON.stringify(out.messages);
      if (out.batch.length > 0) batches++;
      else expect(sent.startsWith(previous.slice(0, -1))).toBe(true); // same prefix, new messages appended
      previous = sent;
    }
    expect(batches).toBe(1); // six small reads never add up to 20,000 tokens
    await engine.close();
  });

  test("the pointer's call brings back the exact text that was shown (kept in the store, not re-read from the file)", async () => {
    const engine = engineAt();
    const turns: Turn[] = Array.from({ length: 6 }, (_, i) => ({
      tool: "read",
      args: { path: `src/f${i}.ts` },
      text: output(300 + i, 400),
    }));
    const messages = session(turns);
    const out = await engine.prune({ messages, session: "s3" });
    const pointer = texts(out.messages)[0]!;
    expect(pointer).toContain("read src/f0.ts lines 1-400");
    expect(pointer).toContain("reading them again returns the text");
    expect(out.pruned[0]!.read).toEqual({ path: "src/f0.ts", from: 1, to: 400 });
    const m = /context_get (\{.*\})/.exec(pointer)!;
    const args = JSON.parse(m[1]!) as { source: string; lines: string };
    const [from, to] = args.lines.split("-").map(Number);
    const got = await engine.get({ source: args.source, lines: { from: from!, to: to! }, maxBytes: 1 << 20 });
    expect(got.ok && got.text.replace(/\n$/, "") === turns[0]!.text).toBe(true);
    await engine.close();
  });

  test("never pruned: recent errors, images, pinned results, kota_impact; a receipt points at its own source", async () => {
    const engine = engineAt();
    const receiptSource = await engine.capture({ text: output(400, 2000), tool: "bash", force: true });
    const sourceId = (receiptSource as { sourceId: string }).sourceId;
    const turns: Turn[] = [
      { tool: "bash", args: { command: "big" }, text: output(401, 600) },
      { tool: "kota_impact", args: { modify: "a.ts" }, text: output(404, 300) },
      { tool: "screenshot", args: {}, text: output(403, 300), image: true },
      { tool: "bash", args: { command: "pinned" }, text: output(405, 300) },
      { tool: "bash", args: { command: "failing" }, text: output(402, 300), isError: true },
      {
        tool: "bash",
        args: { command: "cat log" },
        text: "receipt text ".repeat(60),
        details: { piSidecar: { sourceId, bytes: 99_000, lines: 2000 } },
      },
      { tool: "bash", args: { command: "recent" }, text: output(406, 300) },
      { tool: "bash", args: { command: "latest" }, text: output(407, 300) },
    ];
    const messages = session(turns);
    const pinned = (messages[3 * 4 + 2] as unknown as { toolCallId: string }).toolCallId;
    const out = await engine.prune({ messages, session: "s4", pinned: [pinned], settings: { clearAtLeast: 1000 } });
    const after = texts(out.messages);
    expect(after[0]!.slice(0, 40)).toStartWith('[pruned] bash "big"');
    const same = (i: number, suffix = "") => expect(after[i] === `${turns[i]!.text}${suffix}`).toBe(true);
    same(1); // kota_impact
    same(2, "[image]");
    same(3); // pinned
    same(4); // an error 3 turns ago: errors stay longer
    expect(after[5]).toContain(`is stored as ${sourceId}`);
    expect(after[5]).toContain("context_search");
    expect(after.slice(6)).toEqual([turns[6]!.text, turns[7]!.text]);
    expect(out.batch.map((p) => p.tool)).toEqual(["bash", "bash"]);
    await engine.close();
  });

  test("a pruned context_get answer points back at the same lines of the same source, stored once", async () => {
    const engine = engineAt();
    const stored = (await engine.capture({ text: output(900, 3000), tool: "bash", force: true })) as { sourceId: string };
    const got = await engine.get({ source: stored.sourceId, lines: { from: 100, to: 700 } });
    const text = got.ok ? got.text : "";
    const turns: Turn[] = [
      {
        tool: "context_get",
        args: { source: stored.sourceId, lines: "100-700" },
        text,
        details: { sourceId: stored.sourceId, lineStart: 100, lineEnd: 700 },
      },
      ...Array.from({ length: 5 }, (_, i) => ({ tool: "bash", args: { command: `c${i}` }, text: output(910 + i, 300) })),
    ];
    const before = (await engine.list({}, 100)).length;
    const out = await engine.prune({ messages: session(turns), session: "s8", settings: { clearAtLeast: 1000 } });
    const pointer = texts(out.messages)[0]!;
    expect(pointer).toBe(
      `[pruned] context_get ${stored.sourceId} lines 100-700 (${pointer.match(/\(([^)]+)\)/)![1]}). The same text again: context_get {"source": "${stored.sourceId}", "lines": "100-700"}`,
    );
    expect(out.pruned[0]!.source).toBe(stored.sourceId);
    expect((await engine.list({}, 100)).length).toBe(before + 3); // the three bash results, not the get
    await engine.close();
  });

  test("a store that cannot be written leaves the text as it was and says why", async () => {
    const path = join(tempDir(), "ro.db");
    engineAt(path);
    const writer = engineAt(path);
    await writer.list();
    await writer.close();
    const { openDatabase } = await import("../../src/db/open.ts");
    const db = openDatabase(path, { readonly: true });
    const engine = createEngine({ config: testConfig(path), db, calls: TOOL_CALLS, background: "inline" });
    const messages = session(
      Array.from({ length: 6 }, (_, i) => ({ tool: "bash", args: { command: `c${i}` }, text: output(500 + i, 400) })),
    );
    const out = await engine.prune({ messages, session: "s5" });
    expect(out.pruned).toEqual([]);
    expect(out.messages).toEqual(messages);
    expect(out.problems.join("\n")).toContain("read-only");
    await engine.close();
    db.close();
  });

  test("a resumed session gets the same pointers; a purged source is stored again from the message", async () => {
    const path = join(tempDir(), "resume.db");
    const messages = session(
      Array.from({ length: 6 }, (_, i) => ({ tool: "bash", args: { command: `c${i}` }, text: output(600 + i, 400) })),
    );
    const a = engineAt(path);
    const first = await a.prune({ messages, session: "s6" });
    await a.close();
    const b = engineAt(path);
    const again = await b.prune({ messages, session: "s6" });
    expect(again.batch).toEqual([]);
    expect(JSON.stringify(again.messages)).toBe(JSON.stringify(first.messages));
    await b.purge({ source: first.pruned[0]!.source });
    const restored = await b.prune({ messages, session: "s6" });
    expect(restored.pruned[0]!.source).not.toBe(first.pruned[0]!.source);
    const got = await b.get({ source: restored.pruned[0]!.source, lines: { from: 1, to: 3 } });
    expect(got.ok && got.text).toContain("src/module-");
    await b.close();
  });

  test("adaptive: past the usage threshold one turn fewer is kept", async () => {
    const engine = engineAt();
    const messages = session(
      Array.from({ length: 6 }, (_, i) => ({ tool: "bash", args: { command: `c${i}` }, text: output(700 + i, 400) })),
    );
    const out = await engine.prune({ messages, session: "s7", usagePercent: 75 });
    expect(out.settings.adaptive).toBe(true);
    expect(out.batch.length).toBe(5);
    await engine.close();
  });

  test("from the CLI (any agent): JSON in, JSON out; bad input exits 2 saying the expected shape", () => {
    const home = tempDir();
    const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
    const messages = session(
      Array.from({ length: 6 }, (_, i) => ({ tool: "bash", args: { command: `c${i}` }, text: output(800 + i, 400) })),
    );
    const r = runCli(["prune", "--session", "cli-1"], { env, stdin: JSON.stringify({ messages }) });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { batch: unknown[]; messages: Message[] };
    expect(out.batch.length).toBe(4);
    expect(texts(out.messages)[0]!.slice(0, 30)).toStartWith('[pruned] bash "c0"');
    const again = runCli(["prune", "--session", "cli-1"], { env, stdin: JSON.stringify(messages) });
    expect(JSON.stringify(JSON.parse(again.stdout).messages)).toBe(JSON.stringify(out.messages));
    const bad = runCli(["prune"], { env, stdin: '{"x": 1}' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no "messages" array');
    const nullPart = [...messages.slice(0, 2), { ...messages[2], content: [null] }];
    const junk = runCli(["prune"], { env, stdin: JSON.stringify(nullPart) });
    expect(junk.code).toBe(2);
    expect(junk.stderr).toContain('message 2 (toolResult): content part 0 is null, not an object with a "type"');
    expect(junk.stderr).not.toContain("    at ");
  });

  test("two results under one call id each keep their own pointer to their own text", async () => {
    const engine = engineAt();
    const messages = session(
      Array.from({ length: 6 }, (_, i) => ({ tool: "bash", args: { command: `c${i}` }, text: output(1000 + i, 400) })),
    );
    // A second result under the first call's id, with other text.
    const first = messages[2] as Message & { toolCallId: string };
    messages.splice(3, 0, { ...first, content: [{ type: "text", text: output(1100, 400) }] });
    const out = await engine.prune({ messages, session: "dup", settings: { clearAtLeast: 1000 } });
    const [a, b] = texts(out.messages);
    expect(a).toStartWith("[pruned]");
    expect(b).toStartWith("[pruned]");
    expect(a).not.toBe(b);
    const back = async (pointer: string) => {
      const m = JSON.parse(/context_get (\{.*\})/.exec(pointer)![1]!) as { source: string; lines: string };
      const [from, to] = m.lines.split("-").map(Number);
      const got = await engine.get({ source: m.source, lines: { from: from!, to: to! }, maxBytes: 1 << 20 });
      return got.ok ? got.text.replace(/\n$/, "") : "";
    };
    expect(await back(a!)).toBe(output(1000, 400));
    expect(await back(b!)).toBe(output(1100, 400));
    await engine.close();
  });

  test("a secret in the session id or a call id is redacted before pointers and batches are kept", async () => {
    const path = join(tempDir(), "secret.db");
    const engine = engineAt(path);
    const token = `ghp_${"a1B2c3D4e5".repeat(3)}abcdef`;
    const messages = session(
      Array.from({ length: 6 }, (_, i) => ({ tool: "bash", args: { command: `c${i}` }, text: output(1200 + i, 400) })),
    );
    (messages[2] as unknown as { toolCallId: string }).toolCallId = `call_${token}`;
    (messages[1]!.content as { id: string }[])[0]!.id = `call_${token}`;
    const out = await engine.prune({ messages, session: `session-${token}`, settings: { clearAtLeast: 1000 } });
    expect(out.batch.length).toBeGreaterThan(0);
    const again = await engine.prune({ messages, session: `session-${token}`, settings: { clearAtLeast: 1000 } });
    expect(again.batch).toEqual([]); // found again under the redacted id
    expect(JSON.stringify(again.messages)).toBe(JSON.stringify(out.messages));
    await engine.close();
    for (const f of [path, `${path}-wal`]) {
      try {
        expect(readFileSync(f).includes(token)).toBe(false);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
  });
});
