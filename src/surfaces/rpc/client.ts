/**
 * The engine interface over stdio: spawns `pi-sidecar serve --stdio` on first use, restarts it
 * if it dies, and gives up (for a cool-down) when it keeps dying. Node-only APIs, no bun:sqlite,
 * so the pi extension can use it when pi runs on Node.
 */
import { type ChildProcessWithoutNullStreams, spawn as nodeSpawn } from "node:child_process";
import type { Config } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { AppError } from "../../errors.ts";
import { lineSplitter } from "../../json-lines.ts";
import type { EngineMethod, RpcResponse } from "./protocol.ts";

export type RpcEngineOptions = {
  command: string;
  args: string[];
  config: Readonly<Config>;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  spawn?: typeof nodeSpawn;
  /** stderr lines of the child, and the client's own notes. */
  log?: (line: string) => void;
};

export type RpcEngine = Engine & {
  ping(): Promise<{ version: string; pid: number }>;
  /** How many times the child was (re)started. */
  readonly starts: number;
};

const MAX_STARTS_PER_MINUTE = 5;
const COOL_DOWN_MS = 30_000;

export function createRpcEngine(options: RpcEngineOptions): RpcEngine {
  const spawn = options.spawn ?? nodeSpawn;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const log = options.log ?? (() => {});
  let child: ChildProcessWithoutNullStreams | null = null;
  let nextId = 1;
  let starts = 0;
  const recentStarts: number[] = [];
  let coolDownUntil = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();

  const failAll = (error: Error) => {
    for (const p of pending.values()) {
      clearTimeout(p.timer);
      p.reject(error);
    }
    pending.clear();
  };

  const start = (): ChildProcessWithoutNullStreams => {
    if (child) return child;
    const now = Date.now();
    if (now < coolDownUntil) {
      throw new AppError(
        "ENGINE_UNAVAILABLE",
        `pi-sidecar engine keeps exiting; not restarting it for another ${Math.ceil((coolDownUntil - now) / 1000)} s`,
      );
    }
    while (recentStarts.length > 0 && now - recentStarts[0]! > 60_000) recentStarts.shift();
    if (recentStarts.length >= MAX_STARTS_PER_MINUTE) {
      coolDownUntil = now + COOL_DOWN_MS;
      recentStarts.length = 0;
      throw new AppError(
        "ENGINE_UNAVAILABLE",
        `pi-sidecar engine exited ${MAX_STARTS_PER_MINUTE} times in a minute; pausing restarts for ${COOL_DOWN_MS / 1000} s`,
      );
    }
    recentStarts.push(now);
    starts++;
    const proc = spawn(options.command, options.args, {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, ...options.env } as NodeJS.ProcessEnv,
    }) as ChildProcessWithoutNullStreams;
    child = proc;
    const frames = lineSplitter((line) => line.trim() !== "" && onFrame(line));
    proc.stdout.on("data", (piece: Buffer) => frames.push(piece));
    const stderrLines = lineSplitter((line) => line.trim() !== "" && log(line));
    proc.stderr.on("data", (piece: Buffer) => stderrLines.push(piece));
    const gone = (why: string) => {
      if (child !== proc) return;
      child = null;
      failAll(new AppError("ENGINE_EXITED", `pi-sidecar engine ${why}`));
    };
    proc.on("error", (error) => gone(`could not run ${options.command}: ${error.message}`));
    proc.on("exit", (code, signal) => gone(`exited (${signal ?? `code ${code}`})`));
    proc.stdin.on("error", () => {}); // EPIPE when the child is gone; "exit" reports it
    keepAlive(proc, false);
    return proc;
  };

  /** An idle child never keeps the host process alive; a call in flight does. */
  const keepAlive = (proc: ChildProcessWithoutNullStreams, on: boolean) => {
    const method = on ? "ref" : "unref";
    proc[method]();
    for (const stream of [proc.stdout, proc.stderr, proc.stdin])
      (stream as unknown as Record<string, (() => void) | undefined>)[method]?.call(stream);
  };

  const onFrame = (line: string) => {
    let msg: RpcResponse;
    try {
      msg = JSON.parse(line);
    } catch {
      log(`ignoring a non-JSON line from the engine: ${line.slice(0, 200)}`);
      return;
    }
    const p = typeof msg.id === "number" ? pending.get(msg.id) : undefined;
    if (!p) return;
    pending.delete(msg.id as number);
    clearTimeout(p.timer);
    if (pending.size === 0 && child) keepAlive(child, false);
    if (msg.error) p.reject(new AppError(msg.error.data?.code ?? "ENGINE_ERROR", msg.error.message));
    else p.resolve(msg.result);
  };

  const call = <T>(method: EngineMethod | "ping", params: unknown[]): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      let proc: ChildProcessWithoutNullStreams;
      try {
        proc = start();
      } catch (error) {
        reject(error);
        return;
      }
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new AppError("ENGINE_TIMEOUT", `pi-sidecar engine did not answer ${method} within ${timeoutMs / 1000} s; restarting it`));
        proc.kill();
      }, timeoutMs);
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      keepAlive(proc, true);
      proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });

  return {
    config: options.config,
    get starts() {
      return starts;
    },
    ping: () => call("ping", []),
    capture: (input) => call("capture", [input]),
    search: (input) => call("search", [input]),
    get: (input) => call("get", [input]),
    exportSource: (id, out, overwrite) => call("exportSource", [id, out, overwrite]),
    list: (filter, limit) => call("list", [filter, limit]),
    stats: (filter) => call("stats", [filter]),
    purge: (filter) => call("purge", [filter]),
    retention: () => call("retention", []),
    readcache: (input) => call("readcache", [input]),
    close: async () => {
      const proc = child;
      child = null;
      failAll(new AppError("ENGINE_CLOSED", "pi-sidecar engine was closed"));
      if (proc) {
        proc.stdin.end();
        await new Promise<void>((done) => {
          const timer = setTimeout(() => {
            proc.kill();
            done();
          }, 2000);
          proc.once("exit", () => {
            clearTimeout(timer);
            done();
          });
        });
      }
    },
  };
}
