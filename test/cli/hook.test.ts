/**
 * The hooks as a host runs them: hook JSON in, the rewritten command out, and that command run
 * in a real shell (bash, dash, zsh when installed): the exact bytes of a small output, a receipt
 * for a large one, the command's own exit status either way, and the commands that must be left
 * alone left alone.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, noisyLog, runCli, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

const home = tempDir();
const project = tempDir();
const db = join(home, "sidecar.db");
const env = { HOME: home, PI_SIDECAR_DB: db, PI_SIDECAR_SETTLE: "inline" };
writeFileSync(join(project, "build.log"), noisyLog(2000, 9, { line: 1777, text: "FATAL linker: undefined symbol frobnicate_v2" }));
mkdirSync(join(project, "sub"), { recursive: true });

type Out = { hookSpecificOutput: Record<string, unknown> & { updatedInput?: Record<string, unknown> } };

function claude(command: string, extra: Record<string, unknown> = {}, toolInput: Record<string, unknown> = {}): Out | null {
  const input = {
    session_id: "sess-1",
    transcript_path: "/tmp/t.jsonl",
    cwd: project,
    permission_mode: "bypassPermissions",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "a test", ...toolInput },
    tool_use_id: "toolu_1",
    ...extra,
  };
  const r = runCli(["hook", "claude"], { stdin: JSON.stringify(input), env: { ...env, CLAUDE_PROJECT_DIR: project } });
  expect(r.code).toBe(0);
  return r.stdout.trim() === "" ? null : (JSON.parse(r.stdout) as Out);
}

function rewritten(command: string): string {
  const out = claude(command);
  expect(out).not.toBeNull();
  return out!.hookSpecificOutput.updatedInput!.command as string;
}

const SHELLS = ["bash", "dash", "zsh"].filter((s) => Bun.which(s) !== null);

function inShell(shell: string, command: string) {
  const p = Bun.spawnSync([shell, "-c", command], {
    cwd: project,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode, stdout: new Uint8Array(p.stdout), text: p.stdout.toString(), stderr: p.stderr.toString() };
}

describe("pi-sidecar hook claude", () => {
  test("the answer keeps every other field; it rewrites only what Claude Code would run without asking", () => {
    const out = claude("npm test", {}, { timeout: 60000 })!;
    expect(out.hookSpecificOutput.hookEventName).toBe("PreToolUse");
    expect(out.hookSpecificOutput.updatedInput).toMatchObject({ description: "a test", timeout: 60000 });
    // bypassPermissions: everything runs, and the rewrite needs no decision.
    expect(out.hookSpecificOutput.permissionDecision).toBeUndefined();
    const inDefault = (command: string) => claude(command, { permission_mode: "default" })?.hookSpecificOutput.permissionDecision ?? null;
    // Read-only commands inside the project run without asking: rewritten, with allow.
    for (const c of ["cat build.log", "grep -rn TODO . | head -50", "git log --stat -5", "cd sub && ls -la", "find . -name '*.log'"])
      expect({ c, d: inDefault(c) }).toEqual({ c, d: "allow" });
    // Commands Claude Code would ask about are left to it.
    for (const c of [
      "npm test",
      "cat /etc/passwd",
      "cat ../x",
      "find . -delete",
      "git push",
      "cat build.log > copy.log",
      "cat build.log; exit 3",
    ])
      expect({ c, d: inDefault(c) }).toEqual({ c, d: null });
    // An allow rule in the project's settings makes them Claude's "yes", and so ours; a deny rule wins.
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(
      join(project, ".claude", "settings.local.json"),
      JSON.stringify({ permissions: { allow: ["Bash(npm test:*)", "Bash(make *)"], deny: ["Bash(cat build.log)"] } }),
    );
    expect(inDefault("npm test -- --grep x")).toBe("allow");
    expect(inDefault("make -j4 all")).toBe("allow");
    expect(inDefault("npm test && npm publish")).toBeNull();
    expect(inDefault("cat build.log")).toBeNull();
    expect(inDefault("cat other.log")).toBe("allow");
    writeFileSync(join(project, ".claude", "settings.local.json"), "{}");
  });

  for (const shell of SHELLS) {
    test(`${shell}: small output byte for byte and the exit status, large output a receipt and the exit status`, () => {
      const cases: [string, string, number][] = [
        ["printf 'no newline at end' | cat", "no newline at end", 0],
        ["printf 'tab\\there\\n\\n\\nblank lines\\n' | cat; exit 7", "tab\there\n\n\nblank lines\n", 7],
        ["echo out; echo err >&2; cat /dev/null; echo out2", "out\nerr\nout2\n", 0],
        ["ls does-not-exist-here", "", 2],
        ["grep -c x /dev/null", "0\n", 1],
        ["cat <<'EOF'\nliteral $HOME `x`\nEOF", "literal $HOME `x`\n", 0],
        ["printf 'é ü 中\\n' | cat # a comment", "é ü 中\n", 0],
      ];
      for (const [command, expected, code] of cases) {
        const r = inShell(shell, rewritten(command));
        if (command.startsWith("ls ")) expect(r.text).toContain("does-not-exist-here");
        else expect(r.text).toBe(expected);
        expect(r.code).toBe(code);
      }
      const big = inShell(shell, rewritten("cat build.log; exit 3"));
      expect(big.code).toBe(3);
      expect(big.text).toMatch(/Source ctx_\w+/);
      expect(big.text.length).toBeLessThan(4000);
      const id = /Source (ctx_\w+)/.exec(big.text)![1]!;
      const found = runCli(["search", "undefined symbol frobnicate_v2", "--source", id], { env });
      expect(found.stdout).toContain("1777:");
      const listed = runCli(["--json", "list"], { env });
      expect(JSON.parse(listed.stdout).sources[0]).toMatchObject({ tool: "bash", session: "sess-1", project });
    });
  }

  test("invalid UTF-8 passes through byte for byte", () => {
    const r = inShell("bash", rewritten("printf 'a\\377\\376b\\n' | cat"));
    expect([...r.stdout]).toEqual([0x61, 0xff, 0xfe, 0x62, 0x0a]);
  });

  test("leading cd steps stay outside, so the working folder still moves", () => {
    const command = rewritten("cd sub && cat ../build.log | wc -l");
    expect(command).toStartWith("cd sub && ( (\n");
    const r = inShell("bash", `${command}; pwd`);
    expect(r.text).toBe(`2000\n${join(project, "sub")}\n`);
  });

  test("when the store fails, the output is still printed as it came, with its status", () => {
    const command = rewritten("cat build.log; exit 4");
    const p = Bun.spawnSync(["bash", "-c", command], {
      cwd: project,
      env: { PATH: process.env.PATH ?? "", HOME: home, PI_SIDECAR_DB: "/proc/no-such-dir/sidecar.db" },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(p.exitCode).toBe(4);
    expect(p.stdout.toString()).toBe(noisyLog(2000, 9, { line: 1777, text: "FATAL linker: undefined symbol frobnicate_v2" }));
    expect(p.stderr.toString()).toContain("output shown as is, not stored");
  });

  test("commands it must not touch are left alone", () => {
    const alone = [
      "sleep 5 &",
      "npm run dev & sleep 2; curl localhost:3000",
      "vim notes.txt",
      "less build.log",
      "export FOO=1",
      "source .venv/bin/activate && pytest",
      "git rebase -i HEAD~3",
      "git commit",
      "python",
      "docker run -it ubuntu bash",
      "cat <<EOF\nno terminator",
      'echo "unclosed',
      "make | pi-sidecar capture --tool make",
      "make 2>&1 | /usr/local/bin/pi-sidecar capture --passthrough",
      "mkdir -p out && touch out/x",
      "case $x in a) echo a;; esac",
      "make \\",
    ];
    for (const command of alone) expect({ command, out: claude(command) }).toEqual({ command, out: null });
    expect(claude("npm test", {}, { run_in_background: true })).toBeNull();
    expect(claude("npm test", { tool_name: "Read" })).toBeNull();
    expect(claude("npm test", { hook_event_name: "PostToolUse" })).toBeNull();
    // Still wrapped: a commit with a message, a pipeline, a heredoc that ends.
    for (const command of [
      'git commit -m "fix: x"',
      "npm test 2>&1 | tail -50",
      "cat pi-sidecar-notes.txt",
      "cat <<'EOF' | wc -l\na\nb\nEOF",
    ])
      expect(claude(command)).not.toBeNull();
  });

  test("--explain says why; bad input is no answer and never blocks", () => {
    const r = runCli(["hook", "claude", "--explain"], {
      stdin: JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "vim x" } }),
      env,
    });
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("left alone: vim needs a terminal");
    for (const stdin of ["not json", "[]", "{}", JSON.stringify({ tool_name: "Bash", tool_input: { command: 42 } })]) {
      const bad = runCli(["hook", "claude"], { stdin, env });
      expect({ stdin, code: bad.code, out: bad.stdout }).toEqual({ stdin, code: 0, out: "" });
    }
    expect(runCli(["hook", "cursor"], { stdin: "{}", env }).code).toBe(2);
  });
});

describe("pi-sidecar hook codex and gemini", () => {
  test("codex: the rewrite with allow (the only form Codex applies), command only", () => {
    const input = {
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "cat build.log" },
      cwd: project,
      session_id: "c1",
    };
    const r = runCli(["hook", "codex"], { stdin: JSON.stringify(input), env });
    const out = JSON.parse(r.stdout).hookSpecificOutput;
    expect(out).toMatchObject({ hookEventName: "PreToolUse", permissionDecision: "allow" });
    expect(Object.keys(out.updatedInput)).toEqual(["command"]);
    const run = inShell("bash", out.updatedInput.command);
    expect(run.text).toMatch(/Source ctx_\w+/);
  });

  test("gemini: BeforeTool on run_shell_command, tool_input merged", () => {
    const input = {
      hook_event_name: "BeforeTool",
      tool_name: "run_shell_command",
      tool_input: { command: "printf 'x'; exit 9", description: "d" },
      cwd: project,
      session_id: "g1",
    };
    const r = runCli(["hook", "gemini"], { stdin: JSON.stringify(input), env: { ...env, GEMINI_PROJECT_DIR: project } });
    const out = JSON.parse(r.stdout).hookSpecificOutput;
    expect(out.hookEventName).toBe("BeforeTool");
    const run = inShell("bash", out.tool_input.command);
    expect(run).toMatchObject({ text: "x", code: 9 });
    expect(runCli(["hook", "gemini"], { stdin: JSON.stringify({ ...input, tool_name: "read_file" }), env }).stdout).toBe("");
    expect(existsSync(db)).toBe(true);
  });
});
