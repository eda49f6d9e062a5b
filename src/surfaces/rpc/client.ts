/**
 * The engine interface over stdio: every engine method is a JSON-RPC call to a
 * `pi-sidecar serve --stdio` child (child.ts starts and restarts it). Node-only APIs, no
 * bun:sqlite, so the pi extension can use it when pi runs on Node.
 */
import type { spawn as nodeSpawn } from "node:child_process";
import type { Config } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { AppError } from "../../errors.ts";
import { createEngineChild } from "./child.ts";
import { ENGINE_METHODS, type EngineMethod, type RpcResponse } from "./protocol.ts";

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
  /** A child is running now (false after it died, until the next call starts one). */
  readonly running: boolean;
};

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> };

/** How long closing waits for a rewrite somebody is waiting for (pi's print mode ends right after /context-purge). */
const CLOSE_WAITS_FOR_REWRITE_MS = 60_000;

export function createRpcEngine(options: RpcEngineOptions): RpcEngine {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const log = options.log ?? (() => {});
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const failAll = (error: Error) => {
    for (const p of pending.values()) {
      clearTimeout(p.timer);
      p.reject(error);
    }
    pending.clear();
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
    if (pending.size === 0) child.busy(false);
    if (msg.error) p.reject(new AppError(msg.error.data?.code ?? "ENGINE_ERROR", msg.error.message));
    else p.resolve(msg.result);
  };

  const child = createEngineChild({
    command: options.command,
    args: options.args,
    env: options.env,
    spawn: options.spawn,
    onFrame,
    onStderr: log,
    onGone: (why) => failAll(new AppError("ENGINE_EXITED", `pi-sidecar engine ${why}`)),
  });

  const call = <T>(method: EngineMethod | "ping", params: unknown[]): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      // Waiting for a rewrite is waiting, not a hung engine: it runs as long as the file needs.
      const timer = setTimeout(
        () => {
          pending.delete(id);
          reject(new AppError("ENGINE_TIMEOUT", `pi-sidecar engine did not answer ${method} within ${timeoutMs / 1000} s; restarting it`));
          child.kill();
        },
        method === "rewritten" ? 2 ** 31 - 1 : timeoutMs,
      );
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      try {
        child.send(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
        child.busy(true);
      } catch (error) {
        clearTimeout(timer);
        pending.delete(id);
        reject(error);
      }
    });

  // Every engine method is a call with its arguments as params.
  /** `rewritten` calls not answered yet: closing waits for them (a while). */
  const rewrites = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    rewrites.add(p);
    void p.catch(() => {}).finally(() => rewrites.delete(p));
    return p;
  };
  const methods = Object.fromEntries(
    ENGINE_METHODS.map((m) => [m, (...params: unknown[]) => (m === "rewritten" ? track(call(m, params)) : call(m, params))]),
  ) as Omit<Engine, "config" | "close">;
  return {
    ...methods,
    config: options.config,
    get starts() {
      return child.starts;
    },
    get running() {
      return child.running;
    },
    ping: () => call("ping", []),
    close: async () => {
      // A rewrite the user was told about ends first (and they hear how it ended); a process killed
      // meanwhile loses nothing either: the next engine finishes it.
      if (rewrites.size > 0) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          Promise.allSettled([...rewrites]),
          new Promise<void>((done) => {
            timer = setTimeout(done, CLOSE_WAITS_FOR_REWRITE_MS);
          }),
        ]);
        clearTimeout(timer);
      }
      failAll(new AppError("ENGINE_CLOSED", "pi-sidecar engine was closed"));
      await child.stop();
    },
  };
}
