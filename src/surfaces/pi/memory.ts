/**
 * Episodic memory in pi. Capture (memory.capture, on by default, per project opt-out): the user's
 * prompts (corrections are recognised by the service), final answers shortened, failed commands,
 * tool errors and the files a turn edited; nothing from files the read cache treats as sensitive.
 * Captured events never start the engine: each turn's events are redacted and left in the spool
 * (memory/spool-file.ts) after the turn, and the engine takes them in with its next memory
 * request. The tools memory_search and memory_recall; injection before prompts only when
 * memory.inject says so (off by default), saying what it injected and how to stop it; `/memory`.
 */
import { isAbsolute, relative, resolve } from "node:path";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Config } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { errorMessage } from "../../errors.ts";
import {
  answerOf,
  disabledProjects,
  type EventKind,
  editedFiles,
  failedCommand,
  hasMemory,
  type MemoryRequest,
  type SpooledEvent,
  shortAnswer,
  spoolDir,
  spoolFiles,
  toolError,
  writeSpool,
} from "../../memory/index.ts";
import { isSensitivePath } from "../../readcache/index.ts";
import { redact } from "../../redact/redact.ts";
import { REWRITE_RUNNING } from "../../rewrite-text.ts";
import { MEMORY_TOOLS, runMemoryTool } from "../tools/memory-tools.ts";
import { tellWhenRewritten } from "./commands.ts";
import type { EngineHandle } from "./engine-handle.ts";
import type { PiHost } from "./host.ts";
import { statusLine } from "./status.ts";
import { typeboxParams } from "./tool-schema.ts";

const MESSAGE_TYPE = "pi-sidecar-memory";
/** A spool this long means nothing took it in for many turns: take it in after the turn. */
const BACKLOG_FILES = 100;
/** The spool's cap per event (the service cuts at memory.maxEventBytes and keeps the whole text in the store). */
const MAX_SPOOLED_CHARS = 256 * 1024;
const OWN_TOOLS = new Set(MEMORY_TOOLS.map((t) => t.name));
const FILE_TOOLS = new Set(["read", "edit", "write"]);
const SUMMARY_PROMPT =
  "You summarise a coding agent's memory events for its future sessions. Reply with at most 15 lines, each `- eN kind: text` " +
  "naming the event it keeps. Keep corrections, decisions, preferences and facts verbatim or nearly; keep errors briefly; " +
  "where a later event contradicts an earlier one keep only the later. No other text.";

type Say = (ctx: ExtensionContext, text: string) => void;

const textOf = (content: unknown): string =>
  Array.isArray(content)
    ? content
        .filter((c): c is { type: "text"; text: string } => c?.type === "text" && typeof c.text === "string")
        .map((c) => c.text)
        .join("\n")
    : typeof content === "string"
      ? content
      : "";

/** A path as the project knows it (relative inside it), or null when the file is sensitive. */
function shownPath(cwd: string, raw: unknown, sensitive: readonly string[]): string | null {
  if (typeof raw !== "string" || raw.trim() === "") return null;
  const abs = isAbsolute(raw) ? raw : resolve(cwd, raw);
  if (isSensitivePath(abs, sensitive)) return null;
  const rel = relative(cwd, abs);
  return rel.startsWith("..") || isAbsolute(rel) ? abs : rel;
}

/** A command line that names a sensitive file (cat .env, openssl ... key.pem). */
function touchesSensitive(command: string, sensitive: readonly string[]): boolean {
  return command.split(/[\s;|&<>()'"`=]+/).some((word) => word !== "" && isSensitivePath(word, sensitive));
}

export function registerMemory(
  pi: ExtensionAPI,
  host: PiHost,
  engine: EngineHandle,
  config: Readonly<Config>,
  say: Say,
  log: (line: string) => void,
): void {
  const settings = config.memory;
  const sensitive = config.readcache.sensitive;
  const dir = spoolDir(config.db);
  const buffer: SpooledEvent[] = [];
  const edited = new Set<string>();
  const injectedSessions = new Set<string>();
  let offHere = false;
  let pendingModel: Promise<void> | null = null;

  const scope = (ctx: ExtensionContext) => ({ project: ctx.cwd, session: ctx.sessionManager.getSessionId() });
  const capture = (ctx: ExtensionContext, kind: EventKind, text: string) => {
    if (!settings.capture || offHere || text.trim() === "") return;
    const s = scope(ctx);
    buffer.push({ project: s.project, session: s.session, kind, text: text.slice(0, MAX_SPOOLED_CHARS), ts: Date.now() });
  };
  /** Writes the buffered events to the spool, redacted; those of a project whose memory is off are dropped. */
  const flush = () => {
    if (buffer.length === 0) return;
    const events = buffer.splice(0);
    const off = disabledProjects(dir);
    const kept = events.filter((e) => !off.has(e.project)).map((e) => ({ ...e, text: redact(e.text).text }));
    if (!writeSpool(dir, kept)) log(`memory: could not write ${kept.length} events to the spool ${dir}`);
  };
  /** The engine, with this turn's events spooled first (its next memory request takes them in). */
  const memoryEngine = async (): Promise<Engine | null> => {
    flush();
    return engine.get();
  };
  const ask = async (e: Engine, request: MemoryRequest) => {
    const r = await e.memory(request);
    if (!r.ok) throw new Error(r.message);
    return r;
  };

  // The tools only where there is something to recall: a new project pays no tool tokens (a file check, no database).
  const tools = hasMemory(dir, process.cwd()) ? MEMORY_TOOLS : [];
  for (const spec of tools) {
    pi.registerTool({
      name: spec.name,
      label: spec.label,
      description: spec.description,
      parameters: typeboxParams(host, spec),
      async execute(_id, params, _signal, _onUpdate, ctx) {
        const e = await memoryEngine();
        if (!e) throw new Error(`pi-sidecar's memory is unavailable (${engine.problem()}).`);
        const outcome = await runMemoryTool(e, spec.name, params as Record<string, unknown>, scope(ctx));
        if (outcome.isError) throw new Error(outcome.text);
        return { content: [{ type: "text", text: outcome.text }], details: outcome.details };
      },
    });
  }

  pi.on("before_agent_start", async (event, ctx) => {
    const prompt = event.prompt ?? "";
    let injected: { message: { customType: string; content: string; display: boolean; details: unknown } } | undefined;
    const s = scope(ctx);
    const due = settings.inject === "prompt" || (settings.inject === "start" && !injectedSessions.has(s.session));
    if (due && !offHere && prompt.trim() !== "") {
      injectedSessions.add(s.session);
      try {
        const e = await memoryEngine();
        const r = e
          ? answerOf(await ask(e, { type: "recall", ...s, prompt, inject: settings.inject === "start" ? "start" : "prompt" }), "recall")
          : null;
        if (r && r.text !== "") {
          const note =
            `[pi-sidecar memory.inject=${settings.inject}: ${r.items.length} memories, ${r.tokens} tokens added before this prompt. ` +
            "/memory shows them; /memory off, or memory.inject=off in pi-sidecar.json, stops it.]";
          statusLine(pi).set(ctx, "memory", `memory: injected ${r.items.length} (${r.tokens} tokens), /memory off stops it`);
          injected = {
            message: {
              customType: MESSAGE_TYPE,
              content: `${r.text}\n${note}`,
              display: true,
              details: { items: r.items, tokens: r.tokens },
            },
          };
        }
      } catch (error) {
        log(`memory: inject: ${errorMessage(error)}`);
      }
    }
    // After the recall: the prompt is not its own memory.
    capture(ctx, "prompt", prompt);
    return injected;
  });

  pi.on("tool_result", async (event, ctx) => {
    if (!settings.capture || offHere || OWN_TOOLS.has(event.toolName)) return undefined;
    try {
      const input = (event.input ?? {}) as Record<string, unknown>;
      if (FILE_TOOLS.has(event.toolName)) {
        const path = shownPath(ctx.cwd, input.path, sensitive);
        if (path === null) return undefined; // a sensitive file: nothing about it is remembered
        if (event.isError) capture(ctx, "error", toolError(event.toolName, path, textOf(event.content)));
        else if (event.toolName !== "read") edited.add(path);
        return undefined;
      }
      if (!event.isError) return undefined;
      const command = typeof input.command === "string" ? input.command : null;
      if (event.toolName === "bash" && command !== null) {
        if (!touchesSensitive(command, sensitive)) capture(ctx, "command", failedCommand(command, textOf(event.content)));
      } else capture(ctx, "error", toolError(event.toolName, null, textOf(event.content)));
    } catch (error) {
      log(`memory: capture: ${errorMessage(error)}`);
    }
    return undefined;
  });

  pi.on("agent_end", async (event, ctx) => {
    const last = [...(event.messages ?? [])].reverse().find((m) => (m as { role?: string }).role === "assistant");
    const answer = last ? textOf((last as { content?: unknown }).content) : "";
    if (answer.trim() !== "") capture(ctx, "answer", shortAnswer(answer));
    if (edited.size > 0) capture(ctx, "files", editedFiles([...edited]));
    edited.clear();
    flush();
    // After the turn, never before it: a model summary (opt-in), or a spool nothing took in for long.
    if (settings.summarize === "model" && !offHere) pendingModel ??= summarizeWithModel(ctx).finally(() => (pendingModel = null));
    else if (spoolFiles(dir).length > BACKLOG_FILES)
      void memoryEngine()
        .then((e) => e?.memory({ type: "stats", project: ctx.cwd }))
        .catch((error) => log(`memory: spool: ${errorMessage(error)}`));
  });

  /** memory.summarize = model: the session's own model summarises the next due window; extractive when it fails. */
  async function summarizeWithModel(ctx: ExtensionContext): Promise<void> {
    try {
      const e = await memoryEngine();
      if (!e) return;
      const w = answerOf(await ask(e, { type: "window", project: ctx.cwd }), "window");
      if (!w.window) return;
      let text: string | null = null;
      try {
        if (!ctx.model) throw new Error("no model selected");
        const reply = await ctx.modelRegistry.complete(ctx.model, {
          systemPrompt: SUMMARY_PROMPT,
          messages: [{ role: "user", content: w.text, timestamp: Date.now() }],
        });
        if (reply.stopReason === "error" || reply.stopReason === "aborted") throw new Error(reply.errorMessage ?? reply.stopReason);
        text = textOf(reply.content).trim() || null;
      } catch (error) {
        log(`memory: model summary failed, extractive instead: ${errorMessage(error)}`);
      }
      await ask(e, { type: "storeSummary", project: ctx.cwd, window: { first: w.window.first, last: w.window.last }, text });
    } catch (error) {
      log(`memory: summary: ${errorMessage(error)}`);
    }
  }

  const settingsLine = () =>
    `Capture: ${settings.capture ? "on" : "off"} (memory.capture). Injection: ${settings.inject} (memory.inject: off|start|prompt). ` +
    `Summaries: ${settings.summarize}. Recall budget: ${settings.recallTokens} tokens.`;

  const subcommands: Record<string, (ctx: ExtensionContext, e: Engine, rest: string) => Promise<string>> = {
    status: async (ctx, e) => {
      const r = answerOf(await ask(e, { type: "status", ...scope(ctx) }), "status");
      return `${r.text}\n${settingsLine()}\nUse: /memory forget QUERY|ID, /memory off, /memory on.`;
    },
    forget: async (ctx, e, rest) => {
      if (rest === "")
        return "Usage: /memory forget QUERY|ID (ids look like e123 or s45; a query forgets every memory holding all its words).";
      const byId = /^[es]?\d+$/i.test(rest);
      const r = answerOf(await ask(e, { type: "forget", project: ctx.cwd, ...(byId ? { id: rest } : { query: rest }) }), "forget");
      if (r.text.includes(REWRITE_RUNNING)) tellWhenRewritten(ctx, e);
      return r.text;
    },
    off: async (ctx, e) => {
      offHere = true;
      buffer.length = 0;
      return answerOf(await ask(e, { type: "setEnabled", project: ctx.cwd, enabled: false }), "setEnabled").text;
    },
    on: async (ctx, e) => {
      offHere = false;
      return answerOf(await ask(e, { type: "setEnabled", project: ctx.cwd, enabled: true }), "setEnabled").text;
    },
  };

  pi.registerCommand("memory", {
    description: "pi-sidecar memory: status and last injections, forget QUERY|ID, off, on",
    handler: async (args, ctx) => {
      const [sub = "status", ...rest] = (args ?? "").trim().split(/\s+/).filter(Boolean);
      const run = subcommands[sub];
      if (!run) return say(ctx, `Unknown /memory ${sub}. Use: /memory [status] | forget QUERY|ID | off | on`);
      try {
        const e = await memoryEngine();
        if (!e) return say(ctx, `pi-sidecar's memory is unavailable (${engine.problem()}).`);
        say(ctx, await run(ctx, e, rest.join(" ")));
      } catch (error) {
        say(ctx, `/memory ${sub} failed: ${errorMessage(error)}`);
      }
    },
  });

  pi.on("session_shutdown", async () => {
    flush();
    await pendingModel;
  });
}
