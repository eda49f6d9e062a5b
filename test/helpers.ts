import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Config, defaultConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/open.ts";
import { createEngine, type Engine } from "../src/engine.ts";
import { type CaptureInput, type CaptureResult, capture } from "../src/store/capture.ts";
import type { EngineDeps } from "../src/store/engine-deps.ts";
import { settle } from "../src/store/index-queue.ts";
import { CLI_CALLS } from "../src/store/next-calls.ts";
import { createRetrievalLog } from "../src/store/retrieval-log.ts";
import { countTokens } from "../src/tokens/count.ts";
import { inlineTokenCounter } from "../src/tokens/counter.ts";

export const ROOT = join(import.meta.dir, "..");
export const BUN = process.execPath;

const dirs: string[] = [];

export function tempDir(prefix = "pi-sidecar-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

export function cleanupTempDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export function testConfig(dbPath: string, patch: (c: Config) => void = () => {}): Config {
  const config = defaultConfig({ HOME: tempDir() });
  config.db = dbPath;
  patch(config);
  return config;
}

/** What the engine does after a write: queued indexing and token counting, finished (inline here). */
export function settleStore(store: EngineDeps) {
  return settle(store.db, (texts) => texts.reduce((n, t) => n + countTokens(t), 0));
}

/** A capture as the engine completes it: stored, then indexed and counted. */
export async function captureIndexed(store: EngineDeps, input: CaptureInput): Promise<CaptureResult> {
  const r = await capture(store, input);
  await settleStore(store);
  return r;
}

/** A real store on a real SQLite file in a temp dir, with a controllable clock. */
export function testStore(patch?: (c: Config) => void): EngineDeps & { clock: { t: number }; path: string } {
  const path = join(tempDir(), "sidecar.db");
  const config = testConfig(path, patch);
  const clock = { t: Date.UTC(2026, 10, 22, 8, 0, 0) };
  const db = openDatabase(path);
  return {
    db,
    config,
    now: () => clock.t,
    calls: CLI_CALLS,
    tokens: inlineTokenCounter(),
    retrievals: createRetrievalLog(db, () => clock.t, true),
    clock,
    path,
  };
}

export function testEngine(patch?: (c: Config) => void): Engine & { path: string } {
  const path = join(tempDir(), "sidecar.db");
  return Object.assign(createEngine({ config: testConfig(path, patch) }), { path });
}

/**
 * Waits until `condition` holds (checked every 10 ms), failing with `what` after `timeoutMs`:
 * tests wait for what they need, never for a fixed time that a busy machine may not meet.
 */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(10);
  }
}

/** The process exists (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A random seed for one test, printed so a failure can be replayed: TEST_SEED=<n> fixes it.
 */
export function testSeed(label: string): number {
  const seed = process.env.TEST_SEED ? Number(process.env.TEST_SEED) : Date.now() % 100_000;
  console.log(`seed for ${label}: ${seed} (replay with TEST_SEED=${seed})`);
  return seed;
}

/** Seeded PRNG (mulberry32): tests are random but reproducible from the printed seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOISE = ["GET", "POST", "cache", "miss", "hit", "worker", "queue", "retry", "ok", "done", "fetch", "sync", "tick", "poll", "batch"];

/** A noisy log with no blank lines; `needle` (if given) is put at `needleLine`. */
export function noisyLog(lines: number, seed: number, needle?: { line: number; text: string }): string {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) {
    if (needle && i === needle.line) {
      out.push(needle.text);
      continue;
    }
    const words = Array.from({ length: 6 + Math.floor(r() * 8) }, () => NOISE[Math.floor(r() * NOISE.length)]);
    out.push(
      `2026-11-22T08:${String(i % 60).padStart(2, "0")}:${String((i * 7) % 60).padStart(2, "0")}Z [w${i % 5}] ${words.join(" ")} id=${Math.floor(r() * 1e9).toString(16)}`,
    );
  }
  return `${out.join("\n")}\n`;
}

export type CliResult = { code: number; stdout: string; stderr: string; stdoutBytes: Uint8Array };

/** Runs the CLI as a user would: `bun src/main.ts ...` or the compiled binary. */
export function runCli(
  args: string[],
  opts: { stdin?: string | Uint8Array; env?: Record<string, string>; bin?: string; cwd?: string } = {},
): CliResult {
  const cmd = opts.bin ? [opts.bin, ...args] : [BUN, join(ROOT, "src/main.ts"), ...args];
  const proc = Bun.spawnSync(cmd, {
    stdin: opts.stdin === undefined ? "ignore" : typeof opts.stdin === "string" ? Buffer.from(opts.stdin) : opts.stdin,
    stdout: "pipe",
    stderr: "pipe",
    cwd: opts.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: opts.env?.HOME ?? tempDir(), ...opts.env },
  });
  return {
    code: proc.exitCode ?? -1,
    stdout: proc.stdout.toString(),
    stderr: proc.stderr.toString(),
    stdoutBytes: new Uint8Array(proc.stdout),
  };
}

/**
 * The bytes of a database's files as latin1 text (the file, then its -wal and -shm when there):
 * a WAL or shared-memory file can go between a look and a read, when another connection (a worker
 * thread ending after its engine closed) was the last one open.
 */
export function databaseFileTexts(path: string, suffixes: readonly string[] = ["", "-wal", "-shm"]): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  for (const suffix of suffixes) {
    try {
      out.push({ name: suffix || "db", text: readFileSync(`${path}${suffix}`).toString("latin1") });
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
    }
  }
  return out;
}

/**
 * A test's own connection to a database another process may be writing (a server, a detached
 * `settle`): it waits for the lock as the product's connections do (15 s), so a checkpoint that
 * truncates the WAL, which keeps readers out for a moment, is no SQLITE_BUSY.
 */
export function waitingDb(path: string, readonly = true): Database {
  const db = new Database(path, readonly ? { readonly: true } : undefined);
  db.exec("PRAGMA busy_timeout = 15000");
  return db;
}
