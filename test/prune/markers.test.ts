/**
 * Pruning and read-cache markers on a real engine: a marker never stays in what is sent once
 * the read it stands on is not (pruned, summarised away); it becomes a pointer to the exact text
 * it stood for. A read a recent marker stands on stays in view. Reads go through the real read
 * cache (engine.readcache), so records and stored versions are what pi's read would make.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createEngine, type Engine } from "../../src/engine.ts";
import type { Message } from "../../src/prune/messages.ts";
import { linesOf } from "../../src/readcache/decide.ts";
import { createTrust } from "../../src/readcache/trust.ts";
import { TOOL_CALLS } from "../../src/store/next-calls.ts";
import { countLines } from "../../src/text.ts";
import { cleanupTempDirs, rng, tempDir, testConfig } from "../helpers.ts";

afterAll(cleanupTempDirs);

function source(seed: number, lines: number): string {
  const r = rng(seed);
  return `${Array.from({ length: lines }, (_, i) => `export const v${i + 1}_${Math.floor(r() * 1e6).toString(36)} = compute(${Math.floor(r() * 1e4)});`).join("\n")}\n`;
}

/** A session built turn by turn; reads go through the engine's read cache with trust as pi keeps it. */
function sessionOf(engine: Engine) {
  const messages: Message[] = [];
  const trust = createTrust();
  let n = 0;
  const turn = (prompt: string) => messages.push({ role: "user", content: prompt, timestamp: n });
  const result = (tool: string, args: Record<string, unknown>, text: string, details?: unknown) => {
    const id = `call_${++n}`;
    messages.push({ role: "assistant", content: [{ type: "toolCall", id, name: tool, arguments: args }], timestamp: n });
    messages.push({
      role: "toolResult",
      toolCallId: id,
      toolName: tool,
      content: [{ type: "text", text }],
      isError: false,
      details,
      timestamp: n,
    });
    messages.push({ role: "assistant", content: [{ type: "text", text: "ok" }], timestamp: n });
    return id;
  };
  return {
    messages,
    turn,
    bash: (seed: number) => result("bash", { command: `make ${seed}` }, source(seed, 300)),
    async read(path: string, text: string, range?: [number, number]) {
      const lines = countLines(text);
      const shown: [number, number] = range ?? [1, lines];
      const builtIn = range ? linesOf(text, range) : text;
      const d = await engine.readcache({ path, text, shown, wholeFile: !range, builtIn, versions: trust.versions(path) });
      trust.record(d.record);
      const args = range ? { path, offset: range[0], limit: range[1] - range[0] + 1 } : { path };
      return { id: result("read", args, d.text, { readcache: d.record }), mode: d.mode };
    },
  };
}

function engineAt(): Engine {
  return createEngine({ config: testConfig(join(tempDir(), "markers.db")), calls: TOOL_CALLS, background: "inline" });
}

const textById = (messages: Message[], id: string) => {
  const m = messages.find((x) => x.role === "toolResult" && x.toolCallId === id)!;
  return (m.content as { text: string }[]).map((c) => c.text).join("");
};

/** The text a pointer's context_get brings back. */
async function follow(engine: Engine, pointer: string): Promise<string> {
  const m = /context_get (\{.*\})/.exec(pointer);
  if (!m) throw new Error(`no context_get in ${pointer}`);
  const args = JSON.parse(m[1]!) as { source: string; lines: string };
  const [from, to] = args.lines.split("-").map(Number);
  const got = await engine.get({ source: args.source, lines: { from: from!, to: to! }, maxBytes: 1 << 22 });
  if (!got.ok) throw new Error(JSON.stringify(got));
  return got.text;
}

describe("read-cache markers under pruning", () => {
  test("a marker whose read is pruned becomes a pointer to the exact lines it stood for", async () => {
    const engine = engineAt();
    const s = sessionOf(engine);
    const file = source(1, 800);
    s.turn("read it");
    const first = await s.read("/p/app.ts", file);
    for (let i = 0; i < 4; i++) {
      s.turn(`noise ${i}`);
      s.bash(10 + i);
    }
    s.turn("read it again");
    const again = await s.read("/p/app.ts", file);
    expect(again.mode).toBe("unchanged");
    s.turn("talk");
    s.turn("talk more");
    const out = await engine.prune({ messages: s.messages, session: "m1", settings: { clearAtLeast: 1000 } });
    expect(textById(out.messages, first.id)).toStartWith("[pruned] read /p/app.ts lines 1-800");
    const marker = textById(out.messages, again.id);
    expect(marker).toStartWith("[pruned] read /p/app.ts lines 1-800");
    expect(marker).not.toContain("[readcache");
    expect(await follow(engine, marker)).toBe(file);
    expect(out.pruned.map((p) => p.callId)).toContain(again.id);
    // The next call applies the same pointers: the prefix sent stays the same.
    const next = await engine.prune({ messages: s.messages, session: "m1", settings: { clearAtLeast: 1000 } });
    expect(JSON.stringify(next.messages)).toBe(JSON.stringify(out.messages));
    expect(next.batch).toEqual([]);
    await engine.close();
  });

  test("a read that a marker of the kept turns stands on stays in view; the rest of the batch goes", async () => {
    const engine = engineAt();
    const s = sessionOf(engine);
    const file = source(2, 600);
    s.turn("read");
    const first = await s.read("/p/a.ts", file);
    for (let i = 0; i < 4; i++) {
      s.turn(`noise ${i}`);
      s.bash(20 + i);
    }
    s.turn("read again");
    const again = await s.read("/p/a.ts", file, [100, 300]);
    expect(again.mode).toBe("unchanged");
    const out = await engine.prune({ messages: s.messages, session: "m2", settings: { clearAtLeast: 1000 } });
    expect(out.batch.map((p) => p.tool)).toEqual(["bash", "bash", "bash"]); // the last one is in the kept turns
    expect(textById(out.messages, first.id)).toBe(file);
    expect(textById(out.messages, again.id)).toStartWith("[readcache: unchanged]");
    await engine.close();
  });

  test("markers standing on markers go together; a diff whose base is pruned points at the whole new version", async () => {
    const engine = engineAt();
    const s = sessionOf(engine);
    const v1 = source(3, 500);
    const v2 = v1.replace(/^(export const v250_\w+ = )compute\(\d+\)/m, "$1changed()");
    s.turn("read");
    await s.read("/p/b.ts", v1);
    s.turn("again");
    const m1 = await s.read("/p/b.ts", v1);
    s.turn("and again");
    const m2 = await s.read("/p/b.ts", v1, [10, 20]);
    s.turn("after the edit");
    const diff = await s.read("/p/b.ts", v2);
    expect([m1.mode, m2.mode, diff.mode]).toEqual(["unchanged", "unchanged", "diff"]);
    for (let i = 0; i < 4; i++) {
      s.turn(`noise ${i}`);
      s.bash(30 + i);
    }
    const out = await engine.prune({ messages: s.messages, session: "m3", settings: { clearAtLeast: 1000 } });
    const sent = out.messages.filter((m) => m.role === "toolResult").map((m) => (m.content as { text: string }[])[0]!.text);
    expect(sent.filter((t) => t.startsWith("[readcache"))).toEqual([]);
    expect(await follow(engine, textById(out.messages, m1.id))).toBe(v1);
    expect(await follow(engine, textById(out.messages, m2.id))).toBe(linesOf(v1, [10, 20]));
    expect(await follow(engine, textById(out.messages, diff.id))).toBe(v2);
    await engine.close();
  });

  test("after a compaction (the read summarised away), with pruning off, the marker still goes", async () => {
    const engine = engineAt();
    const s = sessionOf(engine);
    const file = source(4, 200);
    s.turn("read");
    await s.read("/p/c.ts", file);
    s.turn("again");
    const again = await s.read("/p/c.ts", file);
    // What pi sends after a compaction whose first kept entry is the second read's prompt.
    const kept = s.messages.slice(s.messages.findIndex((m) => m.role === "user" && m.content === "again"));
    const compacted: Message[] = [{ role: "compactionSummary", summary: "files were read", timestamp: 0 }, ...kept];
    const out = await engine.prune({ messages: compacted, session: "m4", pruneResults: false });
    const marker = textById(out.messages, again.id);
    expect(marker).toStartWith("[pruned] read /p/c.ts lines 1-200");
    expect(await follow(engine, marker)).toBe(file);
    // With its read in view nothing changes.
    const whole = await engine.prune({ messages: s.messages, session: "m4", pruneResults: false });
    expect(whole.messages).toEqual(s.messages);
    await engine.close();
  });

  test("a marker whose version is no longer kept claims nothing: it says to read the file again", async () => {
    const engine = engineAt();
    const s = sessionOf(engine);
    s.turn("x");
    const record = { v: 1, path: "/p/gone.ts", hash: "0".repeat(64), lines: 10, mode: "unchanged", trusted: [[1, 10]] };
    s.messages.push({ role: "assistant", content: [{ type: "toolCall", id: "gone", name: "read", arguments: { path: "gone.ts" } }] });
    s.messages.push({
      role: "toolResult",
      toolCallId: "gone",
      toolName: "read",
      content: [
        { type: "text", text: "[readcache: unchanged] /p/gone.ts: lines 1-10 of 10 were shown to you earlier and have not changed since." },
      ],
      details: { readcache: record },
    });
    const out = await engine.prune({ messages: s.messages, session: "m5", pruneResults: false });
    expect(textById(out.messages, "gone")).toBe(
      "[pruned] read gone.ts lines 1-10: the earlier text this answer pointed to is no longer in view; read it again to see it.",
    );
    await engine.close();
  });
});
