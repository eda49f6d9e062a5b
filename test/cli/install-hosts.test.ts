/**
 * `pi-sidecar install|uninstall claude|codex|cursor|opencode|gemini` on real files in a scratch
 * HOME and project: what is written where, that a second run changes nothing, that the user's
 * other entries and comments stay, backups, --dry-run, and that the installed hook and plugin
 * really work.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { cleanupTempDirs, noisyLog, runCli, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

function setup() {
  const home = tempDir();
  const project = tempDir();
  const env = { HOME: home, PI_SIDECAR_DB: join(home, "sidecar.db"), PI_SIDECAR_SETTLE: "inline" };
  const cli = (...args: string[]) => runCli(args, { env, cwd: project });
  return { home, project, env, cli };
}

const json = (path: string) => parseJsonc(readFileSync(path, "utf8")) as Record<string, any>;
const backups = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.includes(".pi-sidecar-backup-")) : []);

describe("install <host> (user scope)", () => {
  test("each host gets its MCP entry and hook in its documented place; a second run changes nothing; uninstall takes it out", () => {
    const { home, cli } = setup();
    for (const host of ["claude", "codex", "cursor", "opencode", "gemini"]) {
      const r = cli("install", host);
      expect({ host, code: r.code, err: r.stderr }).toEqual({ host, code: 0, err: "" });
    }
    const claudeMcp = json(join(home, ".claude.json")).mcpServers["pi-sidecar"];
    expect(claudeMcp).toMatchObject({ type: "stdio" });
    expect(claudeMcp.args.at(-1)).toBe("mcp");
    const pre = json(join(home, ".claude", "settings.json")).hooks.PreToolUse;
    expect(pre).toHaveLength(1);
    expect(pre[0]).toMatchObject({ matcher: "Bash" });
    expect(pre[0].hooks[0].command).toEndWith(" hook claude");
    const codex = parseToml(readFileSync(join(home, ".codex", "config.toml"), "utf8")) as any;
    expect(codex.mcp_servers["pi-sidecar"]).toMatchObject({ tool_timeout_sec: 3600 });
    expect(json(join(home, ".codex", "hooks.json")).hooks.PreToolUse[0].matcher).toBe("^Bash$");
    expect(readFileSync(join(home, ".codex", "AGENTS.md"), "utf8")).toContain("context_run");
    expect(json(join(home, ".cursor", "mcp.json")).mcpServers["pi-sidecar"].args.at(-1)).toBe("mcp");
    const oc = json(join(home, ".config", "opencode", "opencode.json"));
    expect(oc.mcp["pi-sidecar"]).toMatchObject({ type: "local", enabled: true });
    expect(oc.mcp["pi-sidecar"].command.at(-1)).toBe("mcp");
    expect(existsSync(join(home, ".config", "opencode", "plugins", "pi-sidecar.js"))).toBe(true);
    const gem = json(join(home, ".gemini", "settings.json"));
    expect(gem.mcpServers["pi-sidecar"].args.at(-1)).toBe("mcp");
    expect(gem.hooks.BeforeTool[0]).toMatchObject({ matcher: "run_shell_command" });

    for (const host of ["claude", "codex", "cursor", "opencode", "gemini"])
      expect(cli("install", host).stdout).toContain("Nothing to change");
    expect(backups(home)).toEqual([]);

    for (const host of ["claude", "codex", "cursor", "opencode", "gemini"]) expect(cli("uninstall", host).code).toBe(0);
    expect(json(join(home, ".claude.json")).mcpServers["pi-sidecar"]).toBeUndefined();
    expect(json(join(home, ".claude", "settings.json")).hooks.PreToolUse).toBeUndefined();
    expect((parseToml(readFileSync(join(home, ".codex", "config.toml"), "utf8")) as any).mcp_servers).toBeUndefined();
    expect(existsSync(join(home, ".codex", "AGENTS.md"))).toBe(false);
    expect(existsSync(join(home, ".config", "opencode", "plugins", "pi-sidecar.js"))).toBe(false);
    expect(json(join(home, ".gemini", "settings.json")).hooks.BeforeTool).toBeUndefined();
    for (const host of ["claude", "codex", "cursor", "opencode", "gemini"])
      expect(cli("uninstall", host).stdout).toContain("Nothing to change");
  });

  test("the user's other entries and comments stay; the edited file is backed up; a moved binary replaces the old hook", () => {
    const { home, cli } = setup();
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(
      join(home, ".claude", "settings.json"),
      JSON.stringify(
        {
          model: "opus",
          hooks: {
            PreToolUse: [
              { matcher: "Bash", hooks: [{ type: "command", command: "/opt/audit.sh" }] },
              { matcher: "Bash", hooks: [{ type: "command", command: "/old/place/pi-sidecar hook claude" }] },
            ],
          },
        },
        null,
        4,
      ),
    );
    mkdirSync(join(home, ".codex"), { recursive: true });
    const toml =
      '# my settings\nmodel = "o4"\n\n[mcp_servers.docs]\ncommand = "docs-mcp" # pinned\n\n# fast profile\n[profiles.fast]\nmodel = "mini"\n';
    writeFileSync(join(home, ".codex", "config.toml"), toml);
    mkdirSync(join(home, ".config", "opencode"), { recursive: true });
    writeFileSync(
      join(home, ".config", "opencode", "opencode.jsonc"),
      '{\n  // my theme\n  "theme": "tokyonight",\n  "mcp": {\n    "gh": { "type": "remote", "url": "https://x" } // keep\n  }\n}\n',
    );
    for (const host of ["claude", "codex", "opencode"]) expect(cli("install", host).code).toBe(0);
    const settings = json(join(home, ".claude", "settings.json"));
    expect(settings.model).toBe("opus");
    const commands = settings.hooks.PreToolUse.flatMap((g: any) => g.hooks.map((h: any) => h.command));
    expect(commands.filter((c: string) => c.includes("hook claude"))).toHaveLength(1);
    expect(commands).toContain("/opt/audit.sh");
    expect(commands.some((c: string) => c.startsWith("/old/place"))).toBe(false);
    expect(readFileSync(join(home, ".claude", "settings.json"), "utf8")).toContain('\n    "model": "opus"');
    const codexText = readFileSync(join(home, ".codex", "config.toml"), "utf8");
    expect(codexText.startsWith(toml.trimEnd())).toBe(true);
    const ocText = readFileSync(join(home, ".config", "opencode", "opencode.jsonc"), "utf8");
    expect(ocText).toContain("// my theme");
    expect(ocText).toContain("// keep");
    expect(json(join(home, ".config", "opencode", "opencode.jsonc")).mcp.gh.url).toBe("https://x");
    expect(existsSync(join(home, ".config", "opencode", "opencode.json"))).toBe(false);
    expect(backups(join(home, ".claude"))).toHaveLength(1);
    expect(backups(join(home, ".codex"))).toHaveLength(1);
    const backup = backups(join(home, ".codex"))[0]!;
    expect(readFileSync(join(home, ".codex", backup), "utf8")).toBe(toml);

    for (const host of ["claude", "codex", "opencode"]) expect(cli("uninstall", host).code).toBe(0);
    expect(readFileSync(join(home, ".codex", "config.toml"), "utf8")).toBe(toml);
    const after = json(join(home, ".claude", "settings.json"));
    expect(after.hooks.PreToolUse).toEqual([{ matcher: "Bash", hooks: [{ type: "command", command: "/opt/audit.sh" }] }]);
    expect(readFileSync(join(home, ".config", "opencode", "opencode.jsonc"), "utf8")).toContain("// keep");
    expect(json(join(home, ".config", "opencode", "opencode.jsonc")).mcp["pi-sidecar"]).toBeUndefined();
  });

  test("--dry-run prints the diff and writes nothing; a broken file is refused untouched", () => {
    const { home, cli } = setup();
    const dry = cli("install", "gemini", "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("+++ ");
    expect(dry.stdout).toContain('"run_shell_command"');
    expect(dry.stdout).toContain("dry run: nothing was written");
    expect(existsSync(join(home, ".gemini"))).toBe(false);
    mkdirSync(join(home, ".cursor"), { recursive: true });
    writeFileSync(join(home, ".cursor", "mcp.json"), '{ "mcpServers": { "a": ');
    const broken = cli("install", "cursor");
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("is not valid JSON");
    expect(readFileSync(join(home, ".cursor", "mcp.json"), "utf8")).toBe('{ "mcpServers": { "a": ');
    expect(cli("install", "pi", "--dry-run").code).toBe(2);
    expect(cli("install", "vscode").stderr).toContain("claude, codex, cursor, opencode, gemini");
  });
});

describe("install <host> --project", () => {
  test("project files: .mcp.json, .claude/settings.json, .codex/, AGENTS.md, a Cursor rule, opencode.json with its plugin", () => {
    const { project, home, cli } = setup();
    writeFileSync(join(project, "AGENTS.md"), "# Team rules\n\nUse tabs.\n");
    for (const host of ["claude", "codex", "cursor", "opencode", "gemini"]) expect(cli("install", host, "--project").code).toBe(0);
    expect(json(join(project, ".mcp.json")).mcpServers["pi-sidecar"]).toBeDefined();
    expect(json(join(project, ".claude", "settings.json")).hooks.PreToolUse).toHaveLength(1);
    expect((parseToml(readFileSync(join(project, ".codex", "config.toml"), "utf8")) as any).mcp_servers["pi-sidecar"]).toBeDefined();
    const agents = readFileSync(join(project, "AGENTS.md"), "utf8");
    expect(agents).toStartWith("# Team rules\n\nUse tabs.\n\n<!-- pi-sidecar:start -->");
    expect(readFileSync(join(project, ".cursor", "rules", "pi-sidecar.mdc"), "utf8")).toContain("alwaysApply: true");
    expect(json(join(project, "opencode.json")).$schema).toBe("https://opencode.ai/config.json");
    expect(existsSync(join(project, ".opencode", "plugins", "pi-sidecar.js"))).toBe(true);
    expect(json(join(project, ".gemini", "settings.json")).mcpServers["pi-sidecar"]).toBeDefined();
    expect(existsSync(join(home, ".claude.json"))).toBe(false);
    for (const host of ["claude", "codex", "cursor", "opencode", "gemini"]) expect(cli("uninstall", host, "--project").code).toBe(0);
    expect(readFileSync(join(project, "AGENTS.md"), "utf8")).toBe("# Team rules\n\nUse tabs.\n");
    expect(existsSync(join(project, ".cursor", "rules", "pi-sidecar.mdc"))).toBe(false);
  });
});

describe("what install wrote works", () => {
  test("the installed Claude Code hook command rewrites a Bash call; the rewrite gives a receipt for a large output with its exit status", () => {
    const { home, project, env, cli } = setup();
    cli("install", "claude");
    writeFileSync(join(project, "big.log"), noisyLog(1500, 2));
    const command = json(join(home, ".claude", "settings.json")).hooks.PreToolUse[0].hooks[0].command as string;
    const input = JSON.stringify({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "cat big.log" },
      cwd: project,
      session_id: "s",
      permission_mode: "default",
    });
    const hook = Bun.spawnSync(["bash", "-c", command], {
      stdin: Buffer.from(input),
      env: { ...env, PATH: process.env.PATH ?? "", CLAUDE_PROJECT_DIR: project },
    });
    const out = JSON.parse(hook.stdout.toString()).hookSpecificOutput;
    expect(out.permissionDecision).toBe("allow");
    const run = Bun.spawnSync(["bash", "-c", `${out.updatedInput.command}`], {
      cwd: project,
      env: { ...env, PATH: process.env.PATH ?? "" },
    });
    expect(run.exitCode).toBe(0);
    expect(run.stdout.toString()).toMatch(/Source ctx_\w+/);
  });

  test("the OpenCode plugin replaces an oversized result by a receipt, leaves small results and file reads alone", async () => {
    const { home, project, env, cli } = setup();
    cli("install", "opencode");
    Object.assign(process.env, { PI_SIDECAR_DB: env.PI_SIDECAR_DB, PI_SIDECAR_SETTLE: "inline" });
    const mod = await import(join(home, ".config", "opencode", "plugins", "pi-sidecar.js"));
    const hooks = await mod.PiSidecar({ directory: project });
    const big = noisyLog(1200, 5, { line: 900, text: "ERR_SOCKET_TIMEOUT while fetching registry" });
    const bash = { title: "bash", output: big, metadata: { exit: 1 } };
    await hooks["tool.execute.after"]({ tool: "bash", sessionID: "ses_1", callID: "c1", args: { command: "npm ci" } }, bash);
    expect(bash.output).toMatch(/Source ctx_\w+/);
    expect(bash.output.length).toBeLessThan(4000);
    expect(bash.metadata.exit).toBe(1);
    const read = { title: "read", output: big, metadata: {} };
    await hooks["tool.execute.after"]({ tool: "read", sessionID: "ses_1", callID: "c2", args: {} }, read);
    expect(read.output).toBe(big);
    const small = { title: "bash", output: "ok\n".repeat(100), metadata: {} };
    await hooks["tool.execute.after"]({ tool: "bash", sessionID: "ses_1", callID: "c3", args: {} }, small);
    expect(small.output).toBe("ok\n".repeat(100));
    // OpenCode cut a long output and kept the whole in a file: the whole is stored.
    const full = join(project, "full.txt");
    writeFileSync(full, noisyLog(4000, 6, { line: 3999, text: "the very last line: EXIT_CODE_42" }));
    const cut = { title: "bash", output: "...cut...", metadata: { truncated: true, outputPath: full } };
    await hooks["tool.execute.after"]({ tool: "bash", sessionID: "ses_1", callID: "c4", args: {} }, cut);
    const id = /Source (ctx_\w+)/.exec(cut.output)![1]!;
    expect(runCli(["search", "EXIT_CODE_42", "--source", id], { env }).stdout).toContain("3999: the very last line");
  });
});
