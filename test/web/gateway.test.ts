/**
 * The MCP gateway panel: servers in each mode, their tool-definition tokens, and what a session
 * starting now is sent per turn, read from mcp.json and the tool lists on disk: no server starts.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { createCatalogCache } from "../../src/gateway/catalog-cache.ts";
import { gatewayDefinitions } from "../../src/gateway/definition-tokens.ts";
import { loadServerConfigs } from "../../src/gateway/server-config.ts";
import { serveWeb } from "../../src/surfaces/web/server.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { createWebViewer, createWebWriter } from "../../src/web-viewer.ts";
import { cleanupTempDirs, tempDir, testConfig } from "../helpers.ts";

afterAll(() => cleanupTempDirs());

function tools(server: string, n: number): Tool[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `${server}_op${i}`,
    description: `Does operation ${i} of ${server}. It takes a path and options and returns what changed, with every detail listed.`,
    inputSchema: {
      type: "object" as const,
      properties: { path: { type: "string", description: "where" }, depth: { type: "number", description: "how deep to go" } },
      required: ["path"],
    },
  }));
}

test("each server's definition tokens per mode, and what a session is sent per turn", async () => {
  const agent = tempDir();
  const marker = join(agent, "started");
  // A server that leaves a file behind if anything starts it.
  const server = (mode?: string) => ({ command: "/bin/sh", args: ["-c", `touch ${marker}`], ...(mode ? { mode } : {}) });
  writeFileSync(
    join(agent, "mcp.json"),
    JSON.stringify({ mcpServers: { alpha: server("eager"), beta: server("stubs"), gamma: server("catalog"), delta: server() } }),
  );
  const env = { HOME: agent, PI_CODING_AGENT_DIR: agent };
  const cwd = tempDir();
  // The tool lists a session saved earlier (delta was never listed).
  const load = loadServerConfigs({ agentDir: agent, cwd, env, approved: () => false });
  const cache = createCatalogCache(agent);
  const counts: Record<string, number> = { alpha: 3, beta: 2, gamma: 4 };
  for (const spec of load.servers) if (counts[spec.name]) cache.put(spec, tools(spec.name, counts[spec.name]!));

  const config = testConfig(join(tempDir(), "sidecar.db"));
  const g = gatewayDefinitions({ config, cwd, env });
  const by = Object.fromEntries(g.servers.map((s) => [s.name, s]));
  expect(Object.keys(by).sort()).toEqual(["alpha", "beta", "delta", "gamma"]);
  expect([by.alpha!.mode, by.beta!.mode, by.gamma!.mode, by.delta!.mode]).toEqual(["eager", "stubs", "catalog", "catalog"]);
  expect([by.alpha!.tools, by.beta!.tools, by.gamma!.tools, by.delta!.tools]).toEqual([3, 2, 4, null]);
  expect(by.delta!.eagerTokens).toBeNull();
  for (const s of [by.alpha!, by.beta!, by.gamma!]) {
    expect(s.stubTokens!).toBeGreaterThan(0);
    expect(s.eagerTokens!).toBeGreaterThan(s.stubTokens!);
  }
  // Full schemas cost at least their own JSON's tokens (they carry the description and schema whole).
  const own = countTokens(JSON.stringify(tools("alpha", 3).map((t) => ({ description: t.description, parameters: t.inputSchema }))));
  expect(by.alpha!.eagerTokens!).toBeGreaterThanOrEqual(own);
  // Per turn: alpha's 3 full definitions, beta's 2 stubs and the tool that expands them, the 3 catalog tools for gamma and delta.
  expect(g.perTurn.tools).toBe(3 + 2 + 1 + 3);
  expect(g.catalogTokens).toBeGreaterThan(0);
  expect(g.perTurn.tokens).toBeGreaterThan(by.alpha!.eagerTokens! + by.beta!.stubTokens! + g.catalogTokens);
  expect(g.tokenizer).toBe("o200k_base");

  const served = serveWeb({
    engine: createWebViewer({ config }),
    openWriter: () => createWebWriter(config),
    database: config.db,
    gateway: () => gatewayDefinitions({ config, cwd, env }),
    port: 0,
    token: "gateway-test-token-0123456789",
  });
  if (!served.ok) throw new Error(served.message);
  try {
    const headers = { authorization: `Bearer ${served.token}` };
    const api = (await (await fetch(`http://127.0.0.1:${served.port}/api/gateway`, { headers })).json()) as typeof g;
    expect(api.perTurn).toEqual(g.perTurn);
    const page = await (await fetch(`http://127.0.0.1:${served.port}/gateway`, { headers })).text();
    expect(page).toContain(`data-value="${g.perTurn.tokens}"`);
    expect(page).toContain("not listed yet");
  } finally {
    await served.stop();
  }
  expect(existsSync(marker)).toBe(false);
});
