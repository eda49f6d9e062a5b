/** mcp.json entries for the real registry servers and our own test server, and a gateway over them. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createCatalogCache } from "../../src/gateway/catalog-cache.ts";
import { createGateway, type GatewaySettings } from "../../src/gateway/gateway.ts";
import { loadServerConfigs } from "../../src/gateway/server-config.ts";
import { createMcpState } from "../../src/gateway/state.ts";
import { BUN, ROOT, tempDir } from "../helpers.ts";

const bin = (name: string) => join(ROOT, "node_modules/.bin", name);
export const TEST_SERVER = join(import.meta.dir, "fixtures/test-server.ts");

/** The four registry servers the issue measures (37 tools). */
export function registryServers(filesRoot: string): Record<string, unknown> {
  return {
    everything: { command: bin("mcp-server-everything") },
    filesystem: { command: bin("mcp-server-filesystem"), args: [filesRoot] },
    memory: { command: bin("mcp-server-memory"), env: { MEMORY_FILE_PATH: join(filesRoot, "memory.jsonl") } },
    "sequential-thinking": { command: bin("mcp-server-sequential-thinking") },
  };
}

export function testServer(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: BUN, args: [TEST_SERVER], ...extra };
}

/** A fresh agent dir with this mcp.json. */
export function agentWith(servers: Record<string, unknown>): string {
  const dir = join(tempDir("pi-sidecar-mcp-"), "agent");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "mcp.json"), JSON.stringify({ mcpServers: servers }, null, 2));
  return dir;
}

export function gatewayFor(agentDir: string, settings: Partial<GatewaySettings> = {}, cwd = tempDir("pi-sidecar-cwd-")) {
  const state = createMcpState(agentDir);
  const load = loadServerConfigs({ agentDir, cwd, env: process.env, approved: state.isApproved });
  const gateway = createGateway({
    load,
    settings: { mode: "catalog", force: null, requestTimeoutMs: 30_000, ...settings },
    cache: createCatalogCache(agentDir),
    state,
  });
  return { gateway, state, load, agentDir, cwd };
}
