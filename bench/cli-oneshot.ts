/**
 * One-shot CLI: the compiled binary (dist/pi-sidecar) started as a new process per command, as
 * a shell or a hook runs it. Wall time from spawn to exit, and to the first byte on stdout (for
 * capture: the receipt; the process then starts a detached `settle` for indexing and exits, and
 * the next run waits until that settle has emptied the queue).
 *
 * - `--version`: the floor, process start of the executable alone.
 * - `capture --tool bash < log`: a 1 MiB build log from a file on stdin into a fresh database.
 * - `search`, `get`, `list` against the large store, on a warm page cache: the binary and the
 *   database file are read through first, and each command runs once unmeasured.
 *
 * The binary runs with an empty agent directory and the scratch folder as working directory,
 * so no user or project configuration applies.
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../src/db/open.ts";
import { generate } from "./corpus.ts";
import type { BenchQuery } from "./queries.ts";
import { maxOf, median, percentile } from "./stats-math.ts";
import type { BuiltStore } from "./store-build.ts";
import { removeDatabase, type Scratch } from "./temp.ts";
import { log } from "./timing.ts";

const ROOT = join(import.meta.dir, "..");
export const BINARY = join(ROOT, "dist", "pi-sidecar");
const BUN = join(ROOT, "node_modules", ".bin", "bun");
const MIB = 1024 * 1024;

export type CliTiming = {
  runs: number;
  /** Spawn to exit. */
  p50: number;
  p95: number;
  max: number;
  /** Spawn to the first byte on stdout, median. */
  firstOutputP50: number;
};

export type CliBench = {
  binary: { bytes: number; builtNow: boolean; modified: string };
  version: CliTiming;
  capture: CliTiming & { inputBytes: number };
  search: CliTiming & { queries: string[] };
  get: CliTiming;
  list: CliTiming;
  store: { inputBytes: number; dbBytes: number; sources: number };
};

export type CliOptions = { runs: number; seed: number };

/** Builds dist/pi-sidecar when it is missing; true when it was built now. */
export function ensureBinary(): boolean {
  if (existsSync(BINARY)) return false;
  log("dist/pi-sidecar is missing: building it (bun build.ts)");
  const r = Bun.spawnSync([BUN, "build.ts"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0 || !existsSync(BINARY)) {
    throw new Error(
      `bench: \`bun build.ts\` failed (exit ${r.exitCode}): ${r.stderr.toString().slice(-2000)}; build the binary by hand and run again.`,
    );
  }
  return true;
}

type Env = Record<string, string>;

function cleanEnv(agentDir: string): Env {
  const env: Env = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("PI_SIDECAR") && !k.startsWith("PI_CODING")) env[k] = v;
  env.PI_CODING_AGENT_DIR = agentDir;
  return env;
}

type Sample = { ms: number; firstMs: number; stdout: string };

/** One process: spawn to exit, and to its first stdout byte. Fails loudly on a non-zero exit. */
async function runOnce(args: string[], env: Env, cwd: string, stdinFile?: string): Promise<Sample> {
  const start = performance.now();
  const proc = Bun.spawn([BINARY, ...args], {
    cwd,
    env,
    stdin: stdinFile ? Bun.file(stdinFile) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let firstMs = Number.NaN;
  const parts: Uint8Array[] = [];
  for await (const chunk of proc.stdout) {
    if (parts.length === 0) firstMs = performance.now() - start;
    parts.push(chunk);
  }
  const code = await proc.exited;
  const ms = performance.now() - start;
  const stdout = Buffer.concat(parts).toString("utf8");
  if (code !== 0) {
    const stderr = await new Response(proc.stderr).text();
    throw new Error(`bench: pi-sidecar ${args.join(" ")} exited ${code}: ${stderr.slice(0, 1000)}`);
  }
  return { ms, firstMs, stdout };
}

function timing(samples: readonly Sample[]): CliTiming {
  const ms = samples.map((s) => s.ms);
  return {
    runs: samples.length,
    p50: median(ms),
    p95: percentile(ms, 95),
    max: maxOf(ms),
    firstOutputP50: median(samples.map((s) => s.firstMs)),
  };
}

/** Reads a file through once so its pages are in the page cache. */
function warmFile(path: string): void {
  const buf = Buffer.allocUnsafe(16 * MIB);
  const fd = openSync(path, "r");
  try {
    while (readSync(fd, buf, 0, buf.length, null) > 0) {}
  } finally {
    closeSync(fd);
  }
}

/** Runs the first command line once unmeasured, then `runs` measured runs over the lines in turn. */
async function measure(lines: string[][], runs: number, env: Env, cwd: string): Promise<Sample[]> {
  await runOnce(lines[0]!, env, cwd);
  const out: Sample[] = [];
  for (let i = 0; i < runs; i++) out.push(await runOnce(lines[i % lines.length]!, env, cwd));
  return out;
}

async function queueDrained(path: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const db = openDatabase(path, { readonly: true });
    const left = db
      .query<{ n: number }, []>("SELECT (SELECT count(*) FROM index_queue) + (SELECT count(*) FROM blob_count_queue) AS n")
      .get()!.n;
    db.close();
    if (left === 0) return;
    if (Date.now() > deadline) throw new Error(`bench: the detached settle left ${left} queued items after ${timeoutMs / 1000} s`);
    await Bun.sleep(50);
  }
}

async function captureRuns(scratch: Scratch, env: Env, options: CliOptions): Promise<CliBench["capture"]> {
  const samples: Sample[] = [];
  const sizes: number[] = [];
  // One run first, unmeasured: the page cache holds the binary, as for every later command.
  for (let i = -1; i < options.runs; i++) {
    const input = join(scratch.dir, "cli-input.log");
    const text = generate("build", options.seed + 1 + i, MIB);
    writeFileSync(input, text);
    const db = scratch.path("cli-capture");
    const s = await runOnce(["--db", db, "capture", "--tool", "bash", "--label", "npm test"], env, scratch.dir, input);
    if (!s.stdout.includes("was stored")) throw new Error(`bench: CLI capture printed no receipt: ${s.stdout.slice(0, 300)}`);
    // The capture handed indexing and counting to a detached `settle`: let it finish before the
    // next run, which it would otherwise share the CPU with.
    await queueDrained(db);
    removeDatabase(db);
    if (i < 0) continue;
    samples.push(s);
    sizes.push(Buffer.byteLength(text));
  }
  return { ...timing(samples), inputBytes: median(sizes) };
}

/** Queries for the one-shot search: the mix's first query of each kind, in the mix's order. */
function cliQueries(queries: readonly BenchQuery[]): BenchQuery[] {
  const seen = new Set<string>();
  return queries.filter((q) => !seen.has(q.kind) && seen.add(q.kind));
}

export async function benchCli(
  scratch: Scratch,
  store: Pick<BuiltStore, "path" | "sources" | "inputBytes" | "dbBytes">,
  queries: readonly BenchQuery[],
  options: CliOptions,
): Promise<CliBench> {
  const builtNow = ensureBinary();
  const st = statSync(BINARY);
  const agentDir = join(scratch.dir, "cli-agent");
  mkdirSync(agentDir, { recursive: true });
  const env = cleanEnv(agentDir);
  const cwd = scratch.dir;

  const version = timing(await measure([["--version"]], options.runs, env, cwd));
  log(`cli: --version p50 ${version.p50.toFixed(0)} ms`);
  const capture = await captureRuns(scratch, env, options);
  log(`cli: capture 1 MiB p50 ${capture.p50.toFixed(0)} ms (receipt on stdout ${capture.firstOutputP50.toFixed(0)} ms)`);

  for (const file of [BINARY, store.path, `${store.path}-wal`]) if (existsSync(file)) warmFile(file);
  const db = ["--db", store.path];
  const picked = cliQueries(queries);
  const searchLines = picked.map((q) => [...db, "search", q.query, ...(q.source ? ["--source", q.source] : [])]);
  // Every kind once per pass; two passes in a full run.
  const passes = Math.max(1, Math.round(options.runs / 4));
  const search = timing(await measure(searchLines, passes * searchLines.length, env, cwd));
  log(`cli: search p50 ${search.p50.toFixed(0)} ms`);
  const getLines = store.sources.slice(0, 3).map((s, i) => [...db, "get", s.handle, "--chunk", String(1 + ((i * 37) % 20))]);
  const get = timing(await measure(getLines, options.runs, env, cwd));
  const list = timing(await measure([[...db, "list"]], options.runs, env, cwd));
  log(`cli: get p50 ${get.p50.toFixed(0)} ms, list p50 ${list.p50.toFixed(0)} ms`);

  return {
    binary: { bytes: st.size, builtNow, modified: st.mtime.toISOString().slice(0, 16).replace("T", " ") },
    version,
    capture,
    search: { ...search, queries: picked.map((q) => q.query) },
    get,
    list,
    store: { inputBytes: store.inputBytes, dbBytes: store.dbBytes, sources: store.sources.length },
  };
}
