/** What BENCHMARKS.md is rendered from, the targets, and helpers shared by its sections. */

import type { AgentRow } from "./agent.ts";
import type { CaptureRow, ColdRow } from "./capture.ts";
import type { CorpusKind } from "./corpus.ts";
import type { Machine } from "./machine.ts";
import type { McpBenchResult } from "./mcp.ts";
import type { BenchQuery } from "./queries.ts";
import type { ReadcacheResult } from "./readcache.ts";
import type { RpcResult } from "./rpc.ts";
import type { KindSummary } from "./search-summary.ts";
import { mbPerSecond } from "./stats-math.ts";
import type { BuiltStore } from "./store-build.ts";

export const TARGETS = { captureMBps: 25, dbRatio: 3, searchP50: 2, searchP99: 20 } as const;

export type ReportInput = {
  date: string;
  quick: boolean;
  totalMs: number;
  machine: Machine;
  capture: CaptureRow[];
  cold: ColdRow;
  store: Omit<BuiltStore, "path">;
  search: KindSummary[];
  searchRun: { ran: number; planned: number; budgetMs: number; elapsedMs: number };
  examples: BenchQuery[];
  warmUp: number;
  loadAtEnd: string;
  agent: AgentRow[];
  agentRuns: number;
  rpc: RpcResult;
  readcache: ReadcacheResult;
  mcp: McpBenchResult;
};

export const kindName = (row: { kind: CorpusKind }) => (row.kind === "build" ? "(a) build/test log" : "(b) request log, UUID per line");
export const rate = (row: CaptureRow, t: number) => mbPerSecond(row.inputBytes, t);
/** The capture steps other than the SQLite transaction, each timed alone. */
export const cpuMs = (r: CaptureRow) => r.redactMs + r.chunkTitlesMs + r.tokensMs + r.hashMs + r.receiptMs;

/** The 10 MiB row of a log kind (the headline numbers), else the first row of that kind. */
export function headline(rows: readonly CaptureRow[], kind: CorpusKind): CaptureRow {
  return rows.find((r) => r.kind === kind && r.sizeLabel === "10 MiB") ?? rows.find((r) => r.kind === kind) ?? rows[0]!;
}
