/**
 * Runs one shell command for a model (`context_run`): no terminal and no stdin (a command that
 * waits for input gets end-of-file at once), stdout and stderr merged in the order the command
 * wrote them (as a terminal shows them), a timeout and a cancel that stop the command's whole
 * process group, and progress while it runs. Output beyond a cap is counted but not kept: its
 * head and tail are, with a note of what was dropped between them.
 */
import { type ChildProcess, spawn as nodeSpawn, type SpawnOptions } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { decodeUtf8 } from "../text.ts";

export type RunInput = {
  command: string;
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called about once a second while the command runs (never after it ends). */
  onProgress?: (p: RunProgress) => void;
  env?: Record<string, string | undefined>;
  /** The most output kept in memory; beyond it the middle is dropped (default 64 MiB). */
  maxBytes?: number;
};

export type RunProgress = { bytes: number; lines: number; elapsedMs: number; lastLine: string };

export type RunOutcome = {
  /** The merged output (UTF-8; invalid sequences became U+FFFD and are counted in `invalidUtf8`). */
  output: string;
  invalidUtf8: number;
  /** The exit code, or null when a signal ended it. */
  exitCode: number | null;
  signal: string | null;
  /** How it ended: on its own, stopped at the timeout, or cancelled by the caller. */
  ended: "exited" | "timeout" | "cancelled";
  elapsedMs: number;
  /** Bytes the command wrote in all; more than the output holds when some were dropped. */
  totalBytes: number;
  droppedBytes: number;
};

export type SpawnFn = (command: string, args: string[], options: SpawnOptions) => ChildProcess;

export type ShellDeps = { spawn?: SpawnFn; now?: () => number; progressEveryMs?: number };

export const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;
const KILL_GRACE_MS = 2000;
const DRAIN_MS = 500;

function onPath(name: string, env: Record<string, string | undefined>): string | null {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const full = join(dir, name);
    try {
      if (statSync(full).isFile()) return full;
    } catch {
      // not here
    }
  }
  return null;
}

/** The shell and its arguments: bash (or sh) on Unix with stderr joined to stdout; cmd.exe on Windows. */
export function shellFor(command: string, env: Record<string, string | undefined>): { file: string; args: string[] } {
  if (process.platform === "win32") return { file: env.ComSpec ?? "cmd.exe", args: ["/d", "/s", "/c", `${command} 2>&1`] };
  const bash = onPath("bash", env) ?? (existsSync("/bin/bash") ? "/bin/bash" : null);
  // `exec 2>&1` on its own line first: the command's text runs unchanged after it (heredocs,
  // comments and a trailing `&` included), with both streams on one pipe in the order written.
  return { file: bash ?? "/bin/sh", args: ["-c", `exec 2>&1\n${command}`] };
}

/** Keeps the first and the last half of `max` bytes; counts what falls between. */
class Sink {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  total = 0;
  lines = 0;
  lastLine = "";
  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) this.lines++;
    const text = chunk.toString("utf8");
    const lastBreak = text.lastIndexOf("\n", text.length - 2);
    const candidate = text.slice(lastBreak + 1).trimEnd();
    if (candidate !== "") this.lastLine = candidate.slice(-160);
    const half = Math.floor(this.max / 2);
    if (this.headBytes < half) {
      const take = Math.min(half - this.headBytes, chunk.length);
      this.head.push(chunk.subarray(0, take));
      this.headBytes += take;
      chunk = chunk.subarray(take);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - (this.tail[0]?.length ?? 0) >= this.max - half) this.tailBytes -= this.tail.shift()!.length;
  }

  result(): { bytes: Buffer; dropped: number } {
    const kept = this.headBytes + this.tailBytes;
    const dropped = this.total - kept;
    if (dropped === 0) return { bytes: Buffer.concat([...this.head, ...this.tail]), dropped };
    const note = Buffer.from(`\n[... ${dropped} bytes of output dropped here: over the ${this.max}-byte cap ...]\n`);
    return { bytes: Buffer.concat([...this.head, note, ...this.tail]), dropped };
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    // A negative pid is the process group the command leads (spawned detached): its children too.
    if (process.platform !== "win32") process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

export function runShell(input: RunInput, deps: ShellDeps = {}): Promise<RunOutcome> {
  const now = deps.now ?? Date.now;
  const spawn = deps.spawn ?? (nodeSpawn as SpawnFn);
  const env = input.env ?? process.env;
  const started = now();
  const sink = new Sink(input.maxBytes ?? DEFAULT_MAX_OUTPUT);
  const { file, args } = shellFor(input.command, env);
  return new Promise<RunOutcome>((resolve, reject) => {
    let ended: RunOutcome["ended"] = "exited";
    let child: ChildProcess;
    try {
      child = spawn(file, args, {
        cwd: input.cwd,
        env: env as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
        detached: process.platform !== "win32",
        windowsHide: true,
      });
    } catch (error) {
      reject(error);
      return;
    }
    const timers: ReturnType<typeof setTimeout>[] = [];
    const stop = (why: "timeout" | "cancelled") => {
      if (ended !== "exited") return;
      ended = why;
      killGroup(child, "SIGTERM");
      const hard = setTimeout(() => killGroup(child, "SIGKILL"), KILL_GRACE_MS);
      hard.unref?.();
      timers.push(hard);
    };
    const onAbort = () => stop("cancelled");
    if (input.signal?.aborted) queueMicrotask(onAbort);
    else input.signal?.addEventListener("abort", onAbort, { once: true });
    const limit = setTimeout(() => stop("timeout"), input.timeoutMs);
    limit.unref?.();
    timers.push(limit);
    const progress = input.onProgress
      ? setInterval(
          () => input.onProgress!({ bytes: sink.total, lines: sink.lines, elapsedMs: now() - started, lastLine: sink.lastLine }),
          deps.progressEveryMs ?? 1000,
        )
      : null;
    child.stdout?.on("data", (c: Buffer) => sink.push(c));
    // On Unix stderr is already joined to stdout by the shell; this catches the shell's own complaints.
    child.stderr?.on("data", (c: Buffer) => sink.push(c));
    child.on("error", (error) => {
      for (const t of timers) clearTimeout(t);
      if (progress) clearInterval(progress);
      input.signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // A process the command left in the background may hold the pipe open: what it wrote
      // until now is kept, and the answer does not wait for it.
      const drain = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(code, signal);
      }, DRAIN_MS);
      drain.unref?.();
      timers.push(drain);
    });
    child.on("close", (code, signal) => finish(exit?.code ?? code, exit?.signal ?? signal));
    let done = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      if (progress) clearInterval(progress);
      input.signal?.removeEventListener("abort", onAbort);
      // The shell is gone; whatever it left running in its group goes too.
      if (ended !== "exited") killGroup(child, "SIGKILL");
      const { bytes, dropped } = sink.result();
      const { text, invalid } = decodeUtf8(bytes);
      resolve({
        output: text,
        invalidUtf8: invalid,
        exitCode: code,
        signal: signal ?? null,
        ended,
        elapsedMs: now() - started,
        totalBytes: sink.total,
        droppedBytes: dropped,
      });
    };
  });
}
