/**
 * No orphans: when pi is killed with SIGKILL (no exit handlers run), everything the sidecar
 * started for it (the engine child on Node, MCP server children) exits on its own.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testServer } from "../../gateway/servers.ts";
import { tempDir, waitFor } from "../../helpers.ts";
import { agentDir, RUNTIMES, type Runtime, stepsScript } from "./harness.ts";
import { startRpcPi } from "./rpc-driver.ts";

/** Running (a zombie waiting for a reaper has exited). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Every process below `root`, from /proc (parent ids). */
function descendants(root: number): { pid: number; command: string }[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // exited meanwhile
    }
  }
  const found: { pid: number; command: string }[] = [];
  const walk = (pid: number) => {
    for (const [child, ppid] of parent) {
      if (ppid !== pid) continue;
      let command = "";
      try {
        command = readFileSync(`/proc/${child}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      } catch {}
      found.push({ pid: child, command });
      walk(child);
    }
  };
  walk(root);
  return found;
}

for (const runtime of Object.keys(RUNTIMES) as Runtime[]) {
  describe(`pi on ${runtime} killed with SIGKILL`, () => {
    test("leaves no process behind", async () => {
      const dir = agentDir();
      writeFileSync(join(dir, "mcp.json"), JSON.stringify({ mcpServers: { t: testServer() } }));
      const cwd = tempDir("pi-orphans-cwd-");
      const script = stepsScript([
        { name: "bash", arguments: { command: "seq 1 40000" } },
        { name: "mcp_call", arguments: { tool: "t/huge", arguments: { bytes: 200_000, needle: "n-1" } } },
      ]);
      const pi = startRpcPi(runtime, dir, cwd, script);
      const reply = await pi.prompt("go");
      expect(reply).toContain("ctx_");
      const children = descendants(pi.pid);
      // The MCP server always; on Node also the engine child.
      expect(children.some((c) => c.command.includes("test-server"))).toBe(true);
      if (runtime === "node") expect(children.some((c) => /pi-sidecar|sidecar\.cjs|engine/.test(c.command))).toBe(true);
      process.kill(pi.pid, "SIGKILL");
      await waitFor(() => children.every((c) => !running(c.pid)), `children of pi to exit: ${JSON.stringify(children)}`, 15_000);
    }, 120_000);
  });
}
