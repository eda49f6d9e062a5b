/**
 * The MCP gateway with the four registry servers the issue names (server-everything,
 * server-filesystem, server-memory, server-sequential-thinking; 37 tools):
 *  - the tool definitions the model is sent per turn, per mode, at startup and after first use
 *    (characters of {name, description, parameters} as pi sends them; o200k tokens);
 *  - calls a scripted agent needs to reach a first successful tool call, per mode;
 *  - latency: a server's first start, a stub call that promotes its server, a warm call
 *    through the gateway vs the same call on a direct SDK client, and through `pi-sidecar mcp`.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createCatalogCache } from "../src/gateway/catalog-cache.ts";
import type { ExposedTool } from "../src/gateway/exposed-tools.ts";
import { createGateway, type Gateway } from "../src/gateway/gateway.ts";
import { loadServerConfigs } from "../src/gateway/server-config.ts";
import type { ServerMode } from "../src/gateway/server-spec.ts";
import { createMcpState } from "../src/gateway/state.ts";
import { countTokens } from "../src/tokens/count.ts";
import { median, percentile } from "./stats-math.ts";
import { log, timeEach } from "./timing.ts";

const ROOT = join(import.meta.dir, "..");
const bin = (name: string) => join(ROOT, "node_modules/.bin", name);

export type DefsRow = { mode: string; when: string; tools: number; chars: number; tokens: number };
export type FirstSuccessRow = { mode: string; task: string; calls: string[]; ok: boolean; searchTokens: number };
export type McpBenchResult = {
  servers: number;
  tools: number;
  defs: DefsRow[];
  firstSuccess: FirstSuccessRow[];
  latency: {
    coldStartP50: number;
    promoteCallMs: number[];
    gatewayP50: number;
    directP50: number;
    gatewayP99: number;
    directP99: number;
    binaryP50: number;
    calls: number;
  };
};

function measure(mode: string, when: string, tools: { name: string; description?: string; parameters: unknown }[]): DefsRow {
  const sent = JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description ?? "", parameters: t.parameters })));
  return { mode, when, tools: tools.length, chars: sent.length, tokens: countTokens(sent) };
}

const asSent = (tools: ExposedTool[]) => tools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema }));

function setup(scratch: string) {
  const files = join(scratch, "mcp-files");
  const agent = join(scratch, "mcp-agent");
  mkdirSync(files, { recursive: true });
  mkdirSync(agent, { recursive: true });
  writeFileSync(join(files, "notes.txt"), "the launch code is tangerine\n");
  writeFileSync(
    join(agent, "mcp.json"),
    JSON.stringify({
      mcpServers: {
        everything: { command: bin("mcp-server-everything") },
        filesystem: { command: bin("mcp-server-filesystem"), args: [files] },
        memory: { command: bin("mcp-server-memory"), env: { MEMORY_FILE_PATH: join(files, "memory.jsonl") } },
        "sequential-thinking": { command: bin("mcp-server-sequential-thinking") },
      },
    }),
  );
  const open = (mode: ServerMode): Gateway => {
    const state = createMcpState(agent);
    return createGateway({
      load: loadServerConfigs({ agentDir: agent, cwd: scratch, approved: state.isApproved }),
      settings: { mode, force: null, requestTimeoutMs: 30_000 },
      cache: createCatalogCache(agent),
      state,
    });
  };
  return { files, agent, open };
}

/** Tasks a scripted agent does: which tool does it, and the arguments it would write. */
function tasks(files: string) {
  return [
    { task: "read a file", tool: "filesystem/read_text_file", query: "read text file", args: { path: join(files, "notes.txt") } },
    { task: "list a directory", tool: "filesystem/list_directory", query: "list directory", args: { path: files } },
    {
      task: "add to the knowledge graph",
      tool: "memory/create_entities",
      query: "create entities knowledge graph",
      args: { entities: [{ name: "bench", entityType: "run", observations: ["fast"] }] },
    },
    { task: "add two numbers", tool: "everything/get-sum", query: "sum two numbers", args: { a: 2, b: 40 } },
    {
      task: "think step by step",
      tool: "sequential-thinking/sequentialthinking",
      query: "sequential thinking thought",
      args: { thought: "plan", nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 },
    },
  ];
}

const text = (r: Awaited<ReturnType<Gateway["call"]>>) => r.result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

/** The scripted agent: in catalog mode it searches and copies the tool name from the answer; otherwise it calls the tool in its list. */
async function firstSuccess(g: Gateway, mode: string, t: ReturnType<typeof tasks>[number]): Promise<FirstSuccessRow> {
  const calls: string[] = [];
  let searchTokens = 0;
  const [server, tool] = t.tool.split("/") as [string, string];
  for (let attempt = 0; attempt < 4; attempt++) {
    if (mode === "catalog") {
      calls.push("mcp_search");
      const found = text(await g.call("mcp_search", { query: t.query }));
      searchTokens += countTokens(found);
      const name = found
        .split("\n")
        .map((l) => l.split("(")[0]!)
        .find((n) => n.endsWith(`/${tool}`));
      if (!name) continue;
      calls.push("mcp_call");
      const r = await g.call("mcp_call", { tool: name, arguments: t.args });
      if (!r.result.isError) return { mode, task: t.task, calls, ok: true, searchTokens };
    } else {
      const name = g.exposed().find((x) => x.server === server && x.tool === tool)?.name;
      if (!name) return { mode, task: t.task, calls, ok: false, searchTokens };
      calls.push(name);
      const r = await g.call(name, t.args);
      if (!r.result.isError) return { mode, task: t.task, calls, ok: true, searchTokens };
    }
  }
  return { mode, task: t.task, calls, ok: false, searchTokens };
}

export async function benchMcp(scratch: string, calls = 300): Promise<McpBenchResult> {
  const { files, agent, open } = setup(scratch);
  const defs: DefsRow[] = [];

  // First session ever: no disk catalog. Catalog mode lists the servers on the first search.
  const catalog = open("catalog");
  const coldStart = performance.now();
  await catalog.call("mcp_search", { query: "anything" });
  log(`mcp: four servers listed in ${(performance.now() - coldStart).toFixed(0)} ms`);
  await catalog.close();

  const eager = open("eager");
  const all = eager.exposed().filter((t) => t.kind === "full");
  // Plain pi-mcp sends each server's schema as it comes (with $schema and $ref/$defs as written).
  const plain = await (async () => {
    const out: { name: string; description?: string; parameters: unknown }[] = [];
    for (const name of ["everything", "filesystem", "memory", "sequential-thinking"]) {
      const transport = new StdioClientTransport(
        name === "filesystem"
          ? { command: bin(`mcp-server-${name}`), args: [files], stderr: "pipe" }
          : { command: bin(`mcp-server-${name}`), stderr: "pipe" },
      );
      const client = new Client({ name: "bench", version: "1" });
      await client.connect(transport);
      for (const t of (await client.listTools()).tools)
        out.push({ name: `${name}_${t.name}`, description: t.description, parameters: t.inputSchema });
      await client.close();
    }
    return out;
  })();
  defs.push(measure("plain pi-mcp (schemas as served)", "every turn", plain));
  defs.push(measure("eager", "every turn", asSent(eager.exposed())));

  const stubs = open("stubs");
  defs.push(measure("stubs", "startup", asSent(stubs.exposed())));
  const cat2 = open("catalog");
  defs.push(measure("catalog", "startup", asSent(cat2.exposed())));

  const firstSuccessRows: FirstSuccessRow[] = [];
  const promoteCallMs: number[] = [];
  for (const [mode, g] of [
    ["catalog", cat2],
    ["stubs", stubs],
    ["eager", eager],
  ] as const) {
    for (const t of tasks(files)) {
      const t0 = performance.now();
      firstSuccessRows.push(await firstSuccess(g, mode, t));
      if (mode === "stubs" && firstSuccessRows.at(-1)!.calls.length === 1 && t.tool !== "filesystem/list_directory")
        promoteCallMs.push(performance.now() - t0);
    }
  }
  const one = open("stubs");
  await one.call("filesystem__list_directory", { path: files });
  defs.push(measure("stubs", "after one call to filesystem", asSent(one.exposed())));
  await one.close();
  defs.push(measure("stubs", "after calls to all four servers", asSent(stubs.exposed())));
  defs.push(measure("catalog", "after use", asSent(cat2.exposed())));
  await Promise.all([stubs.close(), cat2.close()]);

  // Cold start: a fresh gateway's first call to everything/echo (spawn, initialize, list, call).
  const cold: number[] = [];
  for (let i = 0; i < 5; i++) {
    const g = open("eager");
    const t0 = performance.now();
    await g.call("everything__echo", { message: "hi" });
    cold.push(performance.now() - t0);
    await g.close();
  }

  // Warm calls side by side: through the gateway vs a direct SDK client on its own server.
  await eager.call("everything__echo", { message: "warm" });
  const direct = new Client({ name: "bench", version: "1" });
  await direct.connect(new StdioClientTransport({ command: bin("mcp-server-everything"), stderr: "pipe" }));
  const gatewayMs: number[] = [];
  const directMs: number[] = [];
  for (let i = 0; i < calls; i++) {
    gatewayMs.push(...(await timeEach(1, () => eager.call("everything__echo", { message: `m${i}` }))));
    directMs.push(...(await timeEach(1, () => direct.callTool({ name: "echo", arguments: { message: `m${i}` } }))));
  }
  await direct.close();
  await eager.close();

  // Through the compiled binary, as another agent would use it.
  const viaBinary = new Client({ name: "bench", version: "1" });
  await viaBinary.connect(
    new StdioClientTransport({
      command: join(ROOT, "dist/pi-sidecar"),
      args: ["mcp"],
      env: { PATH: process.env.PATH ?? "", HOME: agent, PI_CODING_AGENT_DIR: agent, PI_SIDECAR_MCP_MODE: "eager" },
      stderr: "pipe",
    }),
  );
  await viaBinary.callTool({ name: "everything__echo", arguments: { message: "warm" } });
  const binaryMs = await timeEach(Math.min(calls, 200), () =>
    viaBinary.callTool({ name: "everything__echo", arguments: { message: "x" } }),
  );
  await viaBinary.close();

  return {
    servers: 4,
    tools: all.length,
    defs,
    firstSuccess: firstSuccessRows,
    latency: {
      coldStartP50: median(cold),
      promoteCallMs,
      gatewayP50: median(gatewayMs),
      directP50: median(directMs),
      gatewayP99: percentile(gatewayMs, 99),
      directP99: percentile(directMs, 99),
      binaryP50: median(binaryMs),
      calls,
    },
  };
}

if (import.meta.main) {
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  console.log(JSON.stringify(await benchMcp(mkdtempSync(join(tmpdir(), "bench-mcp-")), 100), null, 1));
}
