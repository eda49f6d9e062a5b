/**
 * One KotaDB process for one repository, spoken to over MCP (the SDK is imported on first start).
 * Started on first use; a crash is noticed when the transport closes and the next call starts it
 * again after a backoff that doubles with each recent crash (five in a minute: it is left alone for
 * the rest of the minute). A request past its timeout restarts it, so a runaway query (KotaDB's
 * deep dependency walks can take minutes) does not hold up the next one. Its stderr goes to our
 * log, never to our stdout. A class because it is state with a lifecycle.
 */

import type { Readable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type CrashBackoff, crashBackoff, MAX_CRASHES } from "../../crash-backoff.ts";
import { errorMessage, fail, type Result } from "../../errors.ts";
import { globalConfigPath } from "../../paths.ts";
import { VERSION } from "../../version.ts";
import { KOTA_ERRORS, type ServerInfo, type ServerState } from "../contract.ts";
import type { KotaDbLaunch } from "./launch.ts";

export type KotaDbProcess = { transport: Transport; pid(): number | null; stderr: Readable | null };
export type SpawnKotaDb = (launch: KotaDbLaunch) => KotaDbProcess | Promise<KotaDbProcess>;

/** The real thing: the MCP SDK's stdio transport (imported here, on first start). */
export const spawnKotaDb: SpawnKotaDb = async (launch) => {
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    cwd: launch.cwd,
    env: launch.env,
    stderr: "pipe",
  });
  return { transport, pid: () => transport.pid, stderr: transport.stderr as Readable | null };
};

export type ServerDeps = {
  spawn?: SpawnKotaDb;
  timeoutMs: number;
  log?: (line: string) => void;
  now?: () => number;
};

type McpClient = import("@modelcontextprotocol/sdk/client/index.js").Client;

const START_TIMEOUT_MS = 120_000;
const TAIL = 4096;

export function switchHint(): string {
  return (
    `To use the built-in index instead (offline, nothing to download), set "kota": {"backend": "builtin"} in ` +
    `${globalConfigPath()} or PI_SIDECAR_KOTA_BACKEND=builtin.`
  );
}

export class KotaDbServer {
  state: ServerState = "stopped";
  lastError: string | null = null;
  private starts = 0;
  private client: McpClient | null = null;
  private proc: KotaDbProcess | null = null;
  private opening: Promise<McpClient> | null = null;
  private closing = false;
  private readonly crashes: CrashBackoff;
  private tail = "";
  private readonly now: () => number;

  constructor(
    readonly launch: KotaDbLaunch,
    private readonly deps: ServerDeps,
  ) {
    this.now = deps.now ?? Date.now;
    this.crashes = crashBackoff(this.now);
  }

  info(): ServerInfo {
    return {
      state: this.state,
      pid: this.proc?.pid() ?? null,
      restarts: Math.max(0, this.starts - 1),
      lastError: this.lastError,
      command: this.launch.display,
    };
  }

  /** Calls one KotaDB tool and parses its JSON answer. A crash during the call is retried once on a fresh process. */
  async call(
    name: string,
    args: Record<string, unknown>,
    opts: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<Result<{ json: unknown }>> {
    for (let attempt = 0; ; attempt++) {
      let client: McpClient;
      try {
        client = await this.ensure();
      } catch (error) {
        return fail(KOTA_ERRORS.BACKEND_UNAVAILABLE, errorMessage(error));
      }
      const timeout = opts.timeoutMs ?? this.deps.timeoutMs;
      try {
        const r = (await client.callTool({ name, arguments: args }, undefined, { signal: opts.signal, timeout })) as {
          content?: { type: string; text?: string }[];
          isError?: boolean;
        };
        const text = (r.content ?? []).map((c) => c.text ?? "").join("");
        if (r.isError) return fail(KOTA_ERRORS.BAD_INPUT, `KotaDB ${name}: ${text}`);
        try {
          return { ok: true, json: JSON.parse(text) };
        } catch {
          return fail(KOTA_ERRORS.BACKEND_UNAVAILABLE, `KotaDB ${name} answered with something that is not JSON: ${text.slice(0, 200)}`);
        }
      } catch (error) {
        if (opts.signal?.aborted) return fail(KOTA_ERRORS.CANCELLED, `KotaDB ${name} was cancelled.`);
        const message = errorMessage(error);
        if (/timed out|timeout/i.test(message)) {
          this.deps.log?.(`kota: KotaDB ${name} took over ${timeout} ms; restarting it`);
          await this.close();
          return fail(
            KOTA_ERRORS.BACKEND_UNAVAILABLE,
            `KotaDB did not answer ${name} within ${Math.round(timeout / 1000)} s (its dependency walks past depth 1 on a hub file can take minutes), so it was restarted. ` +
              `Ask for less (depth 1, one file), raise kota.timeoutMs, or use the builtin backend.`,
          );
        }
        if (this.state === "crashed" && attempt === 0) continue;
        if (this.state === "crashed") {
          return fail(
            KOTA_ERRORS.BACKEND_UNAVAILABLE,
            `KotaDB stopped during ${name}${this.tailText()}. It is started again on the next call.`,
          );
        }
        // KotaDB reports bad arguments as JSON-RPC errors.
        return fail(KOTA_ERRORS.BAD_INPUT, `KotaDB ${name}: ${message.replace(/^MCP error -?\d+: /, "")}`);
      }
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    const opening = this.opening;
    this.client = null;
    if (!client && !opening) return;
    this.closing = true;
    try {
      await (client ?? (await opening!.catch(() => null)))?.close();
    } catch {
      // already gone
    } finally {
      this.closing = false;
      this.proc = null;
      if (this.state !== "failed") this.state = "stopped";
    }
  }

  private async ensure(): Promise<McpClient> {
    if (this.client && this.state === "running") return this.client;
    this.opening ??= this.open().finally(() => {
      this.opening = null;
    });
    return this.opening;
  }

  /** Milliseconds to wait before the next start, or null while cooling down after repeated crashes. */
  backoffMs(): number | null {
    return this.crashes.waitMs();
  }

  private async open(): Promise<McpClient> {
    const wait = this.backoffMs();
    if (wait === null) {
      throw new Error(
        `KotaDB failed ${MAX_CRASHES} times in the last minute (${this.lastError ?? "no detail"}); it is left alone for a minute. ${switchHint()}`,
      );
    }
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    this.state = "starting";
    this.tail = "";
    this.starts++;
    const started = this.now();
    let proc: KotaDbProcess | null = null;
    try {
      const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
      proc = await (this.deps.spawn ?? spawnKotaDb)(this.launch);
      proc.stderr?.on("data", (chunk: Buffer) => {
        const text = chunk.toString("utf8");
        this.tail = (this.tail + text).slice(-TAIL);
        for (const line of text.split("\n")) if (line.trim()) this.deps.log?.(`kotadb: ${line.trim().slice(0, 300)}`);
      });
      const client = new Client({ name: "pi-sidecar", version: VERSION }, { capabilities: {} });
      client.onclose = () => {
        if (this.client !== client) return;
        this.client = null;
        this.proc = null;
        if (this.closing) return;
        this.state = "crashed";
        this.crashes.crashed();
        this.lastError = `KotaDB exited${this.tailText()}`;
        this.deps.log?.("kota: KotaDB exited unexpectedly");
      };
      this.proc = proc;
      await client.connect(proc.transport, { timeout: Math.max(START_TIMEOUT_MS, this.deps.timeoutMs) });
      this.client = client;
      this.state = "running";
      this.lastError = null;
      this.deps.log?.(`kota: KotaDB ready in ${this.now() - started} ms (pid ${proc.pid()})`);
      return client;
    } catch (error) {
      this.crashes.crashed();
      this.closing = true;
      await proc?.transport.close().catch(() => {});
      this.closing = false;
      this.proc = null;
      this.state = "failed";
      this.lastError = this.startProblem(errorMessage(error));
      throw new Error(this.lastError);
    }
  }

  private startProblem(reason: string): string {
    const tail = this.tail;
    const registry = /\b404\b|registry|ENOTFOUND|ECONNREFUSED|EAI_AGAIN|getaddrinfo|network|offline|ConnectionRefused/i.test(tail);
    const missing = /ENOENT|not found|cannot start/i.test(tail) && !registry;
    const why = registry
      ? "The package registry did not serve kotadb (offline, or the registry refused it)."
      : missing
        ? "The command was not found."
        : "It exited before answering.";
    return `KotaDB could not start (\`${this.launch.display}\`: ${reason}${this.tailText()}). ${why} ${switchHint()}`;
  }

  private tailText(): string {
    const lines = this.tail
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(-4);
    return lines.length > 0 ? `; its last output: ${lines.join(" | ").slice(0, 600)}` : "";
  }
}
