/**
 * memory_search and memory_recall through `pi-sidecar mcp` (the built binary): listed read-only,
 * answering from the same memory the CLI wrote, bad arguments answered as tool errors.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, ROOT, runCli, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

const BIN = join(ROOT, "dist/pi-sidecar");

describe("memory over MCP", () => {
  test("tools/list has both tools; tools/call answers from the project's memory", () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`node_modules/.bin/bun build.ts\` first`);
    const home = tempDir("memory-mcp-");
    const project = tempDir("memory-mcp-project-");
    const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
    expect(runCli(["memory", "add", "--kind", "prompt"], { bin: BIN, env, cwd: project, stdin: "no, use pnpm, not npm" }).code).toBe(0);
    const frames = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "memory_search", arguments: { query: "pnpm" } } },
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "memory_recall", arguments: { prompt: "install the dependencies" } } },
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "memory_search", arguments: { limit: 3 } } },
    ];
    const r = runCli(["mcp"], { bin: BIN, env, cwd: project, stdin: `${frames.map((f) => JSON.stringify(f)).join("\n")}\n` });
    const answers = new Map(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
        .map((m) => [m.id, m.result]),
    );
    const tools = answers.get(2).tools.filter((t: { name: string }) => t.name.startsWith("memory_"));
    expect(tools.map((t: { name: string; annotations: { readOnlyHint: boolean } }) => [t.name, t.annotations.readOnlyHint])).toEqual([
      ["memory_search", true],
      ["memory_recall", true],
    ]);
    expect(answers.get(3)).toMatchObject({ isError: false });
    expect(answers.get(3).content[0].text).toContain("e1 correction");
    expect(answers.get(4).content[0].text).toContain("no, use pnpm, not npm");
    expect(answers.get(5)).toMatchObject({ isError: true });
    expect(answers.get(5).content[0].text).toContain("memory_search needs query");
  }, 30_000);
});
