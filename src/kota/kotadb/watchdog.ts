/**
 * KotaDB's watchdog, two small processes of our own between us and KotaDB (helper roles, see
 * helper-process.ts), so that KotaDB never outlives us, however we end:
 *
 *   pi-sidecar ──stdio──▶ watchdog ──stdin──▶ guard ──stdin──▶ KotaDB (and anything it starts)
 *   (our process group)   (our group)          (a group of its own, with KotaDB in it)
 *
 * KotaDB keeps running after its stdin closes once its file watcher is up, so closing a pipe does
 * not stop it. The guard leads a process group of its own with KotaDB inside; when its stdin ends
 * (the watchdog exited, even by SIGKILL, say when our whole process group was killed) or it is
 * signalled, it ends that group: SIGTERM, then SIGKILL. The watchdog only relays: it sits in our
 * group, forwards our stdin to the guard, and exits with it. KotaDB's stdout is the watchdog's, so
 * its MCP frames reach us directly; its stderr is ours.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { HELPER_ENV, helperCommand } from "../helper-process.ts";

/** The environment variable that carries KotaDB's command line (a JSON array) to the watchdog and guard. */
export const KOTA_CMD_ENV = "PI_SIDECAR_KOTA_CMD";
const GRACE_MS = 2000;

type Streams = {
  stdin: NodeJS.ReadableStream;
  env: Record<string, string | undefined>;
  onSignal(handler: () => void): void;
};

const real: Streams = {
  stdin: process.stdin,
  env: process.env,
  onSignal: (handler) => {
    for (const s of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(s, handler);
  },
};

function kill(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Forwards `stdin` to `child` and calls `stop` once, when stdin ends or on a signal. */
function relay(io: Streams, child: ChildProcess, stop: () => void): void {
  child.stdin?.on("error", () => {});
  io.stdin.on("data", (chunk) => child.stdin?.write(chunk));
  io.stdin.on("end", stop);
  io.stdin.on("close", stop);
  io.onSignal(stop);
}

/** Waits for `child`; its exit code (1 for a signal) is ours. 127: it could not be started. */
function exitOf(child: ChildProcess, what: string): Promise<number> {
  return new Promise((done) => {
    child.on("error", (e) => {
      process.stderr.write(`cannot start ${what}: ${e.message}\n`);
      done(127);
    });
    child.on("exit", (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/** The relay in our process group: starts the guard in a group of its own and lives as long as it does. */
export async function runWatchdog(io: Streams = real): Promise<number> {
  const helper = helperCommand("kotadb-guard");
  const guard = spawn(helper.command, helper.args, {
    stdio: ["pipe", "inherit", "inherit"],
    detached: true,
    env: { ...io.env, ...helper.env },
  });
  let stopping = false;
  relay(io, guard, () => {
    if (stopping) return;
    stopping = true;
    // The guard ends KotaDB's group when its stdin ends; if it does not, its whole group goes.
    guard.stdin?.end();
    setTimeout(() => kill(guard.pid === undefined ? undefined : -guard.pid, "SIGKILL"), GRACE_MS * 2).unref();
  });
  return exitOf(guard, "KotaDB's guard");
}

/** The leader of KotaDB's process group: starts KotaDB in it and ends the whole group when told to. */
export async function runGuard(io: Streams = real): Promise<number> {
  const [command, ...args] = JSON.parse(io.env[KOTA_CMD_ENV] ?? "[]") as string[];
  if (!command) {
    process.stderr.write(`KotaDB's guard: ${KOTA_CMD_ENV} names no command\n`);
    return 2;
  }
  const env: Record<string, string | undefined> = { ...io.env, [HELPER_ENV]: undefined, [KOTA_CMD_ENV]: undefined };
  // When our own binary stands in for bun (no bun on PATH), this makes it behave as bun; bun ignores it.
  env.BUN_BE_BUN = "1";
  const child = spawn(command, args, { stdio: ["pipe", "inherit", "inherit"], env });
  const group = -process.pid;
  let stopping = false;
  relay(io, child, () => {
    if (stopping) return;
    stopping = true;
    // SIGTERM reaches this process too: the handler above makes it one more call to this function.
    kill(group, "SIGTERM");
    setTimeout(() => kill(group, "SIGKILL"), GRACE_MS).unref();
  });
  const code = await exitOf(child, command);
  // Whatever KotaDB started and left behind goes with it.
  stopping = true;
  kill(group, "SIGTERM");
  return code;
}
