/**
 * One run of the benchmark session: one real pi process (RPC mode, Node 22, so the engine is the
 * compiled binary over stdio) with the sidecar installed by `install pi`, in its own copy of the
 * project, driven turn by turn; every model call is logged by the fake provider (FAKE_LOG).
 * Before the questions the project changes on disk (project.ts). What bash printed when it ran
 * is also recorded by running the same command right after its turn (a receipt shows only part
 * of it), and once more after the session (to show it prints something else now).
 */
import { Database } from "bun:sqlite";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { agentDir, writeScript } from "../../test/e2e/pi/harness.ts";
import { startRpcPi } from "../../test/e2e/pi/rpc-driver.ts";
import { tempDir } from "../../test/helpers.ts";
import { log } from "../timing.ts";
import { modelScript } from "./model-script.ts";
import { CHANGE_BEFORE_TURN, type Turn } from "./plan.ts";
import { changeProject, createProject } from "./project.ts";

export type LoggedCall = {
  callIndex: number;
  systemPrompt: string;
  tools: unknown[];
  messages: { role: string; toolCallId?: string; toolName?: string; content: unknown; isError?: boolean }[];
};

export type Batches = { count: number; results: number; tokensBefore: number; tokensAfter: number };

export type SessionRun = {
  pruning: boolean;
  /** From the first prompt to the last answer (pi's start not included). */
  wallMs: number;
  /** Each user turn, prompt to settled (the first includes pi's start and the engine's). */
  turnMs: number[];
  answers: string[];
  calls: LoggedCall[];
  /** bash commands of the plan: what they printed right after their turn, and what they print after the session. */
  printed: Map<string, { before: string; now: string }>;
  /** The files as they are after the session (for "changed on disk"). */
  readNow(path: string): string;
  batches: Batches | null;
  /** How pi reached the engine: a `serve --stdio` child process was seen (Node), or none. */
  engine: "stdio" | "none seen";
};

/** Whether a descendant of `pid` runs `pi-sidecar serve --stdio` (Linux /proc). */
function hasStdioEngine(pid: number): boolean {
  const parent = new Map<number, number>();
  const cmd = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      cmd.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " "));
    } catch {
      // the process ended while we looked
    }
  }
  const descends = (p: number): boolean => {
    for (let q = parent.get(p); q !== undefined && q > 1; q = parent.get(q)) if (q === pid) return true;
    return false;
  };
  return [...cmd].some(([p, c]) => c.includes("serve --stdio") && descends(p));
}

function runBash(cwd: string, command: string): string {
  const r = Bun.spawnSync(["bash", "-c", command], { cwd, stdout: "pipe", stderr: "pipe" });
  return (r.stdout.toString() + r.stderr.toString()).replace(/\n$/, "");
}

function readBatches(dbPath: string): Batches | null {
  if (!existsSync(dbPath)) return null;
  const db = new Database(dbPath, { readonly: true });
  try {
    const r = db
      .query<{ n: number; results: number | null; before: number | null; after: number | null }, []>(
        "SELECT count(*) AS n, sum(results) AS results, sum(tokens_before) AS before, sum(tokens_after) AS after FROM prune_batches",
      )
      .get()!;
    return { count: r.n, results: r.results ?? 0, tokensBefore: r.before ?? 0, tokensAfter: r.after ?? 0 };
  } finally {
    db.close();
  }
}

export async function runSession(
  plan: readonly Turn[],
  options: { pruning: boolean; seed: number; contextWindow: number },
): Promise<SessionRun> {
  const project = createProject(options.seed);
  try {
    return await drive(plan, options, project.root);
  } finally {
    project.remove();
  }
}

async function drive(
  plan: readonly Turn[],
  options: { pruning: boolean; seed: number; contextWindow: number },
  root: string,
): Promise<SessionRun> {
  const dir = agentDir();
  const logPath = join(tempDir("bench-prune-log-"), "calls.jsonl");
  const printed = new Map<string, { before: string; now: string }>();
  const env: Record<string, string> = { FAKE_LOG: logPath, FAKE_CONTEXT_WINDOW: String(options.contextWindow) };
  if (!options.pruning) env.PI_SIDECAR_PRUNE = "0";
  const pi = startRpcPi("node", dir, root, writeScript(modelScript(plan)), env);
  const answers: string[] = [];
  const turnMs: number[] = [];
  let engine: SessionRun["engine"] = "none seen";
  const started = performance.now();
  try {
    for (let i = 0; i < plan.length; i++) {
      const turn = plan[i]!;
      if (i + 1 === CHANGE_BEFORE_TURN) changeProject(root, options.seed);
      const t0 = performance.now();
      answers.push(await pi.prompt(turn.prompt));
      turnMs.push(performance.now() - t0);
      if (engine === "none seen" && hasStdioEngine(pi.pid)) engine = "stdio";
      for (const s of turn.kind === "work" ? turn.steps.flat() : []) {
        const command = s.name === "bash" ? String(s.arguments.command) : null;
        if (command && !printed.has(command)) printed.set(command, { before: runBash(root, command), now: "" });
      }
      if ((i + 1) % 10 === 0)
        log(`prune bench (${options.pruning ? "on" : "off"}): ${i + 1} turns, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  } finally {
    await pi.close();
  }
  const wallMs = performance.now() - started;
  for (const [command, p] of printed) p.now = runBash(root, command);
  const calls = readFileSync(logPath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LoggedCall);
  const files = new Map<string, string>();
  for (const t of plan) {
    for (const s of t.kind === "work" ? t.steps.flat() : [t.target]) {
      const path = s.name === "read" ? String(s.arguments.path) : null;
      if (path && !files.has(path)) files.set(path, readFileSync(join(root, path), "utf8"));
    }
  }
  return {
    pruning: options.pruning,
    wallMs,
    turnMs,
    answers,
    calls,
    printed,
    readNow: (path) => files.get(path) ?? "",
    batches: options.pruning ? readBatches(join(dir, "sidecar.db")) : null,
    engine,
  };
}
