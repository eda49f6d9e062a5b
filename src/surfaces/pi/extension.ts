/**
 * The pi extension: oversized tool results go to the context store and the model gets a
 * receipt plus four tools to get back what it needs. In-process under Bun, stdio under Node.
 * Loaded by pi from the bundle (dist/extension/index.js) that `pi-sidecar install pi` writes.
 */
import { writeSync } from "node:fs";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { type TSchema, Type } from "typebox";
import { loadConfig } from "../../config.ts";
import { debugLog } from "../../debug.ts";
import type { Engine } from "../../engine.ts";
import { errorMessage } from "../../errors.ts";
import { formatBytes, parseLineRange } from "../../units.ts";
import { captureToolResult } from "../tools/capture-output.ts";
import { PI_TOOLS, type ToolSpec } from "../tools/definitions.ts";
import { formatStatsBrief, runTool } from "../tools/handlers.ts";
import { type Connection, connect } from "./connect.ts";
import { registerMcp } from "./mcp.ts";
import { registerReadCache } from "./readcache.ts";

function typeboxParams(spec: ToolSpec): TSchema {
  const props: Record<string, TSchema> = {};
  for (const [name, p] of Object.entries(spec.params)) {
    const opts = {
      description: p.description,
      ...(p.minimum !== undefined ? { minimum: p.minimum } : {}),
      ...(p.maximum !== undefined ? { maximum: p.maximum } : {}),
    };
    const schema = p.type === "string" ? Type.String(opts) : p.type === "integer" ? Type.Integer(opts) : Type.Boolean(opts);
    props[name] = p.required ? schema : Type.Optional(schema);
  }
  return Type.Object(props);
}

/** Prints a command's answer where the user sees it, in every mode. */
function say(ctx: ExtensionContext, text: string): void {
  if (ctx.mode === "print") writeSync(1, `${text}\n`);
  else if (ctx.mode === "json") writeSync(1, `${JSON.stringify({ type: "pi_sidecar", text })}\n`);
  else ctx.ui.notify(text, "info");
}

export default async function piSidecar(pi: ExtensionAPI): Promise<void> {
  const { config, errors } = loadConfig({ cwd: process.cwd() });
  for (const problem of errors) process.stderr.write(`pi-sidecar: config: ${problem}\n`);
  const log = debugLog();
  let connection: Promise<Connection | null> | null = null;
  let problem = "the engine was not started";
  let stored = 0;
  let keptOut = 0;

  const engine = async (): Promise<Engine | null> => {
    const started = Date.now();
    connection ??= connect(config, log)
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
  };
  const scope = (ctx: ExtensionContext) => ({ session: ctx.sessionManager.getSessionId(), project: ctx.cwd });

  const readcache = config.readcache.enabled ? registerReadCache(pi, config, engine, log) : null;

  pi.on("tool_result", async (event, ctx) => {
    let replacement: Awaited<ReturnType<typeof captureToolResult>>;
    try {
      replacement = await captureToolResult(await engine(), config, event, scope(ctx), () => problem);
    } catch (error) {
      // A sidecar bug must never break a tool call: the result goes through unchanged.
      log(`tool_result: ${errorMessage(error)}`);
      return undefined;
    }
    if (event.toolName === "read" && readcache) {
      // A read the store replaced with a receipt showed the model nothing: it trusts no lines.
      const rc = (replacement?.details as { readcache?: { trusted?: unknown } } | undefined)?.readcache;
      if (replacement && rc) replacement.details.readcache = { ...rc, trusted: [], mode: "stored" };
      readcache.onReadResult(replacement?.details ?? event.details);
    }
    const info = replacement?.details.piSidecar as { sourceId?: string; bytes?: number } | undefined;
    if (info?.sourceId) {
      stored++;
      keptOut += info.bytes ?? 0;
      ctx.ui.setStatus("pi-sidecar", `sidecar: ${stored} stored, ${formatBytes(keptOut)} kept out`);
    }
    return replacement;
  });

  for (const spec of PI_TOOLS) {
    pi.registerTool({
      name: spec.name,
      label: spec.label,
      description: spec.description,
      promptSnippet: spec.name === "context_search" ? "Search stored tool output named by a pi-sidecar receipt" : undefined,
      parameters: typeboxParams(spec),
      async execute(_id, params, _signal, _onUpdate, ctx) {
        const e = await engine();
        if (!e) throw new Error(`pi-sidecar is unavailable (${problem}).`);
        const outcome = await runTool(e, spec.name, params as Record<string, unknown>, scope(ctx));
        if (outcome.isError) throw new Error(outcome.text);
        return { content: [{ type: "text", text: outcome.text }], details: outcome.details };
      },
    });
  }

  pi.registerCommand("context-stats", {
    description: "pi-sidecar: tokens kept out of the context, spent on receipts and retrieval, and net saved",
    handler: async (_args, ctx) => {
      const e = await engine();
      if (!e) return say(ctx, `pi-sidecar is unavailable (${problem}).`);
      const session = await e.stats({ session: ctx.sessionManager.getSessionId() });
      const all = await e.stats({});
      say(ctx, formatStatsBrief(session, all));
    },
  });

  if (readcache) {
    pi.registerCommand("readcache-status", {
      description: "pi-sidecar read cache: tracked files, modes served, tokens saved",
      handler: async (_args, ctx) => say(ctx, readcache.status()),
    });
    pi.registerCommand("readcache-refresh", {
      description: "pi-sidecar read cache: forget a file (or lines A-B) so the next read returns the text",
      handler: async (args, ctx) => {
        const [path, lines] = (args ?? "").trim().split(/\s+/);
        if (!path) return say(ctx, "Usage: /readcache-refresh PATH [A-B]");
        const range = lines ? parseLineRange(lines) : undefined;
        if (range === null) return say(ctx, `Lines must look like 10-40, got ${lines}.`);
        readcache.refresh(ctx.cwd, path, range ? [range.from, range.to] : undefined);
        say(ctx, `The next read of ${path}${range ? ` lines ${range.from}-${range.to}` : ""} returns the text.`);
      },
    });
  }

  try {
    await registerMcp(pi, config, say, log);
  } catch (error) {
    // The MCP gateway failing must not take the context store down with it.
    process.stderr.write(`pi-sidecar: mcp: ${errorMessage(error)}\n`);
  }

  pi.on("session_shutdown", async () => {
    const current = connection;
    connection = null;
    const c = await current;
    await c?.engine.close();
  });
}
