/**
 * The agent benchmark: the four scenarios of test/e2e/pi (shared, so the benchmark measures
 * exactly what the tests assert), each with plain pi (control) and with the sidecar, on Bun
 * (in-process engine) and Node 22 (stdio engine). Tokens sent are counted from the requests with
 * the real tokenizer; wall time is the median of the runs.
 */
import { agentDir, type Runtime, runPi, toolCallsOf, writeScript } from "../test/e2e/pi/harness.ts";
import { SCENARIOS } from "../test/e2e/pi/scenarios.ts";
import { cleanupTempDirs, tempDir } from "../test/helpers.ts";
import { median } from "./stats-math.ts";
import { log } from "./timing.ts";

export type AgentRow = {
  scenario: string;
  runtime: Runtime;
  variant: "control" | "sidecar";
  success: boolean;
  toolCalls: number;
  retrievalCalls: number;
  modelCalls: number;
  tokensSent: number;
  wallMs: number;
};

export async function benchAgent(runs: number, seed: number): Promise<AgentRow[]> {
  const rows: AgentRow[] = [];
  try {
    for (const scenario of SCENARIOS) {
      for (const runtime of ["bun", "node"] as const) {
        for (const variant of ["control", "sidecar"] as const) {
          const times: number[] = [];
          let last: AgentRow | null = null;
          let allOk = true;
          for (let i = 0; i < runs; i++) {
            const cwd = tempDir("bench-agent-");
            const expected = scenario.setup(cwd, seed + i);
            const script = writeScript(variant === "control" ? scenario.controlScript : scenario.sidecarScript);
            const run = runPi({ runtime, script, prompt: scenario.prompt(expected), agentDir: agentDir(variant === "control"), cwd });
            let ok = false;
            try {
              ok = JSON.stringify(JSON.parse(run.stdout.trim())) === JSON.stringify(expected);
            } catch {
              ok = false;
            }
            allOk &&= ok;
            times.push(run.ms);
            const calls = toolCallsOf(run);
            last = {
              scenario: scenario.name,
              runtime,
              variant,
              success: ok,
              toolCalls: calls.length,
              retrievalCalls: calls.filter((c) => c.startsWith("context_")).length,
              modelCalls: run.calls.length,
              tokensSent: run.tokensSent,
              wallMs: 0,
            };
          }
          rows.push({ ...last!, success: allOk, wallMs: median(times) });
          log(
            `agent ${scenario.name} ${runtime} ${variant}: ${allOk ? "ok" : "FAILED"}, ${last!.tokensSent} tokens, ${median(times).toFixed(0)} ms`,
          );
        }
      }
    }
  } finally {
    cleanupTempDirs();
  }
  return rows;
}
