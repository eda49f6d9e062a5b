/**
 * Pruning in real pi (RPC mode, scripted model): after enough old reads, they are sent as
 * pointers in one batch; the model follows a pointer and gets the exact text; a read of a pruned
 * file returns its text again (the read cache agrees it is no longer in view); the messages sent
 * keep their prefix between batches.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rng, tempDir } from "../../helpers.ts";
import { agentDir, runPi, writeScript } from "./harness.ts";
import { startRpcPi } from "./rpc-driver.ts";

const SCRIPT = `
const text = (m) => (m.content ?? []).map((c) => c.text ?? "").join("");
export default (ctx) => {
  const last = ctx.messages.at(-1);
  if (last?.role === "toolResult") return "RESULT:" + text(last);
  const u = ctx.lastUserText;
  let m = /^read (\\S+)/.exec(u);
  if (m) return { toolCalls: [{ name: "read", arguments: { path: m[1] } }] };
  m = /^recall (\\S+)/.exec(u);
  if (m) {
    const call = ctx.messages.flatMap((x) => (x.role === "assistant" ? x.content : [])).find((c) => c.type === "toolCall" && c.arguments?.path === m[1]);
    const result = ctx.messages.find((x) => x.role === "toolResult" && x.toolCallId === call?.id);
    const p = /context_get (\\{.*\\})/.exec(result ? text(result) : "");
    if (!p) return "NOT A POINTER: " + (result ? text(result).slice(0, 80) : "no result");
    return { toolCalls: [{ name: "context_get", arguments: JSON.parse(p[1]) }] };
  }
  return "ok";
};`;

function codeFile(seed: number, lines: number): string {
  const r = rng(seed);
  return Array.from(
    { length: lines },
    (_, i) =>
      `export const item${seed}_${i} = computeValue("${Math.floor(r() * 1e9).toString(36)}", ${Math.floor(r() * 1e5)}); // ${i + 1}`,
  ).join("\n");
}

describe("pruning in pi", () => {
  test("old reads become pointers in batches; the pointer brings back the exact text; a pruned read reads again", async () => {
    const dir = agentDir();
    const cwd = tempDir("pi-prune-cwd-");
    // About 5,000 tokens each: a batch (20,000 tokens) every four reads.
    const files = Array.from({ length: 8 }, (_, i) => {
      const text = codeFile(i + 1, 220);
      writeFileSync(join(cwd, `f${i}.ts`), text);
      return text;
    });
    const log = join(tempDir("pi-prune-log-"), "calls.jsonl");
    const pi = startRpcPi("node", dir, cwd, writeScript(SCRIPT), { FAKE_LOG: log }, "1.3.0");
    try {
      for (let i = 0; i < 8; i++) expect((await pi.prompt(`read f${i}.ts`)).slice(0, 60)).toContain("export const item");
      const recalled = await pi.prompt("recall f0.ts");
      expect(recalled).toStartWith("RESULT:");
      // The exact text as read showed it (context_get's answer: a header line, then the text).
      const lines = files[0]!.split("\n");
      expect(recalled).toContain(lines[0]!);
      expect(recalled).toContain(lines[219]!);
      // f0 was pruned: reading it again returns the text, not "unchanged"; then it is in view again.
      const again = await pi.prompt("read f0.ts");
      expect(again).not.toContain("[readcache");
      expect(again).toContain(lines[110]!);
      expect(await pi.prompt("read f0.ts")).toContain("[readcache: unchanged]");
    } finally {
      await pi.close();
    }
    // What was sent: between batches the same prefix; at a batch, only old results turned into pointers.
    const calls = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { messages: { role: string; content: { text?: string }[] }[] });
    const text = (m: { content: { text?: string }[] }) => (Array.isArray(m.content) ? m.content.map((c) => c.text ?? "").join("") : "");
    let batches = 0;
    for (let i = 1; i < calls.length; i++) {
      const prev = calls[i - 1]!.messages;
      const now = calls[i]!.messages;
      const changed = prev.map((_, k) => k).filter((k) => JSON.stringify(prev[k]) !== JSON.stringify(now[k]));
      if (changed.length === 0) continue;
      batches++;
      for (const k of changed) {
        expect(now[k]!.role).toBe("toolResult");
        expect(text(now[k]!)).toStartWith("[pruned] read ");
        expect(text(prev[k]!)).not.toStartWith("[pruned]");
      }
    }
    expect(batches).toBeGreaterThanOrEqual(1);
    expect(batches).toBeLessThanOrEqual(3); // 11 turns of ~5,000 tokens: a batch every 4 turns at most
  }, 180_000);

  test("/prune shows the configuration headless; PI_SIDECAR_PRUNE=0 turns it off", () => {
    const script = writeScript('export default () => "ok";');
    const on = runPi({ runtime: "bun", script, prompt: "/prune", agentDir: agentDir() });
    expect(on.stdout).toContain("Pruning: on; keeps the last 2 turns");
    expect(on.stdout).toContain("20,000 tokens");
    const off = runPi({ runtime: "bun", script, prompt: "/prune", agentDir: agentDir(), env: { PI_SIDECAR_PRUNE: "0" } });
    expect(off.stdout).toContain("Pruning: off");
    const pin = runPi({ runtime: "bun", script, prompt: "/pin", agentDir: agentDir() });
    expect(pin.stdout).toContain("No result to pin yet.");
  }, 120_000);
});
