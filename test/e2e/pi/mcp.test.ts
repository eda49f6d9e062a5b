/**
 * The MCP gateway in real pi with a scripted model: in each mode the model finds and calls a
 * tool on its first try; the catalog tool list is byte-identical on every turn; a 1 MB result
 * becomes a receipt that context_search reaches; images survive; an unapproved project file
 * starts nothing. On pi 0.87.1, which has no MCP of its own, whatever PI_SIDECAR_TEST_PI says: on
 * pi 1.x the gateway is off and pi keeps its own MCP (mcp-builtin.test.ts).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { registryServers, testServer } from "../../gateway/servers.ts";
import { tempDir } from "../../helpers.ts";
import { agentDir, BIN, runPi, stepsScript, toolCallsOf, writeScript } from "./harness.ts";

/** The gateway's modes run where it is on by default. */
const PI = "0.87.1";

const files = tempDir("pi-sidecar-files-");
const NOTE = join(files, "notes.txt");
writeFileSync(NOTE, "the launch code is tangerine\n");

function agentWithServers(servers: Record<string, unknown>): string {
  const dir = agentDir();
  writeFileSync(join(dir, "mcp.json"), JSON.stringify({ mcpServers: servers }));
  return dir;
}

const resultTexts = (run: ReturnType<typeof runPi>) =>
  (run.calls.at(-1)?.messages ?? [])
    .filter((m) => m.role === "toolResult")
    .map((m) => (m.content as { type: string; text?: string }[]).map((c) => c.text ?? `[${c.type}]`).join(""));

describe("MCP gateway in pi", () => {
  test("catalog (Bun): search then call succeeds first try; the tool list never changes", () => {
    const agent = agentWithServers(registryServers(files));
    const script = writeScript(`export default (ctx) => {
  const results = ctx.messages.filter((m) => m.role === "toolResult");
  const text = (m) => m.content.map((c) => c.text ?? "").join("");
  if (results.length === 0) return { toolCalls: [{ name: "mcp_search", arguments: { query: "read text file" } }] };
  if (results.length === 1) {
    const m = /^(\\S+\\/read_text_file)\\(path: string/m.exec(text(results[0]));
    if (!m) return "NOT FOUND " + text(results[0]);
    return { toolCalls: [{ name: "mcp_call", arguments: { tool: m[1], arguments: { path: ${JSON.stringify(NOTE)} } } }] };
  }
  return "ANSWER " + text(results.at(-1));
};`);
    const run = runPi({ pi: PI, runtime: "bun", script, prompt: "What is the launch code in notes.txt?", agentDir: agent });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ANSWER the launch code is tangerine");
    expect(toolCallsOf(run)).toEqual(["mcp_search", "mcp_call"]);
    const lists = new Set(run.calls.map((c) => JSON.stringify(c.tools)));
    expect(lists.size).toBe(1); // byte-identical on every turn
    const names = run.calls[0]!.tools.map((t) => t.name);
    expect(names.filter((n) => n.startsWith("mcp"))).toEqual(["mcp_search", "mcp_describe", "mcp_call"]);
    expect(names.some((n) => n.includes("__"))).toBe(false);
  }, 120_000);

  test("stubs (Bun): the model calls a stub, the call runs and the server's tools turn into full schemas", () => {
    const agent = agentWithServers(registryServers(files));
    // Fill the on-disk catalog from the CLI (what a user does once with `pi-sidecar servers connect`).
    const env = { PATH: process.env.PATH ?? "", HOME: agent, PI_CODING_AGENT_DIR: agent };
    for (const name of ["filesystem", "memory"]) {
      const r = Bun.spawnSync([BIN, "servers", "connect", name], { env, stdout: "pipe", stderr: "pipe" });
      expect(r.stdout.toString()).toMatch(new RegExp(`${name}: connected, \\d+ tools`));
    }
    const script = writeScript(`export default (ctx) => {
  const results = ctx.messages.filter((m) => m.role === "toolResult");
  const tool = ctx.tools.find((t) => t.name.endsWith("__read_text_file"));
  if (results.length === 0) {
    if (!tool || !/path: string/.test(tool.description)) return "NO STUB " + JSON.stringify(ctx.tools.map((t) => t.name));
    return { toolCalls: [{ name: tool.name, arguments: { path: ${JSON.stringify(NOTE)} } }] };
  }
  return "ANSWER " + results[0].content.map((c) => c.text ?? "").join("") + " FULL=" + JSON.stringify(Object.keys(tool.parameters.properties ?? {}));
};`);
    const run = runPi({ pi: PI, runtime: "bun", script, prompt: "Read notes.txt", agentDir: agent, env: { PI_SIDECAR_MCP_MODE: "stubs" } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ANSWER the launch code is tangerine");
    expect(run.stdout).toContain('FULL=["path","tail","head"]');
    const first = run.calls[0]!.tools;
    expect(first.find((t) => t.name === "filesystem__read_text_file")!.parameters).toEqual({ type: "object" });
    expect(first.some((t) => t.name === "mcp__expand")).toBe(true);
    // memory was not called: still stubs on the second turn
    expect(run.calls[1]!.tools.find((t) => t.name === "memory__read_graph")!.parameters).toEqual({ type: "object" });
  }, 120_000);

  test("eager (Node): full schemas from the start, first call succeeds", () => {
    const agent = agentWithServers({ filesystem: registryServers(files).filesystem });
    const run = runPi({
      pi: PI,
      runtime: "node",
      script: stepsScript([{ name: "filesystem__read_text_file", arguments: { path: NOTE } }]),
      prompt: "Read notes.txt",
      agentDir: agent,
      env: { PI_SIDECAR_MCP_MODE: "eager" },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("tangerine");
    const tool = run.calls[0]!.tools.find((t) => t.name === "filesystem__read_text_file")!;
    expect(Object.keys((tool.parameters as { properties: object }).properties)).toEqual(["path", "tail", "head"]);
  }, 120_000);

  test("a 1 MB result becomes a receipt that context_search reaches; images and resources survive", () => {
    const agent = agentWithServers({ t: testServer() });
    const run = runPi({
      pi: PI,
      runtime: "bun",
      agentDir: agent,
      prompt: "go",
      script: stepsScript([
        { name: "mcp_call", arguments: { tool: "t/huge", arguments: { bytes: 1_000_000, needle: "needle-7f3a" } } },
        { name: "context_search", arguments: { query: "needle-7f3a" } },
        { name: "mcp_call", arguments: { tool: "t/media" } },
      ]),
    });
    expect(run.code).toBe(0);
    const [receipt, search, media] = resultTexts(run);
    expect(Buffer.byteLength(receipt!)).toBeLessThan(6000);
    expect(receipt).toMatch(/Source ctx_[a-z0-9]+/);
    expect(search).toContain("ERROR needle-7f3a failed at step 5000");
    expect(media).toContain("[image]");
    expect(media).toContain("resource text: the key is 42");
    expect(media).toContain('"answer": 42');
  }, 120_000);

  test("an unapproved project mcp.json starts nothing, and /mcp list (pi 0.87.1 has no /mcp of its own) says how to approve it", () => {
    const agent = agentDir();
    const project = tempDir("pi-sidecar-project-");
    const marker = join(project, "started");
    mkdirSync(join(project, ".pi"));
    writeFileSync(
      join(project, "mcp.json"),
      JSON.stringify({ mcpServers: { evil: { command: "sh", args: ["-c", `touch ${marker}`], autostart: true } } }),
    );
    const run = runPi({ pi: PI, runtime: "bun", agentDir: agent, cwd: project, prompt: "/mcp list", script: stepsScript([]) });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Not started: ${join(project, "mcp.json")} (evil)`);
    expect(run.stdout).toContain("/sidecar mcp approve");
    expect(existsSync(marker)).toBe(false);
  }, 120_000);
});
