/**
 * Property over long sessions in real pi (RPC mode, scripted model): nothing sent claims the
 * model holds text that is not in what is sent. A seeded session of reads, re-reads, edits and
 * noisy commands runs with small pruning batches, compactions and tree navigation; every request
 * pi sent is then checked on its own: each read-cache marker's lines ("unchanged",
 * "unchanged_range") must be there, word for word, in earlier read results of the same request,
 * and each diff must turn the text the request holds into the file as it was read.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyPatch } from "diff";
import { cleanupTempDirs, rng, tempDir } from "../../helpers.ts";
import { agentDir, writeScript } from "./harness.ts";
import { startRpcPi } from "./rpc-driver.ts";

afterAll(cleanupTempDirs);

const FILES = ["a.ts", "b.ts", "c.ts"] as const;
const source = (seed: number, lines: number) => {
  const r = rng(seed);
  return `${Array.from({ length: lines }, (_, i) => `export const f${i + 1} = ${Math.floor(r() * 1e6)}; // ${"x".repeat(20 + Math.floor(r() * 20))}`).join("\n")}\n`;
};

/** The model: each prompt names one call ("#12 read a.ts 40 30", "#13 bash <command>"); it makes it, then says "ok". */
const SCRIPT = `export default (ctx) => {
  if (ctx.tools.length === 0 || /summar/i.test(ctx.systemPrompt ?? "")) return "Summary: files were read and edited.";
  const last = ctx.messages.at(-1);
  if (last?.role === "toolResult") return "ok";
  const m = /^#(\\w+) (read|bash) (.*)$/s.exec(ctx.lastUserText);
  if (!m) return "ok";
  const id = "c" + m[1];
  if (m[2] === "bash") return { toolCalls: [{ id, name: "bash", arguments: { command: m[3] } }] };
  const [path, offset, limit] = m[3].split(" ");
  return { toolCalls: [{ id, name: "read", arguments: { path, ...(offset ? { offset: Number(offset), limit: Number(limit) } : {}) } }] };
};`;

type Msg = { role: string; toolCallId?: string; toolName?: string; content: unknown };
const textOf = (content: unknown) =>
  Array.isArray(content) ? content.map((c: { type?: string; text?: string }) => (c.type === "text" ? (c.text ?? "") : "")).join("") : "";
const TRAILER = /\n\n\[(?:Showing lines|\d+ more lines in file)[^\]]*\]$/;

/**
 * Claims in one request that the request itself does not back. `readAt` is the file's text when
 * each read ran (by call id).
 */
function unbacked(messages: Msg[], readAt: Map<string, { path: string; text: string }>): string[] {
  const held = new Map<string, Map<number, string>>();
  const problems: string[] = [];
  const args = new Map<string, Record<string, unknown>>();
  for (const m of messages) {
    if (m.role === "assistant" && Array.isArray(m.content))
      for (const c of m.content as { type: string; id: string; arguments?: Record<string, unknown> }[])
        if (c.type === "toolCall") args.set(c.id, c.arguments ?? {});
    if (m.role !== "toolResult" || m.toolName !== "read") continue;
    const at = readAt.get(m.toolCallId!);
    if (!at) continue;
    const lines = at.text.split("\n");
    const have = held.get(at.path) ?? new Map<number, string>();
    held.set(at.path, have);
    const t = textOf(m.content);
    if (t.startsWith("[pruned]") || t.startsWith("[readcache: stored]")) continue;
    if (t.startsWith("[readcache: unchanged")) {
      const span = /: lines? (\d+)(?:-(\d+))?/.exec(t);
      const [a, b] = [Number(span?.[1]), Number(span?.[2] ?? span?.[1])];
      for (let i = a; i <= b; i++) {
        if (have.get(i) !== lines[i - 1]) {
          problems.push(`${m.toolCallId}: "${t.slice(0, 80)}" but line ${i} of ${at.path} is not in this request`);
          break;
        }
      }
      continue;
    }
    if (t.startsWith("[readcache: diff]")) {
      const n = Math.max(0, ...have.keys());
      const base = `${Array.from({ length: n }, (_, i) => have.get(i + 1)).join("\n")}\n`;
      const patched = [...have.keys()].length === n ? applyPatch(base, t.slice(t.indexOf("\n") + 1)) : false;
      if (patched !== at.text) problems.push(`${m.toolCallId}: a diff against text this request does not hold`);
      have.clear();
      for (const [i, l] of lines.slice(0, -1).entries()) have.set(i + 1, l);
      continue;
    }
    const offset = Number(args.get(m.toolCallId!)?.offset ?? 1);
    for (const [i, l] of t.replace(TRAILER, "").replace(/\n$/, "").split("\n").entries()) have.set(offset + i, l);
  }
  return problems;
}

describe("no stranded read-cache markers (pi in RPC mode)", () => {
  test("every request of a long session with pruning, compactions and tree navigation backs every marker it sends", async () => {
    const dir = agentDir();
    // Small batches, so pruning happens often; read results are never receipts.
    writeFileSync(join(dir, "pi-sidecar.json"), JSON.stringify({ prune: { clearAtLeast: 1500, keepRecentTurns: 2 } }));
    writeFileSync(join(dir, "settings.json"), JSON.stringify({ compaction: { keepRecentTokens: 8000 } }));
    const cwd = tempDir("pi-markers-");
    for (const [i, f] of FILES.entries()) writeFileSync(join(cwd, f), source(i + 1, 120 + 60 * i));
    const log = join(tempDir("pi-markers-log-"), "calls.jsonl");
    const pi = startRpcPi("node", dir, cwd, writeScript(SCRIPT), { FAKE_LOG: log });
    const r = rng(27);
    const readAt = new Map<string, { path: string; text: string }>();
    const done = { compactions: 0, navigations: 0, edits: 0 };
    try {
      for (let n = 1; n <= 64; n++) {
        const roll = r();
        if (n === 24 || n === 48 || roll < 0.02) {
          try {
            await pi.command({ type: "compact" });
            done.compactions++;
          } catch (error) {
            // Right after another compaction (or on a short branch) there is nothing to compact.
            if (!/already compacted|nothing to compact/i.test(String(error))) throw error;
          }
          continue;
        }
        if (n === 16 || n === 36 || n === 56 || roll < 0.04) {
          const entries = (await pi.command({ type: "get_entries" })).data.entries as { id: string; type: string; message?: Msg }[];
          const answers = entries.filter(
            (e) => e.type === "message" && e.message?.role === "assistant" && textOf(e.message.content) === "ok",
          );
          const to = answers[Math.floor(r() * answers.length)];
          if (to) {
            await pi.slash(`/fake-nav ${to.id}`);
            done.navigations++;
          }
          continue;
        }
        const file = FILES[Math.floor(r() * FILES.length)]!;
        if (roll < 0.14) {
          // An agent reads a file, edits it, and reads what it edited (a diff, its first read in view).
          readAt.set(`c${n}r`, { path: file, text: readFileSync(join(cwd, file), "utf8") });
          await pi.prompt(`#${n}r read ${file}`);
          const text = readFileSync(join(cwd, file), "utf8").split("\n");
          const at = 1 + Math.floor(r() * (text.length - 1));
          text[at - 1] = `export const edited${n} = ${n};`;
          writeFileSync(join(cwd, file), text.join("\n"));
          done.edits++;
          readAt.set(`c${n}`, { path: file, text: text.join("\n") });
          await pi.prompt(`#${n} read ${file}`);
          continue;
        }
        if (roll < 0.34) {
          await pi.prompt(
            `#${n} bash awk 'BEGIN { for (i = 1; i <= 220; i++) printf "noise ${n} line %d %s\\n", i, "${"y".repeat(40)}" }'`,
          );
          continue;
        }
        readAt.set(`c${n}`, { path: file, text: readFileSync(join(cwd, file), "utf8") });
        const range = r() < 0.3 ? ` ${1 + Math.floor(r() * 40)} ${10 + Math.floor(r() * 60)}` : "";
        await pi.prompt(`#${n} read ${file}${range}`);
      }
    } finally {
      await pi.close();
    }
    const requests = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { messages: Msg[] });
    const problems = requests.flatMap((q, i) => unbacked(q.messages, readAt).map((p) => `request ${i}: ${p}`));
    expect(problems).toEqual([]);
    // The session did what the property is about: markers were sent, pruned markers became pointers.
    const texts = requests.flatMap((q) =>
      q.messages.filter((m) => m.role === "toolResult" && m.toolName === "read").map((m) => textOf(m.content)),
    );
    expect(texts.filter((t) => t.startsWith("[readcache: unchanged")).length).toBeGreaterThan(10);
    expect(texts.some((t) => t.startsWith("[readcache: diff]"))).toBe(true);
    const markerIds = new Set(
      requests.flatMap((q) =>
        q.messages.filter((m) => m.role === "toolResult" && textOf(m.content).startsWith("[readcache:")).map((m) => m.toolCallId),
      ),
    );
    const prunedMarkers = requests.flatMap((q) =>
      q.messages.filter((m) => m.role === "toolResult" && markerIds.has(m.toolCallId) && textOf(m.content).startsWith("[pruned] read")),
    );
    expect(prunedMarkers.length).toBeGreaterThan(0);
    expect(done.compactions).toBeGreaterThanOrEqual(2);
    expect(done.navigations).toBeGreaterThanOrEqual(2);
  }, 600_000);
});
