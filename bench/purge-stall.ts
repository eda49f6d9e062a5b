/**
 * How long a purge holds up the host's event loop. pi runs the engine in its own process (Bun):
 * whatever the purge does on that thread, pi cannot draw, read keys or stream the model meanwhile.
 * Builds a store through the real capture path (bench/store-build.ts), opens it as pi's extension
 * does (worker background, short busy timeout), then purges one source while a 5 ms timer measures
 * the longest gap between its ticks. Reports the gap, the time until purge answered and the time
 * until the file was rewritten (no copy of the purged text left).
 *
 *   bun bench/purge-stall.ts [MiB of captured text, default 60]
 */
import { statSync } from "node:fs";
import { defaultConfig } from "../src/config.ts";
import { createEngine, type Engine } from "../src/engine.ts";
import { TOOL_CALLS } from "../src/store/index.ts";
import { describeMachine } from "./machine.ts";
import { buildStore } from "./store-build.ts";
import { createScratch } from "./temp.ts";

const MIB = 1024 * 1024;

function loopGaps() {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(worst, performance.now() - last);
    },
  };
}

/** Waits for the engine's background rewrite when this build has one (engines before it rewrote inside purge). */
async function rewritten(engine: Engine): Promise<void> {
  const e = engine as Engine & { rewritten?: () => Promise<unknown> };
  if (typeof e.rewritten === "function") await e.rewritten();
}

const target = Number(process.argv[2] ?? 60) * MIB;
const scratch = createScratch();
try {
  const built = await buildStore(scratch, target, 4242);
  const size = statSync(built.path).size;
  const engine = createEngine({ config: { ...defaultConfig(), db: built.path }, calls: TOOL_CALLS, busyTimeoutMs: 250 });
  await engine.stats();
  const rows: string[] = [];
  for (const source of built.sources.slice(0, 3)) {
    const gaps = loopGaps();
    const t0 = performance.now();
    const r = await engine.purge({ source: source.handle });
    const answered = performance.now() - t0;
    await rewritten(engine);
    const done = performance.now() - t0;
    const worst = gaps.stop();
    rows.push(
      `purge ${source.handle} (${r.sources} source): answered ${answered.toFixed(0)} ms, file rewritten ${done.toFixed(0)} ms, longest event-loop stall ${worst.toFixed(0)} ms`,
    );
  }
  await engine.close();
  console.log(`machine: ${JSON.stringify(describeMachine())}`);
  console.log(`store: ${(size / MIB).toFixed(0)} MiB file, ${built.sources.length} sources`);
  for (const r of rows) console.log(r);
} finally {
  scratch.remove();
}
