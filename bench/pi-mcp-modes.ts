/**
 * MCP on pi 1.3.0, side by side in a real pi with a scripted model and the four registry servers
 * (everything, filesystem, memory, sequential-thinking): pi's own exposure modes, `deferred`
 * (tool_search declares matches) and `codemode` (scripts find tools with searchTools()), against
 * pi-sidecar's gateway in `catalog` (mcp_search, mcp_call) and `stubs` (one short stub per tool)
 * mode, with pi's own MCP switched off for those two. Each scripted agent takes its mode's own
 * discovery path and knows only what to do and with which arguments.
 *
 * Per mode and task: MCP tool-definition tokens per model call (tools plus system prompt, o200k,
 * minus the same pi and sidecar with no MCP at all) on the first call and on the call after the
 * first success; the model calls up to the first successful MCP call; all tokens sent.
 *
 *   bun bench/pi-mcp-modes.ts        prints the rows as JSON and a markdown table
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "../src/tokens/count.ts";
import { agentDir, BIN, type PiRun, runPi, writeScript } from "../test/e2e/pi/harness.ts";
import { registryServers } from "../test/gateway/servers.ts";
import { cleanupTempDirs, tempDir } from "../test/helpers.ts";
import { table } from "./markdown.ts";
import { log } from "./timing.ts";

export type PiMcpMode = "pi deferred" | "pi codemode" | "sidecar catalog" | "sidecar stubs";
export const PI_MCP_MODES: PiMcpMode[] = ["pi deferred", "pi codemode", "sidecar catalog", "sidecar stubs"];

export type PiMcpRow = {
  mode: PiMcpMode;
  task: string;
  ok: boolean;
  /** Model calls up to and including the first successful call of the task's tool. */
  calls: number;
  toolCalls: string[];
  /** MCP tool-definition tokens (tools + system prompt) on the first model call, and on the one after the first success. */
  defsFirst: number;
  defsAfter: number;
  /** Everything sent over the run, as the provider would transmit it. */
  tokensSent: number;
};

export type PiMcpBench = { pi: string; servers: number; baseline: { tools: number; systemPrompt: number }; rows: PiMcpRow[] };

type Task = { task: string; server: string; tool: string; query: string; args: Record<string, unknown>; expect: RegExp };

function tasks(files: string): Task[] {
  return [
    {
      task: "read a file",
      server: "filesystem",
      tool: "read_text_file",
      query: "read text file",
      args: { path: join(files, "notes.txt") },
      expect: /tangerine/,
    },
    {
      task: "list a directory",
      server: "filesystem",
      tool: "list_directory",
      query: "list directory",
      args: { path: files },
      expect: /notes\.txt/,
    },
    {
      task: "add to the knowledge graph",
      server: "memory",
      tool: "create_entities",
      query: "create entities knowledge graph",
      args: { entities: [{ name: "bench", entityType: "run", observations: ["fast"] }] },
      expect: /bench/,
    },
    { task: "add two numbers", server: "everything", tool: "get-sum", query: "sum two numbers", args: { a: 2, b: 40 }, expect: /42/ },
    {
      task: "think step by step",
      server: "sequential-thinking",
      tool: "sequentialthinking",
      query: "sequential thinking thought",
      args: { thought: "plan", nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 },
      expect: /thoughtNumber/,
    },
  ];
}

/** pi's name for a server's tool: `mcp__<server>__<tool>`, other characters than [A-Za-z0-9_] as `_`. */
const piName = (t: Task) => `mcp__${t.server}__${t.tool}`.replace(/[^A-Za-z0-9_]/g, "_");

/** The scripted agent for one mode and task; it answers "OK <text>" or "FAIL <why>" when done. */
function agentScript(mode: PiMcpMode, t: Task): string {
  const args = JSON.stringify(t.args);
  const q = JSON.stringify(t.query);
  const common = `const results = ctx.messages.filter((m) => m.role === "toolResult");
  const text = (m) => m.content.map((c) => c.text ?? "").join("");
  const last = results.at(-1);
  if (results.length >= 6) return "FAIL too many calls";`;
  const body: Record<PiMcpMode, string> = {
    "pi deferred": `if (results.length === 0) return { toolCalls: [{ name: "tool_search", arguments: { query: ${q} } }] };
  if (results.length === 1) {
    if (!ctx.tools.some((x) => x.name === ${JSON.stringify(piName(t))})) return "FAIL not declared after tool_search: " + text(last).slice(0, 300);
    return { toolCalls: [{ name: ${JSON.stringify(piName(t))}, arguments: ${args} }] };
  }
  return (last.isError ? "FAIL " : "OK ") + text(last);`,
    "pi codemode": `if (results.length === 0) return { toolCalls: [{ name: "codemode", arguments: { code: "const found = await searchTools(" + ${JSON.stringify(q)} + ", { limit: 5 });\\nreturn found.map((f) => f.name).join(\\"\\\\n\\");" } }] };
  if (results.length === 1) {
    const name = text(last).split("\\n").map((l) => l.trim()).find((l) => l.endsWith(${JSON.stringify(`__${t.tool.replace(/[^A-Za-z0-9_]/g, "_")}`)}));
    if (!name) return "FAIL not found: " + text(last).slice(0, 300);
    const id = name.replace(/[^A-Za-z0-9_$]/g, "_");
    return { toolCalls: [{ name: "codemode", arguments: { code: "const r = await tools." + id + "(" + JSON.stringify(${args}) + ");\\nreturn r.content.map((c) => c.text ?? \\"\\").join(\\"\\\\n\\");" } }] };
  }
  return (/^Script completed/.test(text(last)) ? "OK " : "FAIL ") + text(last);`,
    "sidecar catalog": `if (results.length === 0) return { toolCalls: [{ name: "mcp_search", arguments: { query: ${q} } }] };
  if (results.length === 1) {
    const m = new RegExp("^(\\\\S+/" + ${JSON.stringify(t.tool)}.replace(/[-]/g, "\\\\-") + ")\\\\(", "m").exec(text(last));
    if (!m) return "FAIL not found: " + text(last).slice(0, 300);
    return { toolCalls: [{ name: "mcp_call", arguments: { tool: m[1], arguments: ${args} } }] };
  }
  return (last.isError ? "FAIL " : "OK ") + text(last);`,
    "sidecar stubs": `if (results.length === 0) {
    const stub = ctx.tools.find((x) => x.name.endsWith("__" + ${JSON.stringify(t.tool)}) && x.name.startsWith(${JSON.stringify(t.server)}));
    if (!stub) return "FAIL no stub: " + ctx.tools.map((x) => x.name).join(",");
    return { toolCalls: [{ name: stub.name, arguments: ${args} }] };
  }
  return (last.isError ? "FAIL " : "OK ") + text(last);`,
  };
  return writeScript(`export default (ctx) => {\n  ${common}\n  ${body[mode]}\n};`);
}

const defTokens = (call: PiRun["calls"][number]) => ({
  tools: countTokens(JSON.stringify(call.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })))),
});

function setup(mode: PiMcpMode | "none", files: string): { agent: string; env: Record<string, string> } {
  const agent = agentDir();
  const servers = registryServers(files);
  const ours = mode.startsWith("sidecar");
  if (mode !== "none") {
    const exposure = mode === "pi deferred" ? { exposure: "deferred" } : {};
    const entries = Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, { ...(s as object), ...exposure }]));
    writeFileSync(join(agent, "mcp.json"), JSON.stringify({ mcpServers: entries }));
  }
  if (ours) {
    writeFileSync(join(agent, "settings.json"), JSON.stringify({ extensions: ["-builtin:mcp"] }));
    writeFileSync(
      join(agent, "pi-sidecar.json"),
      JSON.stringify({ mcp: { inPi: "on", mode: mode === "sidecar stubs" ? "stubs" : "catalog" } }),
    );
  }
  if (mode === "sidecar stubs") {
    // The on-disk catalog a user has after one session (or `pi-sidecar servers connect`): stubs need it.
    for (const name of Object.keys(servers)) {
      Bun.spawnSync([BIN, "servers", "connect", name], { env: { PATH: process.env.PATH ?? "", HOME: agent, PI_CODING_AGENT_DIR: agent } });
    }
  }
  return { agent, env: {} };
}

export async function benchPiMcpModes(): Promise<PiMcpBench> {
  try {
    // Each mode gets its own files (and memory graph): no task finds another mode's work done.
    const freshFiles = () => {
      const dir = tempDir("bench-pi-mcp-files-");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "notes.txt"), "the launch code is tangerine\n");
      return dir;
    };
    const files = freshFiles();
    const base = setup("none", files);
    const baseRun = runPi({
      runtime: "bun",
      pi: "1.3.0",
      agentDir: base.agent,
      cwd: files,
      prompt: "hi",
      script: writeScript('export default () => "hi";'),
    });
    const baseline = { tools: defTokens(baseRun.calls[0]!).tools, systemPrompt: countTokens(systemPromptOf(baseRun, 0)) };
    const rows: PiMcpRow[] = [];
    for (const mode of PI_MCP_MODES) {
      const files = freshFiles();
      const { agent } = setup(mode, files);
      for (const t of tasks(files)) {
        const run = runPi({
          runtime: "bun",
          pi: "1.3.0",
          agentDir: agent,
          cwd: files,
          prompt: `Please ${t.task}.`,
          script: agentScript(mode, t),
        });
        const answer = run.stdout.trim();
        const ok = run.code === 0 && answer.startsWith("OK ") && t.expect.test(answer);
        const toolCalls = toolCallNames(run);
        const mcpDefs = (i: number) =>
          defTokens(run.calls[i]!).tools - baseline.tools + countTokens(systemPromptOf(run, i)) - baseline.systemPrompt;
        const row: PiMcpRow = {
          mode,
          task: t.task,
          ok,
          calls: toolCalls.length,
          toolCalls,
          defsFirst: mcpDefs(0),
          defsAfter: mcpDefs(run.calls.length - 1),
          tokensSent: run.tokensSent,
        };
        log(
          `pi 1.3.0 MCP ${mode}, ${t.task}: ${ok ? "ok" : `FAILED (${answer.slice(0, 200)})`} in ${row.calls} calls, defs ${row.defsFirst} -> ${row.defsAfter} tokens`,
        );
        rows.push(row);
      }
    }
    return { pi: "1.3.0", servers: 4, baseline, rows };
  } finally {
    cleanupTempDirs();
  }
}

function systemPromptOf(run: PiRun, i: number): string {
  return run.calls[i]?.systemPrompt ?? "";
}

function toolCallNames(run: PiRun): string[] {
  const last = run.calls.at(-1);
  return (last?.messages ?? [])
    .filter((m) => m.role === "assistant")
    .flatMap((m) => (m.content as { type: string; name?: string }[]).filter((b) => b.type === "toolCall").map((b) => b.name ?? ""));
}

/** Per mode: median definition tokens and calls over the tasks, and how many tasks succeeded. */
export function piMcpSummary(
  b: PiMcpBench,
): { mode: PiMcpMode; defsFirst: number; defsAfter: number; calls: number; ok: number; tasks: number }[] {
  const med = (xs: number[]) => [...xs].sort((a, c) => a - c)[xs.length >> 1] ?? Number.NaN;
  return PI_MCP_MODES.map((mode) => {
    const rows = b.rows.filter((r) => r.mode === mode);
    return {
      mode,
      defsFirst: med(rows.map((r) => r.defsFirst)),
      defsAfter: med(rows.map((r) => r.defsAfter)),
      calls: med(rows.map((r) => r.calls)),
      ok: rows.filter((r) => r.ok).length,
      tasks: rows.length,
    };
  });
}

export function piMcpSection(b: PiMcpBench): string {
  return [
    `## MCP on pi ${b.pi}: pi's own exposure modes against the gateway`,
    "",
    "A real pi 1.3.0 on Bun with the four registry servers and a scripted model that takes each mode's own discovery path " +
      "(bench/pi-mcp-modes.ts): `deferred` calls tool_search then the tool it declared; `codemode` runs a script with " +
      "searchTools() then a script that calls the tool; the gateway's `catalog` calls mcp_search then mcp_call; `stubs` calls " +
      "the stub. Definition tokens: tools and system prompt (o200k) per model call, minus pi with the sidecar and no MCP " +
      `(${b.baseline.tools} + ${b.baseline.systemPrompt} tokens). For the gateway pi's own MCP is off ("-builtin:mcp").`,
    "",
    table(
      ["Mode", "Definition tokens, first call", "after the first success", "Calls to first success", "Tasks done"],
      piMcpSummary(b).map((s) => [s.mode, String(s.defsFirst), String(s.defsAfter), String(s.calls), `${s.ok}/${s.tasks}`]),
    ),
    "",
    table(
      ["Mode", "Task", "Calls", "Definition tokens (first / after)", "Tokens sent", "Done"],
      b.rows.map((r) => [
        r.mode,
        r.task,
        r.toolCalls.join(" > "),
        `${r.defsFirst} / ${r.defsAfter}`,
        String(r.tokensSent),
        r.ok ? "yes" : "no",
      ]),
    ),
  ].join("\n");
}

if (import.meta.main) {
  const b = await benchPiMcpModes();
  console.log(JSON.stringify(b, null, 1));
  console.log(piMcpSection(b));
}
