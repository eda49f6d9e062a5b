/**
 * What `pi-sidecar install <host>` writes, checked by the hosts themselves: each host's own CLI
 * (from npm) reads the written config offline and lists pi-sidecar (Claude Code, Codex and
 * OpenCode also start it and report it connected), and after `uninstall` no longer does. Then a
 * real Claude Code, driven by a scripted model on 127.0.0.1 (no real model is called), runs a
 * large and a small Bash command through the installed hook and calls context_run over MCP.
 *
 *   bun bench/hosts/validate.ts [--install]
 *
 * Host CLIs come from CLAUDE_BIN / CODEX_BIN / OPENCODE_BIN / GEMINI_JS, else from PATH, else (with
 * --install) from npm into .bench/hosts (several hundred MB; the npm registry is the only network
 * used). A host that cannot be found is reported as skipped.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveFakeAnthropic, toolResults } from "./fake-anthropic.ts";

const ROOT = join(import.meta.dir, "../..");
const BIN = process.env.PI_SIDECAR_BIN ?? join(ROOT, "dist/pi-sidecar");
const PREFIX = join(ROOT, ".bench", "hosts");
const PINNED = {
  claude: "@anthropic-ai/claude-code@2.1.332",
  codex: "@openai/codex@0.169.0",
  opencode: "opencode-ai@1.18.33",
  gemini: "@google/gemini-cli@0.61.0",
} as const;
type Host = keyof typeof PINNED;

function resolveHost(host: Host, install: boolean): string[] | null {
  const fromEnv = { claude: "CLAUDE_BIN", codex: "CODEX_BIN", opencode: "OPENCODE_BIN", gemini: "GEMINI_JS" }[host];
  const given = process.env[fromEnv];
  if (given) return host === "gemini" ? ["node", given] : [given];
  const local = join(PREFIX, "node_modules", ".bin", host);
  if (existsSync(local)) return [local];
  const onPath = Bun.which(host);
  if (onPath) return [onPath];
  if (!install) return null;
  const r = Bun.spawnSync(["npm", "install", "--prefix", PREFIX, "--no-save", "--no-audit", "--no-fund", PINNED[host]], {
    stdout: "pipe",
    stderr: "pipe",
  });
  if (r.exitCode !== 0) {
    console.error(`npm install ${PINNED[host]} failed: ${r.stderr.toString().slice(-500)}`);
    return null;
  }
  return existsSync(local) ? [local] : null;
}

function scratch() {
  const dir = mkdtempSync(join(tmpdir(), "validate-hosts-"));
  const home = join(dir, "home");
  const project = join(dir, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    PI_SIDECAR_DB: join(home, "sidecar.db"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
  return { dir, home, project, env };
}

async function run(cmd: string[], cwd: string, env: Record<string, string>, timeoutMs = 120_000) {
  const p = Bun.spawn(cmd, { cwd, env, stdout: "pipe", stderr: "pipe", timeout: timeoutMs });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  return { code: await p.exited, out: `${out}${err}` };
}

const LIST: Record<Host, { args: string[]; ok: RegExp }> = {
  claude: { args: ["mcp", "list"], ok: /pi-sidecar:.*Connected/ },
  codex: { args: ["mcp", "list"], ok: /pi-sidecar\s+\S+.*enabled/ },
  opencode: { args: ["mcp", "list"], ok: /pi-sidecar.*connected/ },
  gemini: { args: ["mcp", "list"], ok: /pi-sidecar:.*Connected/ },
};

async function checkHost(host: Host, cli: string[]): Promise<string> {
  const s = scratch();
  try {
    // Gemini CLI starts a folder's servers only once the folder is trusted.
    mkdirSync(join(s.home, ".gemini"), { recursive: true });
    writeFileSync(join(s.home, ".gemini", "trustedFolders.json"), JSON.stringify({ [s.project]: "TRUST_FOLDER" }));
    const installed = await run([BIN, "install", host], s.project, s.env);
    if (installed.code !== 0) return `FAIL install: ${installed.out}`;
    const listed = await run([...cli, ...LIST[host].args], s.project, s.env);
    if (!LIST[host].ok.test(listed.out)) return `FAIL ${host} ${LIST[host].args.join(" ")}: ${listed.out.slice(-600)}`;
    await run([BIN, "uninstall", host], s.project, s.env);
    const after = await run([...cli, ...LIST[host].args], s.project, s.env);
    if (/pi-sidecar/.test(after.out)) return `FAIL still listed after uninstall: ${after.out.slice(-300)}`;
    return `ok: ${host} ${LIST[host].args.join(" ")} lists pi-sidecar after install and not after uninstall`;
  } finally {
    rmSync(s.dir, { recursive: true, force: true });
  }
}

/** A real Claude Code run: Bash through the installed hook (large, small, exit status) and context_run over MCP. */
async function claudeEndToEnd(claude: string[]): Promise<string[]> {
  const s = scratch();
  try {
    await run([BIN, "install", "claude"], s.project, s.env);
    writeFileSync(
      join(s.project, "build.log"),
      `${Array.from({ length: 3000 }, (_, i) => `step ${i}: compiling module_${i}.ts`).join("\n")}\n`,
    );
    mkdirSync(join(s.project, ".claude"), { recursive: true });
    writeFileSync(
      join(s.project, ".claude", "settings.local.json"),
      JSON.stringify({ permissions: { allow: ["mcp__pi-sidecar__context_run", "Bash(printf:*)"] } }),
    );
    // A person's ~/.claude.json also says onboarding is done.
    const userJson = join(s.home, ".claude.json");
    writeFileSync(userJson, JSON.stringify({ ...JSON.parse(readFileSync(userJson, "utf8")), hasCompletedOnboarding: true }));
    const fake = serveFakeAnthropic([
      { tool: "Bash", input: { command: "cat build.log", description: "show the log" } },
      { tool: "Bash", input: { command: "printf 'two\\nlines' | cat", description: "small" } },
      { tool: "mcp__pi-sidecar__context_run", input: { command: "cat build.log; exit 3" } },
      { text: "done" },
    ]);
    try {
      const r = await run([...claude, "-p", "look at the build", "--output-format", "json"], s.project, {
        ...s.env,
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: "sk-ant-fake-for-a-scripted-local-model",
      });
      const results = fake.requests.flatMap((q) => toolResults(q.body));
      const last = new Map(results.map((x) => [x.id, x]));
      const [big, small, mcp] = ["toolu_fake_1", "toolu_fake_2", "toolu_fake_3"].map((id) => last.get(id));
      return [
        big && /\[pi-sidecar\] bash output .* was stored/.test(big.text) && /context_search/.test(big.text)
          ? "ok: Claude Code ran `cat build.log` through the hook: the model got a receipt"
          : `FAIL large Bash output: ${big?.text.slice(0, 300) ?? `no result (exit ${r.code}: ${r.out.slice(-300)})`}`,
        small?.text === "two\nlines"
          ? "ok: a small Bash output reached the model byte for byte"
          : `FAIL small output: ${JSON.stringify(small?.text)}`,
        // Claude Code defers MCP schemas: a call made without loading it first gets a note appended.
        mcp && /Source ctx_\w+/.test(mcp.text) && mcp.text.includes("[exit code 3]")
          ? "ok: context_run over MCP in Claude Code: a receipt and [exit code 3]"
          : `FAIL context_run: ${JSON.stringify(mcp?.text.slice(0, 600))}`,
      ];
    } finally {
      fake.stop();
    }
  } finally {
    rmSync(s.dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const install = process.argv.includes("--install");
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`bun build.ts\` first`);
  for (const host of Object.keys(PINNED) as Host[]) {
    const cli = resolveHost(host, install);
    console.log(`${host}: ${cli ? await checkHost(host, cli) : "skipped (not found; pass --install or set its *_BIN)"}`);
    if (host === "claude" && cli) for (const line of await claudeEndToEnd(cli)) console.log(`claude: ${line}`);
  }
}
