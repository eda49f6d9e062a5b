/**
 * One run of the benchmark session: one real pi process (RPC mode, Node 22, so the engine is the
 * compiled binary over stdio) of a given version, plain or with the sidecar installed by
 * `install pi` in a variant (default, or one part off), in its own copy of the project, driven
 * turn by turn; every model call is logged by the fake provider (FAKE_LOG). Before the questions
 * the project changes on disk (project.ts). What each planned call showed is known without pi:
 * `groundTruth` replays the plan's commands and reads on a copy of the project of its own.
 */
import { Database } from "bun:sqlite";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentDir, type PiVersion, writeScript } from "../../test/e2e/pi/harness.ts";
import { startRpcPi } from "../../test/e2e/pi/rpc-driver.ts";
import { ROOT, tempDir } from "../../test/helpers.ts";
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

/** How pi runs: plain (no sidecar), or with the sidecar in its default configuration or with one part off. */
export const VARIANTS = {
  plain: { sidecar: false, env: {}, config: null },
  default: { sidecar: true, env: {}, config: null },
  "pruning off": { sidecar: true, env: { PI_SIDECAR_PRUNE: "0" }, config: null },
  // No tool's output becomes a receipt (pruning still stores what it prunes).
  "receipts off": { sidecar: true, env: {}, config: { capture: { include: ["(none)"] } } },
  "read cache off": { sidecar: true, env: { PI_SIDECAR_READCACHE: "0" }, config: null },
} as const satisfies Record<string, { sidecar: boolean; env: Record<string, string>; config: object | null }>;
export type Variant = keyof typeof VARIANTS;

export type SessionOptions = {
  pi: PiVersion;
  variant: Variant;
  seed: number;
  contextWindow: number;
  /** More sidecar configuration (pi-sidecar.json), merged over the variant's. */
  config?: Record<string, unknown>;
};

export type SessionRun = {
  pi: PiVersion;
  /** The variant, and the extra configuration when there is one. */
  variant: string;
  /** From the first prompt to the last answer (pi's start not included). */
  wallMs: number;
  /** Each user turn, prompt to settled (the first includes pi's start and the engine's). */
  turnMs: number[];
  answers: string[];
  calls: LoggedCall[];
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

/** pi's bash finds the project's TypeScript as `tsc`, like a developer's shell with node_modules/.bin on PATH. */
const PATH = `${join(ROOT, "node_modules/.bin")}:${process.env.PATH ?? ""}`;

function runBash(cwd: string, command: string): string {
  const r = Bun.spawnSync(["bash", "-c", command], { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, PATH } });
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

/** What each work-turn call showed when it ran (by call id), and what it shows after the session's changes. */
export type GroundTruth = { shown: Map<string, string>; now: Map<string, string> };

/** The lines a read shows (offset and limit applied) of a file's text. */
function readShows(text: string, args: Record<string, unknown>): string {
  const offset = Math.max(1, Number(args.offset ?? 1));
  const lines = text.split("\n");
  return lines.slice(offset - 1, args.limit === undefined ? undefined : offset - 1 + Number(args.limit)).join("\n");
}

/** Replays the plan's calls in order on a project of its own (no pi), before and after the changes. */
export function groundTruth(plan: readonly Turn[], seed: number): GroundTruth {
  const project = createProject(seed);
  const shown = new Map<string, string>();
  const now = new Map<string, string>();
  const calls: { id: string; name: string; args: Record<string, unknown> }[] = [];
  const run = (c: (typeof calls)[number]) =>
    c.name === "bash"
      ? runBash(project.root, String(c.args.command))
      : readShows(readFileSync(join(project.root, String(c.args.path)), "utf8"), c.args);
  try {
    plan.forEach((t, i) => {
      if (i + 1 === CHANGE_BEFORE_TURN) changeProject(project.root, seed);
      if (t.kind !== "work") return;
      t.steps.forEach((group, s) => {
        group.forEach((step, k) => {
          const c = { id: `call_t${i + 1}_s${s}_${k}`, name: step.name, args: step.arguments };
          calls.push(c);
          shown.set(c.id, run(c));
        });
      });
    });
    // What the same calls show now (each once), but for the agent's own edit (run again, it would edit again).
    const again = new Map<string, string>();
    for (const c of calls) {
      if (c.name === "bash" && String(c.args.command).startsWith("sed -i")) continue;
      const key = JSON.stringify([c.name, c.args]);
      if (!again.has(key)) again.set(key, run(c));
      now.set(c.id, again.get(key)!);
    }
    return { shown, now };
  } finally {
    project.remove();
  }
}

export async function runSession(plan: readonly Turn[], options: SessionOptions): Promise<SessionRun> {
  const project = createProject(options.seed);
  try {
    return await drive(plan, options, project.root);
  } finally {
    project.remove();
  }
}

async function drive(plan: readonly Turn[], options: SessionOptions, root: string): Promise<SessionRun> {
  const variant = VARIANTS[options.variant];
  const dir = agentDir(!variant.sidecar);
  const config = { ...(variant.config ?? {}), ...(options.config ?? {}) };
  if (Object.keys(config).length > 0) writeFileSync(join(dir, "pi-sidecar.json"), JSON.stringify(config));
  const logPath = join(tempDir("bench-prune-log-"), "calls.jsonl");
  const env: Record<string, string> = { FAKE_LOG: logPath, FAKE_CONTEXT_WINDOW: String(options.contextWindow), PATH, ...variant.env };
  const pi = startRpcPi("node", dir, root, writeScript(modelScript(plan)), env, options.pi);
  const answers: string[] = [];
  const turnMs: number[] = [];
  let engine: SessionRun["engine"] = "none seen";
  const name = `${options.variant}${options.config ? ` ${JSON.stringify(options.config)}` : ""}`;
  const started = performance.now();
  try {
    for (let i = 0; i < plan.length; i++) {
      if (i + 1 === CHANGE_BEFORE_TURN) changeProject(root, options.seed);
      const t0 = performance.now();
      answers.push(await pi.prompt(plan[i]!.prompt));
      turnMs.push(performance.now() - t0);
      if (engine === "none seen" && variant.sidecar && hasStdioEngine(pi.pid)) engine = "stdio";
      if ((i + 1) % 8 === 0)
        log(`session bench (pi ${options.pi}, ${name}): ${i + 1} turns, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  } finally {
    await pi.close();
  }
  const calls = readFileSync(logPath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LoggedCall);
  return {
    pi: options.pi,
    variant: name,
    wallMs: performance.now() - started,
    turnMs,
    answers,
    calls,
    batches: variant.sidecar ? readBatches(join(dir, "sidecar.db")) : null,
    engine,
  };
}
