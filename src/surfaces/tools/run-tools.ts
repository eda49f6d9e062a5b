/**
 * context_run and context_fetch (served by `pi-sidecar mcp`): the runner does the work, the
 * store decides what the model sees. A command's small output comes back as it is; a large one
 * is stored (redacted, chunked, recognised) and answered with its receipt, the exit status said
 * in both. A fetched page is always stored, so the same URL within a day is answered from the
 * store without the network.
 */
import { statSync } from "node:fs";
import { toolThresholds } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { errorMessage } from "../../errors.ts";
import { absolutePath } from "../../paths.ts";
import { checkUrl, type FetchFn, fetchPage, type RunOutcome, runShell, type SpawnFn } from "../../runner/index.ts";
import { countLines } from "../../text.ts";
import { formatBytes, formatCount } from "../../units.ts";
import { checkArguments } from "./arguments.ts";
import { CONTEXT_FETCH, CONTEXT_RUN, type ToolSpec } from "./definitions.ts";
import type { ToolOutcome, ToolScope } from "./handlers.ts";

/** What a long call may use: the client's cancel, and a way to say how far it got. */
export type CallIo = {
  signal?: AbortSignal;
  progress?: (progress: number, total: number | undefined, message: string) => void;
};

export type RunToolDeps = { now?: () => number; fetch?: FetchFn; spawn?: SpawnFn; env?: Record<string, string | undefined> };

/** The tool name a command's output is stored under: the same thresholds and rules as any shell output. */
export const SHELL_TOOL = "bash";
export const FETCH_TOOL = "context_fetch";
export const FETCH_CACHE_MS = 24 * 60 * 60 * 1000;
const DEFAULT_TIMEOUT_S = 120;
const FETCH_TIMEOUT_MS = 30_000;
const FETCH_MAX_BYTES = 16 * 1024 * 1024;
const CACHED_PREVIEW_BYTES = 2048;

const SPECS: Record<string, ToolSpec> = { [CONTEXT_RUN.name]: CONTEXT_RUN, [CONTEXT_FETCH.name]: CONTEXT_FETCH };

export function isRunTool(name: string): boolean {
  return name in SPECS;
}

const problem = (text: string, details: Record<string, unknown> = {}): ToolOutcome => ({ text, isError: true, details });

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** How the command ended, when that is worth a line: a failure, a signal, the timeout. */
function endNote(o: RunOutcome, timeoutS: number): string | null {
  if (o.ended === "timeout")
    return `[stopped after ${timeoutS} s (the timeout): the command and what it started were killed; raise timeout if it needs longer]`;
  if (o.ended === "cancelled") return "[cancelled: the command and what it started were killed]";
  if (o.signal) return `[ended by ${o.signal}]`;
  if (o.exitCode !== 0) return `[exit code ${o.exitCode}]`;
  return null;
}

async function contextRun(engine: Engine, raw: Record<string, unknown>, scope: ToolScope, io: CallIo, deps: RunToolDeps) {
  const checked = checkArguments(CONTEXT_RUN, raw);
  if (!checked.ok) return problem(checked.message);
  const command = checked.args.command as string;
  if (command.trim() === "") return problem("command is empty; give the shell command to run.");
  const cwd = absolutePath(scope.project, (checked.args.cwd as string | undefined) ?? ".");
  try {
    if (!statSync(cwd).isDirectory()) return problem(`${cwd} is not a folder; give an existing working folder as cwd.`);
  } catch {
    return problem(`${cwd} does not exist; give an existing working folder as cwd.`);
  }
  const timeoutS = (checked.args.timeout as number | undefined) ?? DEFAULT_TIMEOUT_S;
  const outcome = await runShell(
    {
      command,
      cwd,
      timeoutMs: timeoutS * 1000,
      signal: io.signal,
      env: deps.env,
      onProgress: io.progress
        ? (p) =>
            io.progress!(
              Math.round(p.elapsedMs / 100) / 10,
              timeoutS,
              `${seconds(p.elapsedMs)}: ${formatBytes(p.bytes)}, ${formatCount(p.lines)} lines${p.lastLine ? `; last: ${p.lastLine}` : ""}`,
            )
        : undefined,
    },
    { spawn: deps.spawn, now: deps.now },
  );
  const note = endNote(outcome, timeoutS);
  const failed = outcome.ended !== "exited" || outcome.exitCode !== 0;
  const details = {
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    ended: outcome.ended,
    elapsedMs: outcome.elapsedMs,
    bytes: outcome.totalBytes,
  };
  const r = await engine.capture({
    text: outcome.output,
    invalidUtf8: outcome.invalidUtf8,
    tool: SHELL_TOOL,
    session: scope.session ?? null,
    project: scope.project,
    label: command,
  });
  if (!r.stored) {
    const body = outcome.output === "" ? "(no output)" : outcome.output;
    return { text: note ? `${body}${body.endsWith("\n") ? "" : "\n"}${note}` : body, isError: failed, details };
  }
  return {
    text: note ? `${r.receipt}\n${note}` : r.receipt,
    isError: failed,
    details: { ...details, sourceId: r.sourceId, lines: r.lines, chunks: r.chunks },
  };
}

function ago(ms: number): string {
  const m = Math.max(1, Math.round(ms / 60_000));
  return m < 90 ? `${m} min` : `${Math.round(m / 60)} h`;
}

/** The same URL fetched into this project within a day: answered from the store. */
async function fromCache(engine: Engine, url: string, scope: ToolScope, now: number): Promise<ToolOutcome | null> {
  const recent = await engine.list({ tool: FETCH_TOOL, project: scope.project }, 200);
  const hit = recent.find((s) => s.label === url && now - s.createdAt < FETCH_CACHE_MS);
  if (!hit) return null;
  const limits = toolThresholds(engine.config, FETCH_TOOL);
  const small = hit.bytes <= limits.bytes && hit.lines <= limits.lines;
  const got = await engine.get({
    source: hit.sourceId,
    lines: { from: 1, to: hit.lines },
    maxBytes: small ? limits.bytes + 1024 : CACHED_PREVIEW_BYTES,
  });
  if (!got.ok) return null;
  const header = `[${url}: fetched ${ago(now - hit.createdAt)} ago, stored as ${hit.sourceId} (${formatCount(hit.lines)} lines, ${formatBytes(hit.bytes)}); answered from the store, refresh: true fetches again]`;
  const text = small
    ? `${header}\n${got.text}`
    : `${header}\nLines ${got.lineStart}-${got.lineEnd}:\n${got.text}\n[more: context_search {"query": "...", "source": "${hit.sourceId}"} or context_get {"source": "${hit.sourceId}", "lines": "${got.lineEnd + 1}-${Math.min(hit.lines, got.lineEnd + 200)}"}]`;
  return { text, isError: false, details: { sourceId: hit.sourceId, cached: true } };
}

async function contextFetch(engine: Engine, raw: Record<string, unknown>, scope: ToolScope, io: CallIo, deps: RunToolDeps) {
  const checked = checkArguments(CONTEXT_FETCH, raw);
  if (!checked.ok) return problem(checked.message);
  const url = checkUrl(checked.args.url as string);
  if (!url.ok) return problem(url.message);
  const now = (deps.now ?? Date.now)();
  if (checked.args.refresh !== true) {
    const cached = await fromCache(engine, url.url.href, scope, now);
    if (cached) return cached;
  }
  const fetched = await fetchPage(
    { url: url.url.href, timeoutMs: FETCH_TIMEOUT_MS, maxBytes: FETCH_MAX_BYTES, signal: io.signal },
    { fetch: deps.fetch },
  );
  if (!fetched.ok) return problem(fetched.message);
  const { page } = fetched;
  const about = `${page.title ? `${page.title}: ` : ""}${page.finalUrl} (HTTP ${page.status}, ${page.kind})`;
  const text = page.text === "" ? "" : page.text;
  if (page.status >= 400) {
    // An error page is not kept: the next call fetches again.
    const shown = text.length > CACHED_PREVIEW_BYTES ? `${text.slice(0, CACHED_PREVIEW_BYTES)}\n[...]` : text;
    return problem(`${about}: the server answered ${page.status}; nothing was stored.\n${shown}`, { status: page.status });
  }
  if (text.trim() === "") return { text: `${about}: the page has no text.`, isError: false, details: { status: page.status } };
  const r = await engine.capture({
    text,
    invalidUtf8: page.invalidUtf8,
    tool: FETCH_TOOL,
    force: true,
    session: scope.session ?? null,
    project: scope.project,
    label: url.url.href,
  });
  if (!r.stored) return problem(`Nothing stored: ${r.reason}.`);
  const limits = toolThresholds(engine.config, FETCH_TOOL);
  const small = Buffer.byteLength(text) <= limits.bytes && countLines(text) <= limits.lines;
  const details = { sourceId: r.sourceId, status: page.status, bytes: r.bytes, lines: r.lines };
  return small
    ? { text: `[${about}; stored as ${r.sourceId}]\n${text}`, isError: false, details }
    : { text: `${about}\n${r.receipt}`, isError: false, details };
}

/** Runs context_run or context_fetch; every problem is an answer that says what to do, never a throw. */
export async function runRunTool(
  engine: Engine,
  name: string,
  raw: Record<string, unknown>,
  scope: ToolScope,
  io: CallIo = {},
  deps: RunToolDeps = {},
): Promise<ToolOutcome> {
  try {
    if (name === CONTEXT_RUN.name) return await contextRun(engine, raw, scope, io, deps);
    if (name === CONTEXT_FETCH.name) return await contextFetch(engine, raw, scope, io, deps);
    return problem(`Unknown tool ${name}.`);
  } catch (error) {
    return problem(`pi-sidecar could not run ${name}: ${errorMessage(error)}`);
  }
}
