/**
 * The one request shape every surface sends to code intelligence (engine, stdio RPC, tools, CLI):
 * an `op`, the repository (its root or any path inside it), and that op's arguments. Answers carry
 * the op, the backend and the repository root beside the contract's result.
 */
import type { Result } from "../errors.ts";
import type {
  DepsOptions,
  DepsResult,
  ImpactOptions,
  ImpactResult,
  IndexResult,
  KotaBackendName,
  SearchOptions,
  SearchResult,
  StatusResult,
  TaskContextOptions,
  TaskContextResult,
  UsagesOptions,
  UsagesResult,
} from "./contract.ts";

export type KotaOp = "index" | "search" | "deps" | "usages" | "impact" | "taskContext" | "status" | "restart";

type Base = {
  /** The repository root, or any file or folder inside it (the root is found by .git or package.json upwards). */
  repo: string;
  /** Overrides kota.backend for this request. */
  backend?: KotaBackendName;
};

export type KotaRequest =
  | (Base & { op: "index"; full?: boolean })
  | (Base & { op: "search" } & SearchOptions)
  | (Base & { op: "deps" } & DepsOptions)
  | (Base & { op: "usages" } & UsagesOptions)
  | (Base & { op: "impact"; description?: string } & ImpactOptions)
  | (Base & { op: "taskContext" } & TaskContextOptions)
  | (Base & { op: "status" })
  | (Base & { op: "restart" });

type Answer<O extends KotaOp, R> = { op: O; backend: KotaBackendName; repository: string; result: R };

export type KotaAnswer =
  | Answer<"index", IndexResult>
  | Answer<"search", SearchResult>
  | Answer<"deps", DepsResult>
  | Answer<"usages", UsagesResult>
  | Answer<"impact", ImpactResult>
  | Answer<"taskContext", TaskContextResult>
  | Answer<"status", StatusResult>
  | Answer<"restart", StatusResult>;

export type KotaCallOptions = {
  signal?: AbortSignal;
  /** Index progress: files parsed so far of the files to parse. */
  onProgress?(done: number, total: number): void;
};

/** What surfaces call: the engine (in-process or over stdio RPC) or the service itself. */
export type KotaLike = { kota(request: KotaRequest, options?: KotaCallOptions): Promise<Result<KotaAnswer>> };

export const KOTA_OPS: readonly KotaOp[] = ["index", "search", "deps", "usages", "impact", "taskContext", "status", "restart"];
