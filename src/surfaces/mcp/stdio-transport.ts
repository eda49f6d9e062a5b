/**
 * MCP over stdio, strict about what comes in: every frame that is not a valid JSON-RPC message
 * is answered with the JSON-RPC error it deserves (-32700 parse error, -32600 invalid request,
 * id null when the id cannot be trusted), a frame over the size limit is answered with an error
 * naming the limit (and never buffered whole), and when the client closes stdin the requests
 * already received are finished and answered before the transport closes. A class: a stream
 * with a lifecycle.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { lineSplitter } from "../../json-lines.ts";
import { formatBytes } from "../../units.ts";

export const MAX_FRAME_BYTES = 10 * 1024 * 1024;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

type Id = string | number;

/** A request or notification we can hand on, or the error to answer (with the id it may carry). */
export function checkFrame(line: string): { message: JSONRPCMessage } | { error: { code: number; message: string }; id: Id | null } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: { code: PARSE_ERROR, message: "Parse error: each line must be one JSON-RPC message" }, id: null };
  }
  if (Array.isArray(value))
    return { error: { code: INVALID_REQUEST, message: "Invalid Request: batches are not supported; send one message per line" }, id: null };
  if (typeof value !== "object" || value === null)
    return { error: { code: INVALID_REQUEST, message: "Invalid Request: a message must be a JSON object" }, id: null };
  const m = value as Record<string, unknown>;
  const validId = (typeof m.id === "string" && m.id !== "") || (typeof m.id === "number" && Number.isSafeInteger(m.id));
  const id = validId ? (m.id as Id) : null;
  if (m.jsonrpc !== "2.0") return { error: { code: INVALID_REQUEST, message: 'Invalid Request: "jsonrpc" must be "2.0"' }, id };
  const isResponse = !("method" in m) && ("result" in m || "error" in m);
  if (isResponse)
    return validId
      ? { message: m as JSONRPCMessage }
      : { error: { code: INVALID_REQUEST, message: "Invalid Request: a response needs the id it answers" }, id: null };
  if (typeof m.method !== "string" || m.method === "")
    return { error: { code: INVALID_REQUEST, message: 'Invalid Request: "method" must be a non-empty string' }, id };
  if ("id" in m && !validId)
    return {
      error: { code: INVALID_REQUEST, message: "Invalid Request: id must be a string or an integer (not null, not a fraction)" },
      id: null,
    };
  if ("params" in m && (typeof m.params !== "object" || m.params === null)) {
    return { error: { code: INVALID_REQUEST, message: 'Invalid Request: "params" must be an object or an array' }, id };
  }
  return { message: m as JSONRPCMessage };
}

export class StdioLineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private readonly pending = new Set<Id>();
  private ended = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly write: (text: string) => void,
    private readonly maxFrameBytes = MAX_FRAME_BYTES,
  ) {}

  async start(): Promise<void> {
    const split = lineSplitter((line) => this.receive(line), {
      maxBytes: this.maxFrameBytes,
      onTooLong: () =>
        this.reply(null, {
          code: INVALID_REQUEST,
          message: `Invalid Request: a message is limited to ${formatBytes(this.maxFrameBytes)}; this one was longer and was dropped`,
        }),
    });
    this.input.on("data", (piece: Buffer | string) => split.push(piece));
    this.input.once("end", () => {
      split.end();
      this.ended = true;
      this.closeWhenIdle();
    });
    this.input.once("error", (error: Error) => this.onerror?.(error));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    this.write(`${JSON.stringify(message)}\n`);
    const m = message as { id?: Id; method?: string };
    if (m.method === undefined && m.id !== undefined) {
      this.pending.delete(m.id);
      this.closeWhenIdle();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private receive(line: string): void {
    if (line.trim() === "") return;
    const r = checkFrame(line);
    if ("error" in r) {
      this.reply(r.id, r.error);
      return;
    }
    const m = r.message as { id?: Id; method?: string };
    if (m.method !== undefined && m.id !== undefined) this.pending.add(m.id);
    this.onmessage?.(r.message);
  }

  private reply(id: Id | null, error: { code: number; message: string }): void {
    if (!this.closed) this.write(`${JSON.stringify({ jsonrpc: "2.0", id, error })}\n`);
  }

  /** After stdin ended, close once every request received has been answered. */
  private closeWhenIdle(): void {
    if (this.ended && this.pending.size === 0) setImmediate(() => void this.close());
  }
}
