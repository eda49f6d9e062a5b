/**
 * Live updates: the database file and its WAL are looked at (size and modification time, no
 * query) while a page listens, and a `change` event goes to every open page when either moved;
 * the page then fetches its panel again. A comment every 15 s keeps an idle stream open.
 */
import { statSync } from "node:fs";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";

export type ChangeWatch = { stream(c: Context): Response; stop(): void };

function signature(path: string): string {
  const one = (p: string) => {
    try {
      const s = statSync(p);
      return `${s.size}:${s.mtimeMs}`;
    } catch {
      return "-";
    }
  };
  return `${one(path)}|${one(`${path}-wal`)}`;
}

export function createChangeWatch(database: string, pollMs: number): ChangeWatch {
  const listeners = new Set<() => void>();
  const closers = new Set<() => void>();
  let last = signature(database);
  let timer: ReturnType<typeof setInterval> | null = null;
  const tick = () => {
    const now = signature(database);
    if (now === last) return;
    last = now;
    for (const fn of listeners) fn();
  };
  const start = () => {
    timer ??= setInterval(tick, pollMs);
  };
  const idle = () => {
    if (listeners.size > 0 || !timer) return;
    clearInterval(timer);
    timer = null;
  };
  return {
    stream(c) {
      return streamSSE(c, async (stream) => {
        let wake: (() => void) | null = null;
        let changed = false;
        let closed = false;
        const onChange = () => {
          changed = true;
          wake?.();
        };
        const close = () => {
          closed = true;
          wake?.();
        };
        listeners.add(onChange);
        closers.add(close);
        stream.onAbort(close);
        if (!timer) last = signature(database);
        start();
        try {
          await stream.writeSSE({ event: "hello", data: "{}" });
          while (!closed && !stream.aborted) {
            await new Promise<void>((done) => {
              wake = done;
              setTimeout(done, 15_000);
            });
            wake = null;
            if (closed || stream.aborted) break;
            if (changed) {
              changed = false;
              await stream.writeSSE({ event: "change", data: JSON.stringify({ at: Date.now() }) });
            } else await stream.write(": ping\n\n");
          }
        } finally {
          listeners.delete(onChange);
          closers.delete(close);
          idle();
        }
      });
    },
    stop() {
      for (const close of closers) close();
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
