/**
 * Savings as the user meets them in real pi (0.87.1 and 1.3.0): after a 700 KB bash output the
 * baseline `stats --json` reports is pi's own cut of it (what plain pi sent the model, counted from
 * a plain pi run of the same command), net saved = baseline - receipts - retrieved; the receipt's
 * details carry nothing that makes pi render its "Truncated: ..." footer; `/context-stats` says
 * the baseline, the stored tokens beside it and the database's size with its write-ahead log.
 * And `/pin` after a read-cache marker pins the read the marker stands for; `/kota` names its own
 * slash commands.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "../../../src/tokens/count.ts";
import { cleanupTempDirs, tempDir } from "../../helpers.ts";
import { agentDir, BIN, PI_VERSIONS, type PiRun, runPi, stepsScript, writeScript } from "./harness.ts";

afterAll(cleanupTempDirs);

/** About 700 KB of log lines, the same every run. */
const BIG = `seq 1 11000 | awk '{printf "event %06d status=ok latency=%dms region=eu-west-%d shard=%d user=u%05d\\n", $1, $1%97, $1%3, $1%17, ($1*7919)%100000}'`;
const once = writeScript(
  `export default (ctx) => ctx.lastToolResults.length ? "done" : { toolCalls: [{ name: "bash", arguments: { command: ${JSON.stringify(BIG)} } }] };`,
);

/** What the model was sent as the bash result in the last call. */
function bashResult(run: PiRun): string {
  const m = run.calls.at(-1)!.messages.find((x) => x.role === "toolResult" && x.toolName === "bash");
  return (m!.content as { text?: string }[]).map((c) => c.text ?? "").join("\n");
}

function stats(dir: string, args: string[] = []) {
  const r = Bun.spawnSync([BIN, "stats", "--json", ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: dir, PI_CODING_AGENT_DIR: dir },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(r.stderr.toString()).toBe("");
  return JSON.parse(r.stdout.toString());
}

/** Every entry of the sessions pi wrote in this folder. */
function sessionEntries(dir: string): Record<string, unknown>[] {
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
  return files.flatMap((f) =>
    readFileSync(join(dir, f), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  );
}

for (const pi of PI_VERSIONS) {
  describe(`pi ${pi}`, () => {
    test("a 700 KB bash output: the baseline is pi's own cut (within 15%), and the saving is baseline - receipts - retrieved", () => {
      const plain = runPi({ runtime: "bun", pi, script: once, prompt: "run it", agentDir: agentDir(true), cwd: tempDir("pi-cwd-") });
      expect(plain.code).toBe(0);
      const cut = bashResult(plain);
      expect(cut).toContain("Full output:"); // pi cut it itself
      const piCut = countTokens(cut);

      const dir = agentDir();
      const sessions = tempDir("pi-sessions-");
      const run = runPi({
        runtime: "bun",
        pi,
        script: once,
        prompt: "run it",
        agentDir: dir,
        cwd: tempDir("pi-cwd-"),
        sessionDir: sessions,
      });
      expect(run.code).toBe(0);
      expect(bashResult(run)).toContain("was stored instead of shown");
      const s = stats(dir);
      const t = s.totals;
      console.log(
        `pi ${pi}: pi's own cut ${piCut} tokens; baseline ${t.baselineTokens}, stored ${t.storedTokens}, receipt ${t.receiptTokens}`,
      );
      expect(t.captures).toBe(1);
      expect(t.storedBytes).toBeGreaterThan(650_000);
      expect(Math.abs(t.baselineTokens - piCut) / piCut).toBeLessThanOrEqual(0.15);
      expect(t.netSavedTokens).toBe(t.baselineTokens - t.receiptTokens - t.retrievedTokens);
      expect(t.storedTokens).toBeGreaterThan(5 * t.baselineTokens);
      expect(s.recent[0].baseline).toContain(`pi ${pi}'s own cut of bash`);
      expect(s.byTool[0].baselineTokens).toBe(t.baselineTokens);
      expect(s.bySession[0].baselineTokens).toBe(t.baselineTokens);
      const id = s.recent[0].sourceId;
      expect(stats(dir, ["--source", id]).totals.baselineTokens).toBe(t.baselineTokens);

      // pi renders its "Truncated: ..." footer from these details: the receipt's have neither.
      const results = sessionEntries(sessions).filter((e) => (e.message as { role?: string } | undefined)?.role === "toolResult") as {
        message: { details?: Record<string, unknown> };
      }[];
      expect(results.length).toBe(1);
      const details = results[0]!.message.details!;
      expect(details.piSidecar).toMatchObject({ sourceId: id });
      expect(Object.keys(details)).not.toContain("truncation");
      expect(Object.keys(details)).not.toContain("fullOutputPath");

      const brief = runPi({ runtime: "bun", pi, script: once, prompt: "/context-stats", agentDir: dir, cwd: tempDir("pi-cwd-") });
      expect(brief.stdout).toContain(
        `All sessions: 1 output stored; net saved ${t.netSavedTokens.toLocaleString("en-US")} tokens = baseline ${t.baselineTokens.toLocaleString("en-US")}`,
      );
      expect(brief.stdout).toContain(`Stored: ${t.storedTokens.toLocaleString("en-US")} tokens.`);
      expect(brief.stdout).toContain(`Baselines: pi ${pi}'s own cut of bash`);
      expect(brief.stdout).toMatch(/Store: .+ on disk \(.+ database \+ .+ write-ahead log\), [\d,]+ chunks/);
    }, 240_000);
  });
}

describe("/pin and /kota in pi", () => {
  test("/pin after a read-cache marker pins the read whose text the marker stands for", () => {
    const cwd = tempDir("pi-cwd-");
    writeFileSync(join(cwd, "notes.md"), `${Array.from({ length: 120 }, (_, i) => `note ${i + 1}: keep it`).join("\n")}\n`);
    const dir = agentDir();
    const sessions = tempDir("pi-sessions-");
    const script = stepsScript([
      { name: "read", arguments: { path: "notes.md" } },
      { name: "bash", arguments: { command: "echo unrelated" } },
      { name: "read", arguments: { path: "notes.md" } },
    ]);
    const first = runPi({ runtime: "bun", script, prompt: "read twice", agentDir: dir, cwd, sessionDir: sessions });
    expect(first.code).toBe(0);
    const [, , marker] = JSON.parse(first.stdout.trim()) as string[];
    expect(marker).toStartWith("[readcache: unchanged]");
    const pin = runPi({ runtime: "bun", script, prompt: "/pin", agentDir: dir, cwd, sessionDir: sessions, resume: true });
    expect(pin.stdout).toContain("Pinned the last read result");
    const entries = sessionEntries(sessions);
    const reads = entries
      .map((e) => e.message as { role?: string; toolName?: string; toolCallId?: string } | undefined)
      .filter((m) => m?.role === "toolResult" && m.toolName === "read")
      .map((m) => m!.toolCallId);
    const pins = entries
      .filter((e) => e.type === "custom" && e.customType === "pi-sidecar-pin")
      .map((e) => (e.data as { toolCallId: string }).toolCallId);
    expect(reads.length).toBe(2);
    expect(pins).toEqual([reads[0]!]);
  }, 120_000);

  test("/kota says /kota index, not a bare 'kota index'", () => {
    const cwd = tempDir("pi-kota-");
    mkdirSync(join(cwd, "src"));
    writeFileSync(join(cwd, "package.json"), '{"name":"p","type":"module"}\n');
    writeFileSync(join(cwd, "src/a.ts"), "export const a = 1;\n");
    const run = runPi({
      runtime: "bun",
      script: writeScript("export default () => 'ok';"),
      prompt: "/kota status",
      agentDir: agentDir(),
      cwd,
    });
    expect(run.stdout).toContain("/kota index");
    expect(run.stdout).not.toMatch(/(^|[^/])kota index/m);
  }, 120_000);
});
