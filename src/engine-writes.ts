/**
 * The engine's two deleting writes (purge, memory forget) and what follows them: the rewrite of the
 * file they owe (db/rewrite.ts), off the host's thread where it must keep answering.
 */
import type { Background } from "./background.ts";
import type { Db } from "./db/open.ts";
import { pendingRewrite, type RewriteOutcome } from "./db/rewrite.ts";
import { describeRewrite, REWRITE_RUNNING } from "./rewrite-text.ts";
import type { PurgeResult } from "./store/index.ts";

export type { RewriteOutcome } from "./db/rewrite.ts";

/**
 * After the deletes: `done` (rewritten before the answer), `running` (on a worker; `rewritten()`
 * resolves when it ends), `failed` (tried again by the next purge, forget or writing engine),
 * `none` (nothing was deleted, nothing owed).
 */
export type RewriteState = "none" | "done" | "running" | "failed";

/** A purge's answer: what went, and where the rewrite that clears its old copies stands; `note` says it to the user. */
export type PurgeAnswer = PurgeResult & { rewrite: RewriteState; note: string };

export type Rewriter = {
  /**
   * Pays what the file is owed: inline, resolves once rewritten; off the thread, starts it (after a
   * rewrite already running) and says so. Nothing owed: `none`.
   */
  owe(db: Db): Promise<{ rewrite: RewriteState; note: string }>;
  /** The latest rewrite started (null when none was): resolves when it ended. */
  current(): Promise<RewriteOutcome> | null;
  /** Starts a rewrite a process before this one left owed (it exited or died before it finished). */
  resume(db: Db): void;
};

export function createRewriter(background: () => Background, offThread: boolean, log: (line: string) => void): Rewriter {
  let running: Promise<RewriteOutcome> | null = null;
  const start = (): Promise<RewriteOutcome> => {
    // One at a time: a rewrite running now may have started before the latest deletes committed.
    const after = running ?? Promise.resolve(null);
    const run: Promise<RewriteOutcome> = after
      .catch(() => null)
      .then(() => background().rewrite())
      .catch((error: unknown) => ({ ok: false, ms: 0, bytesBefore: 0, bytesAfter: 0, reason: String(error) }));
    running = run;
    void run.then((o) => {
      if (!o.ok) log(`rewrite after a delete: ${o.reason}`);
    });
    return run;
  };
  return {
    async owe(db) {
      if (pendingRewrite(db) === null) return { rewrite: "none", note: "" };
      if (!offThread) {
        const o = await start();
        return { rewrite: o.ok ? "done" : "failed", note: o.ok ? "" : ` ${describeRewrite(o)}` };
      }
      void start();
      return { rewrite: "running", note: REWRITE_RUNNING };
    },
    current: () => running,
    resume(db) {
      if (offThread && pendingRewrite(db) !== null) void start();
    },
  };
}
