import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.ts";
import { cleanupTempDirs, noisyLog, ROOT, runCli, tempDir } from "../helpers.ts";

const BIN = join(ROOT, "dist", "pi-sidecar");

beforeAll(async () => {
  // `npm test` builds first; build here when the test runs alone.
  if (!existsSync(BIN)) await (await import("../../build.ts")).build(BIN);
}, 120_000);
afterAll(cleanupTempDirs);

describe("the compiled binary", () => {
  test("runs from anywhere with its SQL embedded, on the default database path", () => {
    const home = tempDir();
    const cwd = tempDir();
    const env = { HOME: home };
    const uuid = crypto.randomUUID();
    const log = noisyLog(1400, 5, { line: 1300, text: `x TARGET_VALUE=${uuid} y` });
    const cap = runCli(["capture", "--tool", "bash", "--json"], { bin: BIN, env, cwd, stdin: log });
    expect(cap.code).toBe(0);
    const { sourceId } = JSON.parse(cap.stdout);
    expect(existsSync(join(home, ".pi", "agent", "sidecar.db"))).toBe(true);
    const hit = runCli(["search", "TARGET_VALUE", "--json"], { bin: BIN, env, cwd });
    expect(JSON.parse(hit.stdout).hits[0]).toMatchObject({ sourceId });
    expect(JSON.parse(hit.stdout).hits[0].text).toContain(`1300: x TARGET_VALUE=${uuid} y`);
    expect(runCli(["get", sourceId, "--lines", "1300"], { bin: BIN, env, cwd }).stdout).toBe(`x TARGET_VALUE=${uuid} y\n`);
  });

  test("does not read .env or bunfig.toml from the directory it runs in", () => {
    const home = tempDir();
    const cwd = tempDir();
    const decoy = join(cwd, "decoy.db");
    const marker = join(cwd, "preloaded");
    writeFileSync(join(cwd, ".env"), `PI_SIDECAR_DB=${decoy}\n`);
    writeFileSync(join(cwd, "preload.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x");\n`);
    writeFileSync(join(cwd, "bunfig.toml"), `preload = ["./preload.ts"]\n`);
    const r = runCli(["capture", "--tool", "t", "--force"], { bin: BIN, env: { HOME: home }, cwd, stdin: "hello\n" });
    expect(r.code).toBe(0);
    expect(existsSync(decoy)).toBe(false);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(home, ".pi", "agent", "sidecar.db"))).toBe(true);
  });

  test("a one-shot capture counts its tokens before it exits; a server counts them on its worker thread", () => {
    const env = { HOME: tempDir(), PI_SIDECAR_DEBUG: "1" };
    const r = runCli(["capture", "--tool", "t", "--json"], { bin: BIN, env, stdin: noisyLog(3000, 3) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout).tokens).toBeNull(); // the receipt does not wait for the count
    expect(JSON.parse(runCli(["stats", "--json"], { bin: BIN, env }).stdout).totals.storedTokens).toBeGreaterThan(10_000);
    const frames = [
      { jsonrpc: "2.0", id: 1, method: "capture", params: [{ text: noisyLog(3000, 4), tool: "t", project: "/p" }] },
      { jsonrpc: "2.0", id: 2, method: "stats", params: [{ project: "/p" }] },
    ];
    const served = runCli(["serve", "--stdio"], { bin: BIN, env, stdin: frames.map((f) => `${JSON.stringify(f)}\n`).join("") });
    expect(served.stderr).not.toContain("background worker unavailable"); // the embedded worker ran
    const stats = served.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((f) => f.id === 2);
    expect(stats.result.totals.storedTokens).toBeGreaterThan(10_000);
  });

  test("a one-shot capture answers first and hands indexing and counting to a detached settle; without it nothing is lost", async () => {
    const env = { HOME: tempDir() };
    const db = join(env.HOME, ".pi", "agent", "sidecar.db");
    const r = runCli(["capture", "--tool", "t"], { bin: BIN, env, stdin: noisyLog(3000, 7) });
    expect(r.code).toBe(0);
    const queued = () => {
      const d = openDatabase(db, { readonly: true });
      try {
        return d.query<{ n: number }, []>("SELECT (SELECT count(*) FROM index_queue) + (SELECT count(*) FROM blob_count_queue) AS n").get()!
          .n;
      } finally {
        d.close();
      }
    };
    const deadline = Date.now() + 20_000;
    while (queued() > 0 && Date.now() < deadline) await Bun.sleep(100);
    expect(queued()).toBe(0); // the detached `settle` finished both queues with no other command run
    // With the hand-off off (or its process killed), the queue waits and the next search indexes first.
    const env2 = { HOME: tempDir(), PI_SIDECAR_SETTLE: "inline" };
    const uuid = crypto.randomUUID();
    expect(
      runCli(["capture", "--tool", "t"], { bin: BIN, env: env2, stdin: noisyLog(3000, 8, { line: 2500, text: `id=${uuid}` }) }).code,
    ).toBe(0);
    const hit = runCli(["search", uuid, "--json"], { bin: BIN, env: env2 });
    expect(JSON.parse(hit.stdout).hits[0].text).toContain(`2500: id=${uuid}`);
  });

  test("install claude writes a hook whose rewrite gives a receipt and the exit status; context_fetch turns HTML into text", async () => {
    const home = tempDir();
    const cwd = tempDir();
    const env = { HOME: home, PATH: process.env.PATH ?? "", PI_SIDECAR_SETTLE: "inline" };
    expect(runCli(["install", "claude"], { bin: BIN, env, cwd }).code).toBe(0);
    const settings = JSON.parse(readFileSync(join(home, ".claude", "settings.json"), "utf8"));
    const hookCommand = settings.hooks.PreToolUse[0].hooks[0].command as string;
    expect(hookCommand).toBe(`${BIN} hook claude`);
    writeFileSync(join(cwd, "big.log"), noisyLog(2000, 3));
    const input = {
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "cat big.log" },
      cwd,
      permission_mode: "default",
    };
    const hook = Bun.spawnSync(["bash", "-c", hookCommand], {
      stdin: Buffer.from(JSON.stringify(input)),
      env: { ...env, CLAUDE_PROJECT_DIR: cwd },
    });
    const rewritten = JSON.parse(hook.stdout.toString()).hookSpecificOutput.updatedInput.command as string;
    const run = Bun.spawnSync(["bash", "-c", `${rewritten.replace("cat big.log", "cat big.log; exit 5")}`], { cwd, env });
    expect(run.exitCode).toBe(5);
    expect(run.stdout.toString()).toMatch(/Source ctx_\w+/);
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response("<html><body><h2>Changelog</h2><script>x()</script><p>Fixed the widget.</p></body></html>", {
          headers: { "content-type": "text/html" },
        }),
    });
    try {
      const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
      const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
      const client = new Client({ name: "t", version: "1" });
      await client.connect(new StdioClientTransport({ command: BIN, args: ["mcp", "--no-servers"], cwd, env }));
      const r = (await client.callTool({ name: "context_fetch", arguments: { url: `http://127.0.0.1:${server.port}/notes` } })) as {
        content: { text: string }[];
      };
      await client.close();
      expect(r.content[0]!.text).toContain("CHANGELOG\n\nFixed the widget.");
      expect(r.content[0]!.text).not.toContain("x()");
    } finally {
      server.stop(true);
    }
  });

  test("exit codes: 0 ok, 1 failure, 2 usage", () => {
    const env = { HOME: tempDir() };
    expect(runCli(["--version"], { bin: BIN, env }).code).toBe(0);
    expect(runCli(["get", "ctx_nothere"], { bin: BIN, env }).code).toBe(1);
    expect(runCli(["nonsense"], { bin: BIN, env }).code).toBe(2);
  });
});
