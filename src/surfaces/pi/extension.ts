/**
 * The pi extension: oversized tool results go to the context store and the model gets a receipt
 * plus tools to get back what it needs; `read` goes through the read cache; the user's MCP servers
 * sit behind the gateway. Nothing heavy happens at pi's start: the engine starts with the first
 * output that has to be stored (in-process under Bun, a stdio child under Node), the MCP SDK with
 * the first server call, the tokenizer on a worker thread.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { loadConfig } from "../../config.ts";
import { debugLog } from "../../debug.ts";
import { errorMessage } from "../../errors.ts";
import { formatBytes } from "../../units.ts";
import { captureToolResult } from "../tools/capture-output.ts";
import { registerCommands, say } from "./commands.ts";
import { type Connection, connect } from "./connect.ts";
import type { EngineHandle } from "./engine-handle.ts";
import type { PiHost } from "./host.ts";
import { registerKota } from "./kota.ts";
import { hostHasMcp, registerMcp } from "./mcp.ts";
import { registerMemory } from "./memory.ts";
import { registerPruning } from "./prune.ts";
import { registerReadCache } from "./readcache.ts";
import { sidecarCommand } from "./sidecar-command.ts";
import { registerContextTools } from "./tools.ts";
import { registerWebCommand } from "./web.ts";

export async function activate(pi: ExtensionAPI, host: PiHost): Promise<void> {
  const { config, errors } = loadConfig({ cwd: process.cwd() });
  for (const problem of errors) process.stderr.write(`pi-sidecar: config: ${problem}\n`);
  const log = debugLog();
  log(
    `pi ${host.piVersion} on ${process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`}${hostHasMcp(pi) ? ", with its own MCP support" : ""}`,
  );
  let connection: Promise<Connection | null> | null = null;
  let problem = "the engine was not started";
  const engine: EngineHandle = {
    async get() {
      const started = Date.now();
      connection ??= connect(config, log, host.dir)
        .then((c) => {
          log(`engine: ${c.transport} (${Date.now() - started} ms)`);
          return c;
        })
        .catch((error) => {
          problem = `cannot start the engine: ${errorMessage(error)}`;
          log(problem);
          return null;
        });
      return (await connection)?.engine ?? null;
    },
    problem: () => problem,
  };
  const scope = (ctx: ExtensionContext) => ({ session: ctx.sessionManager.getSessionId(), project: ctx.cwd });
  const readcache = config.readcache.enabled ? registerReadCache(pi, host, config, engine.get, log) : null;
  // Before the capture below: memory sees a failed command's own output, not its receipt.
  registerMemory(pi, host, engine, config, say, log);

  let stored = 0;
  let keptOut = 0;
  pi.on("tool_result", async (event, ctx) => {
    // A call made by another tool (a pi 1.x codemode script) returns to that tool, not to the
    // model: the script needs the whole result; what the script returns is captured in turn.
    if ((event as { parentToolCallId?: string }).parentToolCallId) return undefined;
    let replacement: Awaited<ReturnType<typeof captureToolResult>>;
    try {
      replacement = await captureToolResult(engine.get, config, event, scope(ctx), engine.problem);
    } catch (error) {
      // A sidecar bug must never break a tool call: the result goes through unchanged.
      log(`tool_result: ${errorMessage(error)}`);
      return undefined;
    }
    if (event.toolName === "read") readcache?.onReadResult(event.details);
    const info = replacement?.details.piSidecar as { sourceId?: string; bytes?: number } | undefined;
    if (info?.sourceId) {
      stored++;
      keptOut += info.bytes ?? 0;
      ctx.ui.setStatus("pi-sidecar", `sidecar: ${stored} stored, ${formatBytes(keptOut)} kept out`);
    }
    return replacement;
  });

  registerContextTools(pi, host, engine, scope);
  registerCommands(pi, engine, readcache, scope);
  const pruning = registerPruning(pi, config, engine, readcache, log);
  registerKota(pi, host, engine.get, config, say, log, pruning);
  const sidecar = sidecarCommand();
  registerWebCommand(pi, config, host.dir, sidecar);

  try {
    await registerMcp(pi, sidecar, config, say, log);
  } catch (error) {
    // The MCP gateway failing must not take the context store down with it.
    process.stderr.write(`pi-sidecar: mcp: ${errorMessage(error)}\n`);
  }
  sidecar.register(pi);

  pi.on("session_shutdown", async () => {
    const current = connection;
    connection = null;
    const c = await current;
    await c?.engine.close();
  });
}
