/**
 * `pi-sidecar mcp` (the compiled binary) in front of the user's servers, for any MCP client:
 * stubs promoted with tools/list_changed, catalog calls, huge results kept out as receipts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { agentWith, registryServers, testServer } from "../../gateway/servers.ts";
import { cleanupTempDirs, ROOT, tempDir, waitFor } from "../../helpers.ts";

afterAll(cleanupTempDirs);
const BIN = join(ROOT, "dist/pi-sidecar");

async function gatewayClient(agent: string, env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: BIN,
    args: ["mcp"],
    cwd: tempDir(),
    env: { PATH: process.env.PATH ?? "", HOME: agent, PI_CODING_AGENT_DIR: agent, ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const textOf = (r: unknown) => (r as { content: { type: string; text?: string }[] }).content.map((c) => c.text ?? `[${c.type}]`).join("\n");

describe("pi-sidecar mcp as a gateway", () => {
  test("stubs: the first call promotes the server and the client is told the list changed", async () => {
    const files = tempDir();
    writeFileSync(join(files, "a.txt"), "alpha beta\n");
    const agent = agentWith(registryServers(files));
    // One catalog mode session lists the servers (and fills the disk catalog).
    const warm = await gatewayClient(agent);
    expect(textOf(await warm.callTool({ name: "mcp_search", arguments: { query: "list directory" } }))).toContain(
      "filesystem/list_directory(path: string)",
    );
    await warm.close();

    const client = await gatewayClient(agent, { PI_SIDECAR_MCP_MODE: "stubs" });
    try {
      let changed = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changed++);
      const before = (await client.listTools()).tools;
      expect(before.map((t) => t.name)).toContain("context_search");
      expect(before.find((t) => t.name === "filesystem__list_directory")!.description).toContain("(path: string)");
      const r = await client.callTool({ name: "filesystem__list_directory", arguments: { path: files } });
      expect(textOf(r)).toContain("[FILE] a.txt");
      await waitFor(() => changed > 0, "tools/list_changed");
      expect(changed).toBe(1);
      const after = (await client.listTools()).tools;
      expect(Object.keys(after.find((t) => t.name === "filesystem__list_directory")!.inputSchema.properties ?? {})).toEqual(["path"]);
      expect(after.find((t) => t.name === "memory__read_graph")!.inputSchema).toEqual({ type: "object" });
    } finally {
      await client.close();
    }
  }, 60_000);

  test("catalog: a huge upstream result comes back as a receipt that context_get reads", async () => {
    const client = await gatewayClient(agentWith({ t: testServer() }));
    try {
      const r = await client.callTool({
        name: "mcp_call",
        arguments: { tool: "t/huge", arguments: { bytes: 400_000, needle: "needle-x9" } },
      });
      const receipt = textOf(r);
      expect(receipt.length).toBeLessThan(6000);
      const id = /Source (ctx_\w+)/.exec(receipt)![1]!;
      const hits = textOf(await client.callTool({ name: "context_search", arguments: { query: "needle-x9", source: id } }));
      const line = /(\d+): ERROR needle-x9/.exec(hits)![1]!;
      expect(textOf(await client.callTool({ name: "context_get", arguments: { source: id, lines: line } }))).toContain(
        "ERROR needle-x9 failed at step 5000",
      );
      const media = (await client.callTool({ name: "mcp_call", arguments: { tool: "t/media" } })) as { content: { type: string }[] };
      expect(media.content.map((c) => c.type)).toEqual(["image", "resource", "resource", "resource_link"]);
    } finally {
      await client.close();
    }
  }, 60_000);

  test("--no-servers serves our own tools only (context, kota, memory), none of the configured servers", async () => {
    const transport = new StdioClientTransport({
      command: BIN,
      args: ["mcp", "--no-servers"],
      env: { PATH: process.env.PATH ?? "", PI_CODING_AGENT_DIR: agentWith({ t: testServer() }) },
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("context_search");
    expect(names.filter((n) => !/^(context|kota|memory)_/.test(n))).toEqual([]);
    await client.close();
  }, 30_000);
});
