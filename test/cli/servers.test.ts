/** `pi-sidecar servers` (the CLI face of /mcp): list, switches, profiles, backup/restore, approval. */
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentWith, testServer } from "../gateway/servers.ts";
import { cleanupTempDirs, runCli, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

test("list, disable, profiles, backup and restore", () => {
  const agent = agentWith({ alpha: testServer(), beta: testServer({ mode: "stubs" }) });
  const cli = (...args: string[]) => runCli(["servers", ...args], { env: { PI_CODING_AGENT_DIR: agent } });
  const list = cli("list");
  expect(list.code).toBe(0);
  expect(list.stdout).toMatch(/alpha\s+catalog\s+idle\s+not listed yet/);
  expect(list.stdout).toMatch(/beta\s+stubs/);

  expect(cli("connect", "alpha").stdout).toContain("alpha: connected, 7 tools.");
  expect(cli("list").stdout).toMatch(/alpha\s+catalog\s+idle\s+7 tools/); // from the disk catalog

  expect(cli("profile", "save", "both").stdout).toContain("Profile both: alpha, beta.");
  expect(cli("disable", "beta").stdout).toContain("beta: disabled.");
  expect(cli("list").stdout).toMatch(/beta .*disabled/);
  expect(cli("profile", "save", "solo").stdout).toContain("Profile solo: alpha.");
  const backup = cli("backup");
  expect(backup.stdout).toMatch(/Backed up the MCP state and config files to \S+/);
  expect(cli("profile", "use", "both").stdout).toContain("enabled alpha, beta; disabled none");
  expect(cli("list").stdout).not.toContain("disabled");
  expect(cli("profile", "list").stdout).toContain("* both: alpha, beta");

  writeFileSync(join(agent, "mcp.json"), "{}");
  const restored = cli("restore");
  expect(restored.stdout).toContain("Restored");
  expect(JSON.parse(readFileSync(join(agent, "mcp.json"), "utf8")).mcpServers.alpha).toBeDefined();
  expect(readFileSync(join(agent, "mcp.json.before-restore"), "utf8")).toBe("{}");
  expect(cli("list").stdout).toMatch(/beta .*disabled/); // the state as it was at the backup

  const bad = cli("enable", "gamma");
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('No MCP server "gamma". Servers: alpha');
  expect(bad.stdout).toBe("");
}, 60_000);

test("every exit code: 0 done, 1 failed (message on stderr, in the CLI's words), 2 usage", () => {
  const agent = agentWith({
    alpha: testServer(),
    ghost: { command: "/nonexistent/mcp-server-ghost" },
    off: testServer({ enabled: false }),
  });
  const cli = (...args: string[]) => runCli(["servers", ...args], { env: { PI_CODING_AGENT_DIR: agent } });
  const expectFailure = (r: ReturnType<typeof cli>, code: number, text: string) => {
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code, stdout: "" });
    expect(r.stderr).toContain(text);
    expect(r.stderr).not.toMatch(/\/mcp [a-z]/); // pi's wording never reaches the command line
    expect(r.stderr).not.toContain("The user can"); // nor the model's
  };
  expect(cli("list").code).toBe(0);
  expectFailure(cli("connect", "ghost"), 1, 'Cannot start MCP server "ghost"');
  expect(cli("connect", "ghost").stderr).toContain("pi-sidecar servers connect ghost");
  expectFailure(cli("connect", "off"), 1, "Turn it on with pi-sidecar servers enable off");
  expectFailure(cli("frobnicate"), 2, 'Unknown command "frobnicate"');
  expect(cli("frobnicate").stderr).toContain("Usage: pi-sidecar servers");
  expectFailure(cli("connect"), 2, "Name a server: pi-sidecar servers connect NAME");
  expectFailure(cli("profile", "use", "nope"), 1, "No profile nope");
  expectFailure(cli("profile", "frob", "x"), 2, 'Unknown profile action "frob"');
  expectFailure(cli("restore", "nope"), 1, "No backup named nope");
  expect(cli("disconnect", "alpha").code).toBe(0);
  const off = runCli(["servers", "list"], { env: { PI_CODING_AGENT_DIR: agent, PI_SIDECAR_MCP: "0" } });
  expect(off.code).toBe(1);
  expect(off.stderr).toContain("switched off");
}, 60_000);

test("approve a project's mcp.json once", () => {
  const agent = agentWith({});
  const project = tempDir();
  writeFileSync(join(project, "mcp.json"), JSON.stringify({ mcpServers: { local: testServer() } }));
  const cli = (...args: string[]) => runCli(["servers", ...args], { env: { PI_CODING_AGENT_DIR: agent }, cwd: project });
  expect(cli("list").stdout).toContain(`Not started: ${join(project, "mcp.json")} (local)`);
  expect(cli("approve").stdout).toContain(`Approved ${join(project, "mcp.json")}`);
  expect(cli("list").stdout).toMatch(/local\s+catalog\s+idle/);
  expect(existsSync(join(agent, "pi-sidecar", "mcp-state.json"))).toBe(true);
}, 30_000);
