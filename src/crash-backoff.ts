/**
 * Restarts of a child process that keeps crashing: exponential backoff over the crashes of the
 * last minute (0, 250 ms, 500 ms ... up to 8 s), and a rest once it crashed MAX_CRASHES times in
 * that minute. Shared by the MCP gateway's servers and KotaDB.
 */
export const CRASH_WINDOW_MS = 60_000;
export const MAX_CRASHES = 5;

export type CrashBackoff = {
  /** Records a crash now. */
  crashed(): void;
  /** Milliseconds to wait before the next start, or null while resting after repeated crashes. */
  waitMs(): number | null;
  /** Seconds until a resting process may start again (0 when it may now). */
  restSeconds(): number;
};

export function crashBackoff(now: () => number): CrashBackoff {
  let crashes: number[] = [];
  const recent = () => {
    const since = now() - CRASH_WINDOW_MS;
    crashes = crashes.filter((t) => t > since);
    return crashes;
  };
  return {
    crashed: () => void crashes.push(now()),
    waitMs() {
      const n = recent().length;
      if (n >= MAX_CRASHES) return null;
      return n === 0 ? 0 : Math.min(8000, 250 * 2 ** (n - 1));
    },
    restSeconds() {
      const r = recent();
      return r.length < MAX_CRASHES ? 0 : Math.ceil((r[0]! + CRASH_WINDOW_MS - now()) / 1000);
    },
  };
}
