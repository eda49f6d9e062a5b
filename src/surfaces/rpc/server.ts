/**
 * `pi-sidecar serve --stdio`: the engine behind newline-delimited JSON-RPC on stdin/stdout.
 * Nothing but response frames is ever written to stdout; diagnostics go to stderr.
 */
import type { Engine } from "../../engine.ts";
import { AppError, errorMessage } from "../../errors.ts";
import { VERSION } from "../../version.ts";
import {
  ENGINE_ERROR,
  ENGINE_METHODS,
  type EngineMethod,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  type RpcResponse,
} from "./protocol.ts";

export type RpcIo = {
  lines: AsyncIterable<string>;
  write: (frame: string) => void;
  log: (message: string) => void;
};

export async function handleFrame(engine: Engine, line: string): Promise<RpcResponse | null> {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    return { jsonrpc: "2.0", id: null, error: { code: PARSE_ERROR, message: "Parse error: each line must be one JSON-RPC request" } };
  }
  if (
    typeof msg !== "object" ||
    msg === null ||
    (msg as { jsonrpc?: unknown }).jsonrpc !== "2.0" ||
    typeof (msg as { method?: unknown }).method !== "string"
  ) {
    const id = (msg as { id?: unknown } | null)?.id;
    return {
      jsonrpc: "2.0",
      id: typeof id === "number" || typeof id === "string" ? id : null,
      error: { code: INVALID_REQUEST, message: 'Invalid request: expected {jsonrpc: "2.0", id, method, params}' },
    };
  }
  const { id, method, params } = msg as { id?: number | string; method: string; params?: unknown };
  const isNotification = id === undefined;
  const reply = (body: Omit<RpcResponse, "jsonrpc" | "id">): RpcResponse | null =>
    isNotification ? null : { jsonrpc: "2.0", id: id!, ...body };
  if (method === "ping") return reply({ result: { version: VERSION, pid: process.pid } });
  if (!ENGINE_METHODS.includes(method as EngineMethod)) {
    return reply({ error: { code: METHOD_NOT_FOUND, message: `Unknown method "${method}". Methods: ping, ${ENGINE_METHODS.join(", ")}` } });
  }
  if (params !== undefined && !Array.isArray(params)) {
    return reply({ error: { code: INVALID_PARAMS, message: "params must be the array of the method's arguments" } });
  }
  try {
    const fn = engine[method as EngineMethod] as (...args: unknown[]) => Promise<unknown>;
    return reply({ result: await fn(...(params ?? [])) });
  } catch (error) {
    const code = error instanceof AppError ? error.code : "INTERNAL";
    return reply({ error: { code: ENGINE_ERROR, message: errorMessage(error), data: { code } } });
  }
}

/**
 * Serves until stdin closes, then answers what is still running. Each request reaches the engine in
 * arrival order (the engine runs its operations one at a time in call order); answers go out as
 * they are ready, so one that waits long (`rewritten`, a kota index) holds up no other.
 */
export async function serveRpc(engine: Engine, io: RpcIo): Promise<void> {
  const running = new Set<Promise<void>>();
  for await (const line of io.lines) {
    if (line.trim() === "") continue;
    const answered = handleFrame(engine, line).then((response) => {
      if (response) io.write(`${JSON.stringify(response)}\n`);
    });
    running.add(answered);
    void answered.finally(() => running.delete(answered));
  }
  await Promise.all(running);
}
