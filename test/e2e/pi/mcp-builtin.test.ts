/**
 * pi 1.3.0's own MCP support with the sidecar installed: pi keeps it (its tools are declared, no
 * warning that an extension took `/mcp`); a result of one of its MCP tools that pi would cut in
 * the middle at 20 KB becomes a receipt, and the middle comes back exactly; a codemode script
 * still gets the whole result of the MCP calls it makes. pi-sidecar's gateway is off there, says
 * how to turn it on under `/sidecar mcp`, and runs when turned on (with pi's switched off).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { registryServers } from "../../gateway/servers.ts";
import { cleanupTempDirs, tempDir } from "../../helpers.ts";
import { agentDir, runPi, stepsScript, toolCallsOf, writeScript } from "./harness.ts";

afterAll(cleanupTempDirs);

const files = tempDir("pi-mcp-files-");
const BIG = join(files, "big.log");
const NEEDLE = "replica 42 lost quorum at 03:14:07";
// 3,000 lines (about 130 KB); the needle sits in the middle, where pi's 20 KB cut removes text.
writeFileSync(
  BIG,
  `${Array.from({ length: 3000 }, (_, i) => (i === 1500 ? NEEDLE : `line ${i + 1}: heartbeat ok from node ${i % 17}, lag ${i % 9} ms`)).join("\n")}\n`,
);

function agentWithMcp(servers: Record<string, unknown>, settings?: Record<string, unknown>): string {
  const dir = agentDir();
  writeFileSync(join(dir, "mcp.json"), JSON.stringify({ mcpServers: servers }));
  if (settings) writeFileSync(join(dir, "settings.json"), JSON.stringify(settings));
  return dir;
}

const filesystem = (extra: Record<string, unknown> = {}) => ({ ...(registryServers(files).filesystem as object), ...extra });

describe("pi 1.3.0's own MCP, with pi-sidecar installed", () => {
  test("Bun: pi's MCP tool is declared; its oversized result becomes a receipt; the cut middle comes back exactly", () => {
    const agent = agentWithMcp({ fs: filesystem({ exposure: "direct" }) });
    const run = runPi({
      runtime: "bun",
      pi: "1.3.0",
      agentDir: agent,
      cwd: files, // pi gives the server its session folder as the MCP root it may read
      prompt: "what happened to the replica?",
      script: stepsScript([
        { name: "mcp__fs__read_text_file", arguments: { path: BIG } },
        { name: "context_search", arguments: { query: "replica lost quorum" } },
      ]),
    });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("was not loaded");
    const names = run.calls[0]!.tools.map((t) => t.name);
    expect(names).toContain("mcp__fs__read_text_file"); // pi's own MCP connected the server
    expect(names.some((n) => n.startsWith("mcp_search") || n.startsWith("mcp_call"))).toBe(false); // our gateway is off
    expect(toolCallsOf(run)).toEqual(["mcp__fs__read_text_file", "context_search"]);
    const [receipt, search] = JSON.parse(run.stdout.trim()) as string[];
    expect(receipt).toContain("was stored instead of shown");
    expect(receipt).not.toContain("chars truncated"); // not pi's middle cut
    expect(Buffer.byteLength(receipt!)).toBeLessThan(6000);
    expect(search).toContain(NEEDLE);
  }, 120_000);

  test("Node: a codemode script gets the whole result of the MCP call it makes; what it returns is what the model sees", () => {
    const agent = agentWithMcp({ fs: filesystem() }); // pi's default exposure: codemode
    const code = `const r = await tools.mcp__fs__read_text_file({ path: ${JSON.stringify(BIG)} });
const text = r.content[0].text;
return "chars=" + text.length + " needle=" + text.includes(${JSON.stringify(NEEDLE)});`;
    const run = runPi({
      runtime: "node",
      pi: "1.3.0",
      agentDir: agent,
      cwd: files,
      prompt: "check the log",
      script: stepsScript([{ name: "codemode", arguments: { code } }]),
    });
    expect(run.code).toBe(0);
    expect(run.calls[0]!.tools.map((t) => t.name)).toContain("codemode");
    const [result] = JSON.parse(run.stdout.trim()) as string[];
    expect(result).toContain(`chars=${Bun.file(BIG).size}`);
    expect(result).toContain("needle=true");
  }, 120_000);

  test("/sidecar mcp says the gateway is off here and how to turn it on; no model call", () => {
    const run = runPi({ runtime: "bun", pi: "1.3.0", agentDir: agentDir(), prompt: "/sidecar mcp list", script: stepsScript([]) });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("pi connects your MCP servers itself here");
    expect(run.stdout).toContain('"inPi": "on"');
    expect(run.calls.length).toBe(0);
  }, 120_000);

  test("Node, gateway turned on and pi's MCP off: the catalog finds and calls the tool; /sidecar mcp lists the server", () => {
    const agent = agentWithMcp({ fs: filesystem() }, { extensions: ["-builtin:mcp"] });
    writeFileSync(join(agent, "pi-sidecar.json"), JSON.stringify({ mcp: { inPi: "on" } }));
    const script = writeScript(`export default (ctx) => {
  const results = ctx.messages.filter((m) => m.role === "toolResult");
  const text = (m) => m.content.map((c) => c.text ?? "").join("");
  if (results.length === 0) return { toolCalls: [{ name: "mcp_search", arguments: { query: "read text file" } }] };
  if (results.length === 1) {
    const m = /^(\\S+\\/read_text_file)\\(/m.exec(text(results[0]));
    if (!m) return "NOT FOUND " + text(results[0]);
    return { toolCalls: [{ name: "mcp_call", arguments: { tool: m[1], arguments: { path: ${JSON.stringify(BIG)}, head: 3 } } }] };
  }
  return "ANSWER " + text(results.at(-1));
};`);
    const run = runPi({ runtime: "node", pi: "1.3.0", agentDir: agent, prompt: "read the log", script });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("both start the servers");
    expect(toolCallsOf(run)).toEqual(["mcp_search", "mcp_call"]);
    expect(run.stdout).toContain("ANSWER line 1: heartbeat ok");
    expect(run.calls[0]!.tools.some((t) => t.name.startsWith("mcp__fs__"))).toBe(false); // pi's MCP is off
    const list = runPi({ runtime: "node", pi: "1.3.0", agentDir: agent, prompt: "/sidecar mcp list", script: stepsScript([]) });
    expect(list.stdout).toMatch(/^\s+fs\s+catalog/m);
  }, 120_000);

  test("gateway on beside pi's own MCP: pi-sidecar warns that both start the servers", () => {
    const agent = agentWithMcp({ fs: filesystem() });
    const run = runPi({
      runtime: "bun",
      pi: "1.3.0",
      agentDir: agent,
      prompt: "hi",
      script: stepsScript([]),
      env: { PI_SIDECAR_MCP_IN_PI: "on" },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("both start the servers in mcp.json");
    expect(run.stderr).toContain('"-builtin:mcp"');
  }, 120_000);
});
