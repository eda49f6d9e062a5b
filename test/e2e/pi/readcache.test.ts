/** The read cache in real pi (scripted model): what a repeated read answers, and why. */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, tempDir } from "../../helpers.ts";
import { agentDir, type PiVersion, type Runtime, runPi, stepsScript, writeScript as stepsScriptSource } from "./harness.ts";
import { startRpcPi } from "./rpc-driver.ts";

afterAll(cleanupTempDirs);

const lines = (n: number, label = "line") => `${Array.from({ length: n }, (_, i) => `${label} ${i + 1}: some code here();`).join("\n")}\n`;

/** An agent dir with the sidecar installed and read results never sent to the context store. */
function setup(): { dir: string; cwd: string } {
  const dir = agentDir();
  writeFileSync(join(dir, "pi-sidecar.json"), JSON.stringify({ capture: { tools: { read: { enabled: false } } } }));
  const cwd = tempDir("pi-rc-");
  return { dir, cwd };
}

/** `runtime` is "bun" or "node", or "node@1.3.0" for another pi than the default. */
function play(
  runtime: Runtime | `${Runtime}@${PiVersion}`,
  dir: string,
  cwd: string,
  steps: { name: string; arguments: Record<string, unknown> }[],
  extra: Partial<Parameters<typeof runPi>[0]> = {},
): string[] {
  const [rt, pi] = runtime.split("@") as [Runtime, PiVersion | undefined];
  const run = runPi({ runtime: rt, pi, script: stepsScript(steps), prompt: "go", agentDir: dir, cwd, ...extra });
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout.trim());
}

for (const runtime of ["bun", "node"] as const) {
  describe(`read cache in pi on ${runtime}`, () => {
    test("read twice: unchanged; edited outside the agent: a diff; then unchanged again", () => {
      const { dir, cwd } = setup();
      writeFileSync(join(cwd, "app.ts"), lines(120));
      const r = play(runtime, dir, cwd, [
        { name: "read", arguments: { path: "app.ts" } },
        { name: "read", arguments: { path: "app.ts" } },
        { name: "bash", arguments: { command: "sed -i 's/^line 77: .*/line 77: changed();/' app.ts" } },
        { name: "read", arguments: { path: "app.ts" } },
        { name: "read", arguments: { path: "app.ts" } },
      ]);
      expect(r[0]).toContain("line 120: some code here();");
      expect(r[1]).toStartWith("[readcache: unchanged]");
      expect(r[3]).toStartWith("[readcache: diff]");
      expect(r[3]).toContain("1 line changed of 120");
      expect(r[3]).toContain("+line 77: changed();");
      expect(r[4]).toStartWith("[readcache: unchanged]");
    });
  });
}

describe("read cache in pi 1.3.0 (node)", () => {
  test("a 3,000-line file: read cut at 2,000, then offset=2001 returns the text; seen ranges answer unchanged", () => {
    const { dir, cwd } = setup();
    writeFileSync(join(cwd, "big.ts"), `${Array.from({ length: 3000 }, (_, i) => `L${i + 1}`).join("\n")}\n`); // under 50 KiB: cut by lines
    const r = play("node@1.3.0", dir, cwd, [
      { name: "read", arguments: { path: "big.ts" } },
      { name: "read", arguments: { path: "big.ts", offset: 2001 } },
      { name: "read", arguments: { path: "big.ts", offset: 1500, limit: 100 } },
      { name: "read", arguments: { path: "big.ts", offset: 2990, limit: 5 } },
    ]);
    expect(r[0]!.slice(-120)).toContain("Use offset=2001 to continue");
    expect(r[1]!.startsWith("L2001\n")).toBe(true);
    expect(r[1]).toContain("L3000");
    expect(r[1]).not.toContain("[readcache");
    expect(r[2]).toStartWith("[readcache: unchanged]");
    expect(r[3]).toStartWith("[readcache: unchanged]");
  });

  test("range reads: inside a seen range unchanged, outside it the text", () => {
    const { dir, cwd } = setup();
    writeFileSync(join(cwd, "mid.ts"), lines(400));
    const r = play("node@1.3.0", dir, cwd, [
      { name: "read", arguments: { path: "mid.ts", offset: 100, limit: 50 } },
      { name: "read", arguments: { path: "mid.ts", offset: 110, limit: 10 } },
      { name: "read", arguments: { path: "mid.ts", offset: 140, limit: 20 } },
      { name: "read", arguments: { path: "mid.ts", offset: 300, limit: 0 } },
      { name: "read", arguments: { path: "mid.ts", offset: 300, limit: 1 } },
    ]);
    expect(r[1]).toStartWith("[readcache: unchanged]");
    expect(r[2]).toContain("line 159: some code here();");
    expect(r[4]).toStartWith("line 300: some code here();"); // limit 0 showed nothing, so nothing was trusted
  });

  test("readcache_refresh makes the next read return the text", () => {
    const { dir, cwd } = setup();
    writeFileSync(join(cwd, "a.ts"), lines(30));
    const r = play("node@1.3.0", dir, cwd, [
      { name: "read", arguments: { path: "a.ts" } },
      { name: "readcache_refresh", arguments: { path: "a.ts" } },
      { name: "read", arguments: { path: "a.ts" } },
    ]);
    expect(r[2]).toContain("line 30: some code here();");
    expect(r[2]).not.toContain("[readcache");
  });

  test("after a restart on the saved session, trust is rebuilt from the session file", () => {
    const { dir, cwd } = setup();
    writeFileSync(join(cwd, "s.ts"), lines(40));
    const sessions = tempDir("pi-sessions-");
    const first = play("node@1.3.0", dir, cwd, [{ name: "read", arguments: { path: "s.ts" } }], { sessionDir: sessions });
    expect(first[0]).toContain("line 40");
    const second = play("node@1.3.0", dir, cwd, [{ name: "read", arguments: { path: "s.ts" } }], { sessionDir: sessions, resume: true });
    expect(second[0]).toStartWith("[readcache: unchanged]");
    const status = runPi({
      runtime: "node",
      pi: "1.3.0",
      script: stepsScript([]),
      prompt: "/readcache-status",
      agentDir: dir,
      cwd,
      sessionDir: sessions,
      resume: true,
    });
    expect(status.stdout).toMatch(/Read cache: 1 file tracked; reads served: full 1, unchanged 1; saved [\d,]+ tokens/);
  });

  test("a sensitive file is read normally but never tracked or stored", () => {
    const { dir, cwd } = setup();
    writeFileSync(join(dir, "pi-sidecar.json"), "{}"); // the context store captures big reads here
    const secret = `sk_live_${"Q".repeat(8)}${crypto.randomUUID().replace(/-/g, "")}`;
    // Big enough for the context store too: a sensitive read is never captured either.
    writeFileSync(join(cwd, ".env"), `STRIPE_KEY=${secret}\n${"DEBUG=1\n".repeat(400)}`);
    writeFileSync(join(cwd, "plain.ts"), lines(20));
    const r = play("node@1.3.0", dir, cwd, [
      { name: "read", arguments: { path: "plain.ts" } },
      { name: "read", arguments: { path: ".env" } },
      { name: "read", arguments: { path: ".env" } },
    ]);
    expect(r[1]!.includes(secret)).toBe(true);
    expect(r[2]!.includes(secret)).toBe(true); // no "unchanged": sensitive files bypass the cache
    const files = ["sidecar.db", "sidecar.db-wal"]
      .map((f) => join(dir, f))
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f));
    expect(files.some((b) => b.includes("line 20: some code here"))).toBe(true); // plain.ts was cached
    for (const bytes of files) expect(bytes.includes(secret)).toBe(false);
  });
});

describe("read cache across compaction (pi 1.3.0) and forks (pi 0.87.1), pi in RPC mode", () => {
  const SCRIPT = `export default (ctx) => {
  if (ctx.tools.length === 0 || /summar/i.test(ctx.systemPrompt ?? "")) return "Summary: files were read.";
  const last = ctx.messages.at(-1);
  if (last?.role === "toolResult") return "RESULT:" + last.content.map((c) => c.text ?? "").join("");
  if (/read/.test(ctx.lastUserText)) return { toolCalls: [{ name: "read", arguments: { path: "c.ts" } }] };
  return "ok";
};`;

  function rcSetup() {
    const { dir, cwd } = setup();
    writeFileSync(join(dir, "settings.json"), JSON.stringify({ compaction: { keepRecentTokens: 0 } }));
    writeFileSync(join(cwd, "c.ts"), lines(40));
    return { dir, cwd, script: stepsScriptSource(SCRIPT) };
  }

  test("after a compaction, lines whose read results were summarised away are not trusted", async () => {
    const { dir, cwd, script } = rcSetup();
    const pi = startRpcPi("node", dir, cwd, script, {}, "1.3.0");
    try {
      expect(await pi.prompt("read c.ts")).toContain("line 40: some code here();");
      expect(await pi.prompt("read c.ts again")).toStartWith("RESULT:[readcache: unchanged]");
      const compacted = await pi.command({ type: "compact" });
      expect(compacted.data.summary).toContain("Summary");
      const after = await pi.prompt("read c.ts after compaction");
      expect(after).toContain("line 40: some code here();");
      expect(after).not.toContain("[readcache");
    } finally {
      await pi.close();
    }
  }, 120_000);

  test("forking at a message before the read: the new branch never read the file", async () => {
    const { dir, cwd, script } = rcSetup();
    const pi = startRpcPi("bun", dir, cwd, script);
    try {
      expect(await pi.prompt("hello")).toBe("ok");
      await pi.prompt("read c.ts");
      expect(await pi.prompt("read c.ts again")).toStartWith("RESULT:[readcache: unchanged]");
      const entries = (await pi.command({ type: "get_entries" })).data.entries as {
        id: string;
        type: string;
        message?: { role: string; content: unknown };
      }[];
      const readPrompt = entries.find(
        (e) => e.type === "message" && e.message?.role === "user" && JSON.stringify(e.message.content).includes("read c.ts"),
      );
      const forked = await pi.command({ type: "fork", entryId: readPrompt!.id });
      expect(forked.data.cancelled).toBe(false);
      const onFork = await pi.prompt("read c.ts on the fork");
      expect(onFork).toContain("line 40: some code here();");
      expect(onFork).not.toContain("[readcache");
    } finally {
      await pi.close();
    }
  }, 120_000);
});
