/**
 * The engine's child process for the stdio client: started on first use, started again after it
 * dies, and left alone for a cool-down when it keeps dying. Frames from its stdout and lines from
 * its stderr are handed on; an idle child never keeps the host process alive.
 */
import { type ChildProcessWithoutNullStreams, spawn as nodeSpawn } from "node:child_process";
import { AppError } from "../../errors.ts";
import { lineSplitter } from "../../json-lines.ts";

const MAX_STARTS_PER_MINUTE = 5;
const COOL_DOWN_MS = 30_000;

export type ChildOptions = {
  command: string;
  args: string[];
  env?: Record<string, string | undefined>;
  spawn?: typeof nodeSpawn;
  onFrame(line: string): void;
  onStderr(line: string): void;
  /** The child is gone (exited, or could not be run). */
  onGone(why: string): void;
};

export type EngineChild = ReturnType<typeof createEngineChild>;

export function createEngineChild(o: ChildOptions) {
  const spawn = o.spawn ?? nodeSpawn;
  let child: ChildProcessWithoutNullStreams | null = null;
  let starts = 0;
  const recentStarts: number[] = [];
  let coolDownUntil = 0;

  /** Refuses to start while cooling down; starts a new cool-down after too many starts. */
  const mayStart = (now: number) => {
    if (now < coolDownUntil) {
      const wait = Math.ceil((coolDownUntil - now) / 1000);
      throw new AppError("ENGINE_UNAVAILABLE", `pi-sidecar engine keeps exiting; not restarting it for another ${wait} s`);
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
  };

  const keepAlive = (proc: ChildProcessWithoutNullStreams, on: boolean) => {
    const method = on ? "ref" : "unref";
    proc[method]();
    for (const stream of [proc.stdout, proc.stderr, proc.stdin])
      (stream as unknown as Record<string, (() => void) | undefined>)[method]?.call(stream);
  };

  const start = (): ChildProcessWithoutNullStreams => {
    mayStart(Date.now());
    starts++;
    const proc = spawn(o.command, o.args, { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...o.env } as NodeJS.ProcessEnv });
    child = proc;
    const frames = lineSplitter((line) => line.trim() !== "" && o.onFrame(line));
    proc.stdout.on("data", (piece: Buffer) => frames.push(piece));
    const stderrLines = lineSplitter((line) => line.trim() !== "" && o.onStderr(line));
    proc.stderr.on("data", (piece: Buffer) => stderrLines.push(piece));
    const gone = (why: string) => {
      if (child !== proc) return;
      child = null;
      o.onGone(why);
    };
    proc.on("error", (error) => gone(`could not run ${o.command}: ${error.message}`));
    proc.on("exit", (code, signal) => gone(`exited (${signal ?? `code ${code}`})`));
    proc.stdin.on("error", () => {}); // EPIPE when the child is gone; "exit" reports it
    keepAlive(proc, false);
    return proc;
  };

  return {
    get starts() {
      return starts;
    },
    /** A child is running (or starting). */
    get running() {
      return child !== null;
    },
    /** Writes one frame, starting the child if needed (throws AppError while cooling down). */
    send(frame: string): ChildProcessWithoutNullStreams {
      const proc = child ?? start();
      proc.stdin.write(frame);
      return proc;
    },
    /** A call in flight keeps the host alive; none lets it exit. */
    busy(on: boolean): void {
      if (child) keepAlive(child, on);
    },
    kill(): void {
      child?.kill();
    },
    /** Ends stdin (the child finishes what it has and exits), killing it after two seconds. */
    async stop(): Promise<void> {
      const proc = child;
      child = null;
      if (!proc) return;
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
    },
  };
}
