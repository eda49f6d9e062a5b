/**
 * The catalog cache is written to disk redacted: a secret a server put in a tool's description or
 * schema (a default, an example) never reaches the file, while this session keeps the list as the
 * server gave it, and the next session reads the redacted copy.
 */
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { createCatalogCache } from "../../src/gateway/catalog-cache.ts";
import type { ServerSpec } from "../../src/gateway/server-spec.ts";
import { cleanupTempDirs, rng, tempDir, testSeed } from "../helpers.ts";

afterAll(cleanupTempDirs);

test("a secret in a tool's description or schema is not written to the cache file", () => {
  const r = rng(testSeed("catalog cache redaction"));
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const token = `ghp_${Array.from({ length: 36 }, () => chars[Math.floor(r() * chars.length)]).join("")}`;
  const tools: Tool[] = [
    {
      name: "search_issues",
      description: `Searches issues. Authenticated as the bot (token ${token}).`,
      inputSchema: {
        type: "object",
        properties: { query: { type: "string", description: "what to find" }, auth: { type: "string", default: token } },
      },
    },
  ];
  const agent = tempDir("pi-sidecar-agent-");
  const spec = { name: "gh", fingerprint: "f1" } as ServerSpec;
  const cache = createCatalogCache(agent);
  cache.put(spec, tools);
  // This session keeps what the server said.
  expect(cache.get(spec)?.tools).toEqual(tools);
  const dir = join(agent, "pi-sidecar", "mcp-catalog");
  const files = readdirSync(dir);
  expect(files).toEqual(["gh.json"]);
  const written = readFileSync(join(dir, "gh.json"), "utf8");
  expect(written).not.toContain(token);
  expect(written).not.toContain(token.slice(4, 20));
  // The rest is kept: the next session lists the same tool, with its arguments.
  const next = createCatalogCache(agent).get(spec)!;
  expect(next.tools.map((t) => t.name)).toEqual(["search_issues"]);
  expect(Object.keys(next.tools[0]!.inputSchema.properties ?? {})).toEqual(["query", "auth"]);
  expect(next.tools[0]!.description).toContain("Searches issues.");
});
