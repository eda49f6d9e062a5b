/**
 * What the sidecar costs a pi user who does not use it on a given turn: plain pi against pi with
 * the extension installed by the binary (`install pi`), interleaved pair by pair, on Bun and on
 * Node 22. Two tasks with an instant scripted model: a prompt that calls no tool (pi's start),
 * and one bash call printing 1,400 lines then an answer (a task).
 *
 *   bun bench/pi-start.ts [--pairs N]      prints the result as JSON
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentDir, type Runtime, runPi, writeScript } from "../test/e2e/pi/harness.ts";
import { cleanupTempDirs, tempDir } from "../test/helpers.ts";
import { median } from "./stats-math.ts";
import { log } from "./timing.ts";

export type StartRow = { runtime: Runtime; task: "start" | "task"; plainMs: number; sidecarMs: number; overheadMs: number; pairs: number };

const NO_TOOL = `export default () => "hi";`;
const BASH_TASK = `export default (ctx) => ctx.lastToolResults.length ? "done" : { toolCalls: [{ name: "bash", arguments: { command: "seq 1 1400 | sed 's/^/line /'" } }] };`;

export async function benchPiStart(pairs: number): Promise<StartRow[]> {
  const rows: StartRow[] = [];
  try {
    const plainAgent = agentDir(true);
    const sidecarAgent = agentDir(false);
    const scripts = { start: writeScript(NO_TOOL), task: writeScript(BASH_TASK) };
    // One TMPDIR per installation, kept across its runs as a user's is (jiti's and Bun's caches live
    // there); the warm-up pair fills them. A fresh TMPDIR per run measures the very first start only.
    const tmp = { plain: tempDir("bench-start-tmp-"), sidecar: tempDir("bench-start-tmp-") };
    for (const runtime of ["bun", "node"] as const) {
      for (const task of ["start", "task"] as const) {
        const plain: number[] = [];
        const side: number[] = [];
        const diffs: number[] = [];
        // One warm-up each (file system cache, jiti's cache if any), then interleaved pairs.
        for (let i = -1; i < pairs; i++) {
          const cwd = tempDir("bench-start-");
          writeFileSync(join(cwd, "README"), "x\n");
          const a = runPi({
            runtime,
            script: scripts[task],
            prompt: task === "start" ? "say hi" : "run it",
            agentDir: plainAgent,
            tmpDir: tmp.plain,
            cwd,
            env: { PI_SIDECAR_DEBUG: "0" },
          });
          const b = runPi({
            runtime,
            script: scripts[task],
            prompt: task === "start" ? "say hi" : "run it",
            agentDir: sidecarAgent,
            tmpDir: tmp.sidecar,
            cwd,
            env: { PI_SIDECAR_DEBUG: "0" },
          });
          if (a.code !== 0 || b.code !== 0) throw new Error(`pi failed: ${a.stderr.slice(-500)} ${b.stderr.slice(-500)}`);
          if (i < 0) continue;
          plain.push(a.ms);
          side.push(b.ms);
          diffs.push(b.ms - a.ms);
        }
        const row = { runtime, task, plainMs: median(plain), sidecarMs: median(side), overheadMs: median(diffs), pairs };
        log(
          `pi ${task} on ${runtime}: plain ${row.plainMs.toFixed(0)} ms, sidecar ${row.sidecarMs.toFixed(0)} ms (+${row.overheadMs.toFixed(0)} ms)`,
        );
        rows.push(row);
      }
    }
  } finally {
    cleanupTempDirs();
  }
  return rows;
}

if (import.meta.main) {
  const at = process.argv.indexOf("--pairs");
  console.log(JSON.stringify(await benchPiStart(at > 0 ? Number(process.argv[at + 1]) : 5), null, 2));
}
