/** What BENCHMARKS.md is rendered from, the targets, and helpers shared by its sections. */

import type { AgentRow } from "./agent.ts";
import type { CaptureBench } from "./capture.ts";
import type { CliBench } from "./cli-oneshot.ts";
import type { KotaBenchResult } from "./kota/bench.ts";
import type { Machine } from "./machine.ts";
import type { McpBenchResult } from "./mcp.ts";
import type { MemoryBench } from "./memory/bench-memory.ts";
import type { PiMcpBench } from "./pi-mcp-modes.ts";
import type { StartBench } from "./pi-start.ts";
import type { PruneBenchResult } from "./prune/run.ts";
import type { BenchQuery } from "./queries.ts";
import type { ReadcacheResult } from "./readcache.ts";
import type { RedactionBench } from "./redaction.ts";
import type { RetrievalResult } from "./retrieval/run.ts";
import type { RpcResult } from "./rpc.ts";
import type { KindSummary } from "./search-summary.ts";
import type { BuiltStore } from "./store-build.ts";
import type { WebBenchResult } from "./web/run.ts";

export const TARGETS = { dbRatio: 3, searchP50: 2, searchP99: 20 } as const;

export type ReportInput = {
  date: string;
  quick: boolean;
  totalMs: number;
  machine: Machine;
  capture: CaptureBench;
  store: Omit<BuiltStore, "path">;
  search: KindSummary[];
  searchRun: { ran: number; planned: number; budgetMs: number; elapsedMs: number };
  examples: BenchQuery[];
  warmUp: number;
  cli: CliBench;
  loadAtEnd: string;
  agent: AgentRow[];
  agentRuns: number;
  rpc: RpcResult;
  readcache: ReadcacheResult;
  mcp: McpBenchResult;
  piStart: StartBench;
  piMcp: PiMcpBench;
  retrieval: { tuning: RetrievalResult; holdout: RetrievalResult };
  redaction: RedactionBench;
  prune: PruneBenchResult;
  kota: KotaBenchResult;
  memory: MemoryBench;
  web: WebBenchResult;
};
