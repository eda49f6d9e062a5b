/**
 * Newline-delimited JSON-RPC 2.0 between the pi extension (on Node) and `pi-sidecar serve --stdio`.
 * Methods are the engine's methods; `params` is the array of their arguments.
 */
import type { Engine } from "../../engine.ts";

export type EngineMethod = Exclude<keyof Engine, "config" | "close">;

/** Every method of the engine, served and called over stdio; the check below fails to compile when one is missing. */
export const ENGINE_METHODS = [
  "capture",
  "search",
  "get",
  "exportSource",
  "list",
  "stats",
  "purge",
  "rewritten",
  "retention",
  "readcache",
  "prune",
  "kota",
  "memory",
  "settle",
  "usage",
  "retrievalLog",
  "readcacheStats",
  "pruneStats",
  "codeIndexStats",
] as const satisfies readonly EngineMethod[];
const allListed: Exclude<EngineMethod, (typeof ENGINE_METHODS)[number]> extends never ? true : never = true;
void allListed;

export type RpcError = { code: number; message: string; data?: { code?: string } };
export type RpcResponse = { jsonrpc: "2.0"; id: number | string | null; result?: unknown; error?: RpcError };

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
/** An AppError from the engine; `data.code` carries its code. */
export const ENGINE_ERROR = -32000;
