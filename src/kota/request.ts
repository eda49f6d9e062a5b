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

/** Every operation: what it takes and what it answers. Requests and answers are derived from this one map. */
export type KotaOps = {
  index: { args: { full?: boolean }; result: IndexResult };
  search: { args: SearchOptions; result: SearchResult };
  deps: { args: DepsOptions; result: DepsResult };
  usages: { args: UsagesOptions; result: UsagesResult };
  impact: { args: ImpactOptions & { description?: string }; result: ImpactResult };
  taskContext: { args: TaskContextOptions; result: TaskContextResult };
  status: { args: Record<never, never>; result: StatusResult };
  restart: { args: Record<never, never>; result: StatusResult };
};

export type KotaOp = keyof KotaOps;

type Base = {
  /** The repository root, or any file or folder inside it (the root is found by .git or package.json upwards). */
  repo: string;
  /** Overrides kota.backend for this request. */
  backend?: KotaBackendName;
};

/** A request for `O` (by default: any operation). */
export type KotaRequest<O extends KotaOp = KotaOp> = { [K in O]: Base & { op: K } & KotaOps[K]["args"] }[O];

/** The answer to a request for `O`: the op, the backend and the repository root beside the contract's result. */
export type KotaAnswer<O extends KotaOp = KotaOp> = {
  [K in O]: { op: K; backend: KotaBackendName; repository: string; result: KotaOps[K]["result"] };
}[O];

export type KotaCallOptions = {
  signal?: AbortSignal;
  /** Index progress: files parsed so far of the files to parse. */
  onProgress?(done: number, total: number): void;
};

/** What surfaces call: the engine (in-process or over stdio RPC) or the service itself. */
export type KotaLike = { kota(request: KotaRequest, options?: KotaCallOptions): Promise<Result<KotaAnswer>> };

export const KOTA_OPS: readonly KotaOp[] = ["index", "search", "deps", "usages", "impact", "taskContext", "status", "restart"];

/** Asks for `O` and answers with `O`'s own result type: the one place an answer is matched to its request. */
export async function ask<O extends KotaOp>(
  kota: KotaLike,
  request: KotaRequest<O>,
  options?: KotaCallOptions,
): Promise<Result<KotaAnswer<O>>> {
  const r = await kota.kota(request as KotaRequest, options);
  if (!r.ok) return r;
  if (r.op !== request.op) throw new Error(`kota answered ${r.op} to a ${request.op} request`);
  return r as KotaAnswer<O> & { ok: true };
}
