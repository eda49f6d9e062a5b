/** BENCHMARKS.md sections for the agent scenarios and the stdio transport. */
import type { AgentRow } from "./agent.ts";
import { count, ms, pct, table, verdict } from "./markdown.ts";
import type { RpcResult } from "./rpc.ts";

export const AGENT_TARGETS = { tokenShare: 0.25, rpcP50: 1, coldStart: 100 } as const;
const TOKEN_TARGETED = new Set(["noisy log (1,400 lines)", "large JSON result"]);

export function agentTargetRows(agent: readonly AgentRow[], rpc: RpcResult): string[][] {
  const rows: string[][] = [];
  for (const runtime of ["bun", "node"] as const) {
    for (const name of TOKEN_TARGETED) {
      const c = agent.find((r) => r.scenario === name && r.runtime === runtime && r.variant === "control");
      const s = agent.find((r) => r.scenario === name && r.runtime === runtime && r.variant === "sidecar");
      if (!c || !s) continue;
      rows.push([
        `Tokens sent, ${name}, pi on ${runtime}`,
        `<= ${AGENT_TARGETS.tokenShare * 100}% of control`,
        pct(s.tokensSent, c.tokensSent),
        verdict(s.tokensSent <= c.tokensSent * AGENT_TARGETS.tokenShare),
      ]);
    }
  }
  const unchanged = agent
    .filter((r) => r.variant === "sidecar")
    .every(
      (s) => s.success || !agent.find((c) => c.variant === "control" && c.scenario === s.scenario && c.runtime === s.runtime)?.success,
    );
  rows.push(["Agent success with the sidecar", "unchanged vs control", unchanged ? "unchanged or better" : "worse", verdict(unchanged)]);
  rows.push([
    "stdio round trip p50 (ping)",
    `<= ${AGENT_TARGETS.rpcP50} ms`,
    ms(rpc.pingP50),
    verdict(rpc.pingP50 <= AGENT_TARGETS.rpcP50),
  ]);
  rows.push([
    "Cold start of `serve --stdio` (spawn to first answer), p50",
    `<= ${AGENT_TARGETS.coldStart} ms`,
    ms(rpc.coldStartP50),
    verdict(rpc.coldStartP50 <= AGENT_TARGETS.coldStart),
  ]);
  return rows;
}

export function agentSection(agent: readonly AgentRow[], runs: number): string {
  const rows = agent.map((r) => [
    r.scenario,
    r.runtime,
    r.variant,
    r.success ? "yes" : "**no**",
    String(r.toolCalls),
    String(r.retrievalCalls),
    String(r.modelCalls),
    count(r.tokensSent),
    ms(r.wallMs),
  ]);
  const share = (name: string, runtime: string) => {
    const c = agent.find((r) => r.scenario === name && r.runtime === runtime && r.variant === "control");
    const s = agent.find((r) => r.scenario === name && r.runtime === runtime && r.variant === "sidecar");
    return c && s ? pct(s.tokensSent, c.tokensSent) : "n/a";
  };
  const slower = agent
    .filter((r) => r.variant === "sidecar")
    .map((s) => {
      const c = agent.find((r) => r.variant === "control" && r.scenario === s.scenario && r.runtime === s.runtime)!;
      return s.wallMs - c.wallMs;
    });
  return [
    "## Agent scenarios: plain pi vs pi with the sidecar",
    "",
    `The real pi CLI (0.87.1) headless and offline, driven by a scripted model (test/e2e/pi/fake-provider.ts); the scenarios and ` +
      `scripted agents are the end-to-end tests' own (test/e2e/pi/scenarios.ts). "Control" is plain pi: its bash tool keeps the last ` +
      `2,000 lines / 50 KiB, and its agent greps when the answer is not in what it was shown. Tokens sent = every model request's system ` +
      `prompt, tool definitions and messages, counted with o200k_base. Wall time is the median of ${runs} run${runs === 1 ? "" : "s"} and includes pi's own start-up.`,
    "",
    table(["Scenario", "pi on", "Variant", "Answer right", "Tool calls", "Retrievals", "Model calls", "Tokens sent", "Wall time"], rows, [
      "l",
      "l",
      "l",
      "l",
      "r",
      "r",
      "r",
      "r",
      "r",
    ]),
    "",
    `What this means: the sidecar sends ${share("noisy log (1,400 lines)", "bun")} of the control's tokens on the noisy log, ` +
      `${share("large JSON result", "bun")} on the JSON result, ${share("failing build log", "bun")} on the build log (where plain pi's ` +
      `tail cut loses the error and its agent must grep) and ${share("browser snapshot", "bun")} on the snapshot. Most of what is left is pi's ` +
      `own system prompt and tool definitions, sent on every call; the sidecar costs one more model call than a lucky control. ` +
      `It is slower in wall time (${ms(Math.min(...slower))} to ${ms(Math.max(...slower))} per task here): starting the engine, loading the ` +
      `tokenizer tables and indexing the output.`,
  ].join("\n");
}

export function rpcSection(r: RpcResult): string {
  return [
    "## stdio transport (pi on Node)",
    "",
    table(
      ["What", "Measured"],
      [
        [`Round trip, ping, p50 / p99 (${r.calls} calls)`, `${ms(r.pingP50)} / ${ms(r.pingP99)}`],
        ["Round trip, list (1 row), p50", ms(r.listP50)],
        ["Same list call in-process, p50 (floor)", ms(r.inProcessListP50)],
        [
          `Cold start of serve --stdio, spawn to first answer, p50 / max (${r.coldStarts} starts)`,
          `${ms(r.coldStartP50)} / ${ms(r.coldStartMax)}`,
        ],
      ],
      ["l", "r"],
    ),
    "",
    "What this means: the JSON-RPC hop costs the difference between the two list rows. Cold start is the compiled binary's start-up " +
      "plus opening the database; the tokenizer tables load later, on the first capture or search, not at start.",
  ].join("\n");
}
