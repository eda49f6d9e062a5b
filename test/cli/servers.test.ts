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
  expect(bad.stdout).toContain('No MCP server "gamma". Servers: alpha');
  expect(cli("frobnicate").stdout).toContain('Unknown /mcp command "frobnicate"'.replace("/mcp", "pi-sidecar servers"));
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
