/**
 * Episodic memory in the real pi (offline, scripted model) with the extension as the binary
 * installs it (`bun build.ts` first): a correction in session 1 ("no, use pnpm") changes what the
 * scripted agent does in session 3, whether it asks memory_recall (pi on Node, engine over stdio)
 * or memory.inject puts the recall before the prompt (pi on Bun, engine in process). A session
 * that only talks never starts the engine: capture goes to the spool.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, runCli, tempDir } from "../../helpers.ts";
import { agentDir, BIN, type PiRun, type Runtime, runPi, stepsScript, writeScript } from "./harness.ts";

afterAll(cleanupTempDirs);

/**
 * The scripted agent. "install ..." -> it asks memory_recall (unless memory was injected), then
 * installs with pnpm if what memory shows mentions pnpm, else with npm; a tool result -> it
 * reports it; anything else -> "ok".
 */
const AGENT = writeScript(`
const text = (c) => (typeof c === "string" ? c : (c ?? []).map((x) => x.text ?? "").join(""));
const install = (memory) => ({ toolCalls: [{ name: "bash", arguments: { command: "echo RUN " + (/\\bpnpm\\b/.test(memory) ? "pnpm" : "npm") + " install" } }] });
export default (ctx) => {
  const last = ctx.messages.at(-1);
  if (last?.role === "toolResult") return last.toolName === "memory_recall" ? install(text(last.content)) : "DONE: " + text(last.content).trim();
  const asked = ctx.messages.filter((m) => m.role === "user").map((m) => text(m.content)).filter((t) => !t.startsWith("[pi-sidecar memory")).at(-1) ?? "";
  if (!/^install/i.test(asked)) return "ok";
  const injected = ctx.messages.map((m) => text(m.content)).find((t) => t.includes("[pi-sidecar memory"));
  if (injected) return install(injected);
  return { toolCalls: [{ name: "memory_recall", arguments: { prompt: asked } }] };
};`);

function play(runtime: Runtime, dir: string, cwd: string, messages: string[], env: Record<string, string> = {}): PiRun {
  const run = runPi({ runtime, script: AGENT, agentDir: dir, cwd, env, args: messages.slice(0, -1), prompt: messages.at(-1)! });
  expect(run.stderr).not.toMatch(/\bError\b/);
  expect(run.code).toBe(0);
  return run;
}

/** The bash commands the agent ran in the run's last model call's view. */
const commands = (run: PiRun) =>
  (run.calls.at(-1)?.messages ?? [])
    .filter((m) => m.role === "assistant")
    .flatMap((m) =>
      (m.content as { type: string; name?: string; arguments?: { command?: string } }[]).filter(
        (b) => b.type === "toolCall" && b.name === "bash",
      ),
    )
    .map((b) => b.arguments?.command);

describe("memory in pi", () => {
  test("a correction in session 1 changes the agent's action in session 3", () => {
    const dir = agentDir();
    const cwd = tempDir("memory-pi-project-");
    // Session 1: memory has nothing yet, the agent installs with npm; the user corrects it.
    const s1 = play("bun", dir, cwd, ["install the dependencies", "no, use pnpm"]);
    expect(commands(s1)).toEqual(["echo RUN npm install"]);
    // A project with no memory yet is sent no memory tools (no tokens for nothing to recall).
    expect(s1.calls[0]!.tools.filter((t) => t.name.startsWith("memory_"))).toEqual([]);
    // Session 2: something else, pure talk: captured, and no engine was started for it.
    const s2 = play("bun", dir, cwd, ["what does the auth module do?"]);
    expect(s2.stderr).not.toContain("engine:");
    // Session 3, pi on Node (engine over stdio): the agent asks memory and installs with pnpm.
    const s3 = play("node", dir, cwd, ["install the dependencies"]);
    expect(commands(s3)).toEqual(["echo RUN pnpm install"]);
    expect(s3.stdout).toContain("DONE: RUN pnpm install");
    const recalled = s3.calls.at(-1)!.messages.find((m) => m.role === "toolResult" && m.toolName === "memory_recall");
    expect(JSON.stringify(recalled?.content)).toContain("no, use pnpm");
    // The tool definitions the model is sent are the short ones.
    const tools = s3.calls[0]!.tools.filter((t) => t.name.startsWith("memory_")).map((t) => t.name);
    expect(tools).toEqual(["memory_search", "memory_recall"]);

    // Session 4, pi on Bun with memory.inject=prompt: the recall comes before the prompt, says how to stop it, and the agent needs no tool.
    const s4 = play("bun", dir, cwd, ["install the dependencies"], { PI_SIDECAR_MEMORY_INJECT: "prompt" });
    expect(commands(s4)).toEqual(["echo RUN pnpm install"]);
    const injected = s4.calls[0]!.messages.map((m) => JSON.stringify(m.content)).find((t) => t.includes("[pi-sidecar memory"));
    expect(injected).toContain("memory.inject=prompt");
    expect(injected).toContain("/memory off");

    // The same memory from the shell: the correction is one, and the first answer is remembered shortened.
    const env = { HOME: dir, PI_CODING_AGENT_DIR: dir };
    const found = JSON.parse(runCli(["memory", "search", "pnpm", "--project", cwd, "--json"], { bin: BIN, env }).stdout);
    expect(found.hits[0]).toMatchObject({ kind: "correction", text: "no, use pnpm" });
    const stats = JSON.parse(runCli(["memory", "stats", "--project", cwd, "--json"], { bin: BIN, env }).stdout);
    expect(stats.projects[0].sessions).toBe(4);
    // /memory off: later sessions capture nothing, and injection stops.
    play("bun", dir, cwd, ["/memory off"]);
    const s5 = play("bun", dir, cwd, ["install with yarn please"], { PI_SIDECAR_MEMORY_INJECT: "prompt" });
    expect(s5.calls[0]!.messages.some((m) => JSON.stringify(m.content).includes("[pi-sidecar memory"))).toBe(false);
    const after = JSON.parse(runCli(["memory", "search", "yarn", "--project", cwd, "--json"], { bin: BIN, env }).stdout);
    expect(after.hits).toEqual([]);
    expect(join(dir, "sidecar.db")).toBeTruthy();
  }, 240_000);

  test("capture: failed commands, tool errors, edited files and a shortened answer; nothing about sensitive files", () => {
    const dir = agentDir();
    const cwd = tempDir("memory-pi-capture-");
    writeFileSync(join(cwd, ".env"), "API_KEY=hunter2-very-secret\n");
    const long = `The build is fixed. ${"I changed the retry loop so that it backs off properly between attempts. ".repeat(30)}`;
    const script = stepsScript([
      { name: "bash", arguments: { command: "echo 'building widgets'; echo 'error TS2304: Cannot find name Widget' >&2; exit 3" } },
      { name: "write", arguments: { path: "src/widget.ts", content: "export const widget = 1;\n" } },
      { name: "edit", arguments: { path: "src/missing.ts", edits: [{ oldText: "a", newText: "b" }] } },
      { name: "write", arguments: { path: ".env", content: "API_KEY=another-secret-value\n" } },
      { name: "bash", arguments: { command: "cat .env && exit 1" } },
    ]);
    const answering = writeScript(`import base from ${JSON.stringify(script)};
export default (ctx) => { const r = base(ctx); return typeof r === "string" ? ${JSON.stringify(long)} : r; };`);
    const run = runPi({ runtime: "bun", pi: "1.3.0", script: answering, agentDir: dir, cwd, prompt: "fix the widget build" });
    expect(run.code).toBe(0);
    const env = { HOME: dir, PI_CODING_AGENT_DIR: dir };
    const search = (q: string) =>
      JSON.parse(runCli(["memory", "search", q, "--project", cwd, "--limit", "20", "--json"], { bin: BIN, env }).stdout).hits as {
        kind: string;
        text: string;
      }[];
    const failed = search("widgets TS2304");
    expect(failed[0]).toMatchObject({ kind: "command" });
    expect(failed[0]!.text).toContain("command failed (exit 3)");
    expect(failed[0]!.text).toContain("Cannot find name Widget");
    expect(search("missing.ts").some((h) => h.kind === "error" && h.text.startsWith("edit failed on src/missing.ts"))).toBe(true);
    const files = search("edited widget");
    expect(files.find((h) => h.kind === "files")?.text).toBe("edited: src/widget.ts");
    const answer = search("retry loop backs off").find((h) => h.kind === "answer")!;
    expect(answer.text.length).toBeLessThan(700);
    expect(answer.text).toEndWith("[…]");
    // Nothing about the sensitive file: not its name, not its contents.
    for (const q of ["env", "hunter2", "another secret value", "API_KEY"])
      expect({ q, hits: search(q).filter((h) => h.kind !== "prompt") }).toEqual({ q, hits: [] });
  }, 120_000);
});
