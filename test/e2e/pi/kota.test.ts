/**
 * Code intelligence in the real pi (offline, scripted model) with the real extension as the binary
 * installs it (`bun build.ts` first): the kota_* tools only where pi starts in a TS/JS project,
 * consent, /kota index|pin|status|blobs, answers over the budget stored, the briefing on named
 * files; on Bun (engine in process) and on Node (engine over stdio RPC).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { countTokens } from "../../../src/tokens/count.ts";
import { cleanupTempDirs, tempDir } from "../../helpers.ts";
import { agentDir, type PiVersion, type Runtime, runPi, writeScript } from "./harness.ts";

afterAll(cleanupTempDirs);

function project(kota: Record<string, unknown> = {}): string {
  const cwd = tempDir("kota-pi-");
  const files: Record<string, string> = {
    "package.json": '{"name":"demo"}\n',
    "src/a.ts": 'import { b } from "./b";\nexport function a() {\n  return b() + 1;\n}\n',
    "src/b.ts": "export function b() {\n  return 1;\n}\n",
    "src/c.ts": 'import { a } from "./a";\nexport const c = a();\n',
    "src/a.test.ts": 'import { a } from "./a";\nif (a() !== 2) throw new Error("a");\n',
    ".pi/pi-sidecar.json": JSON.stringify({ kota }),
  };
  for (let i = 0; i < 40; i++) files[`src/use${i}.ts`] = `import { b } from "./b";\nexport const use${i} = b() + ${i};\n`;
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(cwd, p)), { recursive: true });
    writeFileSync(join(cwd, p), text);
  }
  return cwd;
}

/** A scripted agent that makes these calls after each prompt, then answers with their results as JSON. */
function steps(calls: { name: string; arguments: Record<string, unknown> }[]): string {
  return writeScript(`const calls = ${JSON.stringify(calls)};
export default (ctx) => {
  const mine = ctx.messages.slice(ctx.messages.map((m) => m.role).lastIndexOf("user")).filter((m) => m.role === "toolResult");
  if (mine.length < calls.length) return { toolCalls: [calls[mine.length]] };
  return JSON.stringify(mine.map((m) => ({ error: m.isError === true, text: m.content.map((c) => c.text ?? "").join("") })));
};`);
}

function play(cwd: string, dir: string, script: string, messages: string[], runtime: Runtime = "bun", pi?: PiVersion) {
  const run = runPi({ runtime, pi, script, agentDir: dir, cwd, args: messages.slice(0, -1), prompt: messages.at(-1)! });
  expect(run.stderr).not.toMatch(/\bError\b/);
  expect(run.code).toBe(0);
  return run;
}

/** The scripted agent's JSON answer to the last prompt, among the commands' printed output. */
function answers(stdout: string): { error: boolean; text: string }[][] {
  const lines = stdout.split("\n").filter((l) => l.startsWith("[{"));
  if (lines.length === 0) throw new Error(`no answer in: ${stdout}`);
  return lines.map((l) => JSON.parse(l));
}

const kotaTools = (run: ReturnType<typeof runPi>) => (run.calls[0]?.tools ?? []).filter((t) => t.name.startsWith("kota_"));

describe("kota in pi", () => {
  test("bun, headless: asks for consent; /kota index; deps and usages; /kota pin goes through pruning's pins; /kota status", () => {
    const cwd = project();
    const dir = agentDir();
    const script = steps([
      { name: "kota_deps", arguments: { file_path: "src/a.ts", direction: "both" } },
      { name: "kota_usages", arguments: { symbol: "a", file: "src/a.ts" } },
    ]);
    const run = play(cwd, dir, script, ["/kota pin", "go", "/kota index", "go again", "/kota pin", "/kota status"]);
    expect(kotaTools(run).map((t) => t.name)).toEqual([
      "kota_index",
      "kota_search",
      "kota_deps",
      "kota_usages",
      "kota_impact",
      "kota_task_context",
    ]);
    expect(run.stdout).toContain("No kota result to pin yet");
    // pi prints the last prompt's answer; the refusal is in what the model was sent.
    const results = run.calls.at(-1)!.messages.filter((m) => m.role === "toolResult") as {
      isError?: boolean;
      content: { text?: string }[];
    }[];
    expect(results[0]!.isError).toBe(true);
    expect(results[0]!.content[0]!.text).toContain("needs the user's consent");
    expect(results[0]!.content[0]!.text).toContain("run /kota index");
    const [[deps, usages]] = answers(run.stdout) as [{ error: boolean; text: string }[]];
    expect(run.stdout).toMatch(/indexed .*: 44 files, \d+ symbols/);
    expect(deps!.text).toContain("deps of src/a.ts\nimports (dependencies) (1):\n  direct (1):\n    src/b.ts");
    expect(deps!.text).toContain("imported by (dependents) (2):");
    expect(usages!.text).toContain("usages of a (defined at src/a.ts:2): 4 uses in 2 files");
    expect(usages!.text).toContain('src/c.ts\n    1:10 import  import { a } from "./a";');
    expect(run.stdout).toMatch(/Pinned the last kota_usages result \(\S+\)/);
    expect(run.stdout).toContain("kota builtin: ");
    expect(run.stdout).toContain("auto context: off; answers within 5120 bytes; pinned: 1");
  });

  test("a session outside a TS/JS project carries no kota tool definitions; /kota says why", () => {
    const cwd = tempDir("kota-pi-docs-");
    writeFileSync(join(cwd, "notes.md"), "# notes\n");
    mkdirSync(join(cwd, ".git"));
    const run = play(cwd, agentDir(), writeScript("export default () => 'ok';"), ["/kota status", "hi"]);
    expect(run.calls.length).toBeGreaterThan(0);
    expect(kotaTools(run)).toEqual([]);
    expect(run.stdout).toContain("The kota_* tools are off in this session");
  });

  test("node (engine over RPC), confirmIndex false: the first call indexes; an answer over the budget is stored with a receipt", () => {
    const cwd = project({ confirmIndex: false, budgetBytes: 600 });
    const files = Array.from({ length: 40 }, (_, i) => `src/use${i}.ts`);
    const run = play(cwd, agentDir(), steps([{ name: "kota_task_context", arguments: { files } }]), ["go", "/kota blobs"], "node", "1.3.0");
    const [[ctx]] = answers(run.stdout) as [{ error: boolean; text: string }[]];
    expect(ctx!.error).toBe(false);
    expect(ctx!.text).toContain("src/use0.ts:");
    expect(ctx!.text).toContain("budget even when narrowed; it was stored:");
    expect(ctx!.text).toMatch(/ctx_[0-9a-z]+/);
    expect(run.stdout).toMatch(/kota_task_context \(\d+ bytes\): /);
    // What the model was sent for the kota answer stayed small.
    const sent = run.calls.at(-1)!.messages.filter((m) => m.role === "toolResult");
    expect(JSON.stringify(sent[0]!.content).length).toBeLessThan(2600);
    const defs = kotaTools(run);
    console.log(`kota tool definitions as pi sends them: ${defs.length} tools, ${countTokens(JSON.stringify(defs))} tokens (o200k)`);
  });

  test("autoContext onPaths: a prompt naming a file gets a briefing before the model's first call; five paths do not", () => {
    const cwd = project({ confirmIndex: false, autoContext: "onPaths" });
    const quiet = writeScript("export default () => 'ok';");
    const run = play(cwd, agentDir(), quiet, [
      "/kota index",
      "please look at src/a.ts and fix it",
      "compare src/a.ts src/b.ts src/c.ts src/use1.ts src/use2.ts",
    ]);
    const first = JSON.stringify(run.calls[0]!.messages);
    expect(first).toContain("[pi-sidecar: code context for the files named]");
    expect(first).toContain("src/a.ts:");
    expect(first).toContain("imports (1): src/b.ts");
    expect(first).toContain("tests (1): src/a.test.ts");
    const second = run.calls.at(-1)!.messages;
    const briefings = JSON.stringify(second).split("code context for the files named").length - 1;
    expect(briefings).toBe(1);
  });
});
