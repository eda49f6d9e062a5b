/**
 * One upstream MCP server: started on first use, listed (every page) on each connect, shut
 * after `idle_timeout_ms` without calls and reopened transparently on the next one. A crash is
 * noticed when the transport closes; the next call reconnects after a backoff that grows with
 * recent crashes, and a server that keeps dying is left alone for a minute. A class because it
 * is state with a lifecycle.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  type Tool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { type CrashBackoff, crashBackoff, MAX_CRASHES } from "../crash-backoff.ts";
import { AppError, errorMessage } from "../errors.ts";
import { VERSION } from "../version.ts";
import type { ServerSpec } from "./server-spec.ts";

export type ConnectionStatus = "idle" | "connecting" | "ready" | "crashed" | "failed";

export type ConnectionDeps = {
  requestTimeoutMs: number;
  now?: () => number;
  log?: (line: string) => void;
  /** Called with the full tool list after every connect and every tools/list_changed. */
  onTools?: (tools: Tool[]) => void;
};

export type CallOptions = {
  signal?: AbortSignal;
  onProgress?: (progress: number, total: number | undefined, message: string | undefined) => void;
};

/** Variables a child inherits besides the SDK's base (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
const EXTRA_BASE_ENV = ["LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR"];
const MAX_PAGES = 1000;
const STDERR_TAIL = 2048;

export class ServerConnection {
  status: ConnectionStatus = "idle";
  lastError: string | null = null;
  tools: Tool[] | null = null;
  pid: number | null = null;
  private client: Client | null = null;
  private opening: Promise<Client> | null = null;
  private closing = false;
  private readonly crashes: CrashBackoff;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private inFlight = 0;
  private stderrTail = "";
  private readonly now: () => number;

  constructor(
    readonly spec: ServerSpec,
    private readonly deps: ConnectionDeps,
  ) {
    this.now = deps.now ?? Date.now;
    this.crashes = crashBackoff(this.now);
  }

  /** The connected client, starting or restarting the server when needed. */
  async ensure(): Promise<Client> {
    if (this.client && this.status === "ready") return this.client;
    this.opening ??= this.open().finally(() => {
      this.opening = null;
    });
    return this.opening;
  }

  async call(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    const client = await this.ensure();
    this.inFlight++;
    this.clearIdle();
    const timeout = this.spec.timeoutMs ?? this.deps.requestTimeoutMs;
    try {
      const onprogress = options.onProgress
        ? (p: { progress: number; total?: number; message?: string }) => options.onProgress!(p.progress, p.total, p.message)
        : undefined;
      return (await client.callTool({ name, arguments: args }, CallToolResultSchema, {
        signal: options.signal,
        timeout,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: timeout * 10,
        onprogress,
      })) as CallToolResult;
    } catch (error) {
      if (this.status === "crashed") {
        throw new AppError(
          "SERVER_EXITED",
          `MCP server "${this.spec.name}" stopped during the call${this.tail()}. It is restarted on the next call.`,
        );
      }
      throw error;
    } finally {
      this.inFlight--;
      this.touch();
    }
  }

  /** Lists again (e.g. after tools/list_changed) and reports the new list. */
  async relist(): Promise<Tool[]> {
    const client = await this.ensure();
    this.tools = await this.listAll(client);
    this.deps.onTools?.(this.tools);
    return this.tools;
  }

  async close(): Promise<void> {
    this.clearIdle();
    const client = this.client;
    if (!client) return;
    this.closing = true;
    try {
      await client.close();
    } catch {
      // already gone
    } finally {
      this.closing = false;
      this.client = null;
      this.pid = null;
      this.status = "idle";
    }
  }

  /** Milliseconds to wait before the next start, or null when the server is cooling down. */
  backoffMs(): number | null {
    return this.crashes.waitMs();
  }

  private async open(): Promise<Client> {
    const wait = this.backoffMs();
    if (wait === null) {
      const retryIn = this.crashes.restSeconds();
      throw new AppError(
        "COOLING_DOWN",
        `MCP server "${this.spec.name}" failed ${MAX_CRASHES} times in the last minute (${this.lastError ?? "no detail"}); it is left alone for ${retryIn} s. Check its entry in ${this.spec.file}.`,
      );
    }
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    this.status = "connecting";
    this.stderrTail = "";
    const started = this.now();
    try {
      const client = await this.connectTransport();
      this.client = client;
      this.status = "ready";
      this.lastError = null;
      this.tools = await this.listAll(client);
      this.deps.log?.(`mcp: ${this.spec.name} ready in ${this.now() - started} ms (${this.tools.length} tools)`);
      this.deps.onTools?.(this.tools);
      this.touch();
      return client;
    } catch (error) {
      this.crashes.crashed();
      this.status = "failed";
      this.lastError = `${errorMessage(error)}${this.tail()}`;
      await this.close().catch(() => {});
      this.status = "failed";
      throw new AppError(
        "START_FAILED",
        `Cannot start MCP server "${this.spec.name}" (${this.describe()}): ${this.lastError}. Check its entry in ${this.spec.file}.`,
      );
    }
  }

  private describe(): string {
    return this.spec.transport === "stdio" ? [this.spec.command, ...this.spec.args].join(" ") : this.spec.url;
  }

  private newClient(): Client {
    const client = new Client({ name: "pi-sidecar", version: VERSION }, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      await this.relist().catch((error) => this.deps.log?.(`mcp: ${this.spec.name}: relist failed: ${errorMessage(error)}`));
    });
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = null;
      this.pid = null;
      this.clearIdle();
      if (this.closing) return;
      this.status = "crashed";
      this.crashes.crashed();
      this.lastError = `the server exited${this.tail()}`;
      this.deps.log?.(`mcp: ${this.spec.name} exited unexpectedly`);
    };
    return client;
  }

  private async connectTransport(): Promise<Client> {
    const s = this.spec;
    const timeout = Math.max(this.deps.requestTimeoutMs, 60_000);
    if (s.transport === "stdio") {
      const env: Record<string, string> = {};
      for (const k of EXTRA_BASE_ENV) if (process.env[k]) env[k] = process.env[k]!;
      const transport = new StdioClientTransport({
        command: s.command,
        args: s.args,
        env: { ...env, ...s.env },
        cwd: s.cwd,
        stderr: "pipe",
      });
      transport.stderr?.on("data", (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL);
      });
      const client = this.newClient();
      await client.connect(transport, { timeout });
      this.pid = transport.pid;
      return client;
    }
    const requestInit = { headers: s.headers };
    let httpError: string | null = null;
    if (s.transport === "http") {
      const client = this.newClient();
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit }), { timeout });
        return client;
      } catch (error) {
        if (!s.fallbackToSse) throw error;
        httpError = errorMessage(error);
        this.deps.log?.(`mcp: ${s.name}: Streamable HTTP failed (${httpError}), trying SSE`);
      }
    }
    const client = this.newClient();
    try {
      await client.connect(new SSEClientTransport(new URL(s.url), { requestInit }), { timeout });
    } catch (error) {
      throw new AppError("START_FAILED", httpError ? `Streamable HTTP: ${httpError}; SSE: ${errorMessage(error)}` : errorMessage(error));
    }
    return client;
  }

  private async listAll(client: Client): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.listTools(cursor ? { cursor } : {}, { timeout: this.spec.timeoutMs ?? this.deps.requestTimeoutMs });
      tools.push(...r.tools);
      if (!r.nextCursor || r.nextCursor === cursor) break;
      cursor = r.nextCursor;
    }
    return tools;
  }

  private tail(): string {
    const t = this.stderrTail.trim();
    return t ? `; its last output: ${t.split("\n").slice(-5).join(" | ")}` : "";
  }

  private touch(): void {
    this.clearIdle();
    if (this.inFlight > 0 || this.spec.idleTimeoutMs <= 0 || !this.client) return;
    this.idleTimer = setTimeout(() => {
      this.deps.log?.(`mcp: ${this.spec.name} idle for ${this.spec.idleTimeoutMs} ms, disconnecting`);
      void this.close();
    }, this.spec.idleTimeoutMs);
    this.idleTimer.unref?.();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
