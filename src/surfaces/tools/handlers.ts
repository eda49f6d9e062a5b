/**
 * What the model-facing tools do, shared by the pi extension and the MCP server: one handler per
 * tool, its arguments checked once against the tool's spec before it runs. Every problem comes
 * back as a message that says what to do next.
 */
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { Engine, EngineStats } from "../../engine.ts";
import { errorMessage } from "../../errors.ts";
import type { Stats, Tally } from "../../store/index.ts";
import { formatBytes, formatCount, parseDuration, parseLineRange, plural } from "../../units.ts";
import { type Args, checkArguments } from "./arguments.ts";
import { CONTEXT_GET, CONTEXT_INDEX, CONTEXT_PURGE, CONTEXT_SEARCH, CONTEXT_STATS, type ToolSpec } from "./definitions.ts";

export type ToolScope = { session?: string; project: string };
export type ToolOutcome = { text: string; isError: boolean; details: Record<string, unknown> };

type Handler = (engine: Engine, args: Args, scope: ToolScope) => Promise<ToolOutcome>;

const MAX_INDEX_FILE = 256 * 1024 * 1024;

const problem = (text: string): ToolOutcome => ({ text, isError: true, details: {} });
const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const num = (v: unknown) => (typeof v === "number" ? v : undefined);

/** One scope's captures: the saving against the baseline, the subtraction, and what is stored beside. */
function tallyLine(name: string, t: Tally): string {
  const unknown =
    t.unknownBaselines > 0 ? ` (${plural(t.unknownBaselines, "capture")} stored before baselines were kept count 0 there)` : "";
  return (
    `${name}: ${plural(t.captures, "output")} stored; net saved ${formatCount(t.netSavedTokens)} tokens = ` +
    `baseline ${formatCount(t.baselineTokens)} (what the host would have sent${unknown}) - receipts ${formatCount(t.receiptTokens)} - ` +
    `retrieval ${formatCount(t.retrievedTokens)}. Stored: ${formatCount(t.storedTokens)} tokens.`
  );
}

/** How the baselines were taken: "pi 0.87.1's own cut of bash (...) for 3 outputs; ...". */
export function baselineLine(s: Stats): string | null {
  if (s.baselines.length === 0) return null;
  return `Baselines: ${s.baselines
    .slice(0, 4)
    .map((b) => `${b.rule} for ${plural(b.captures, "output")}`)
    .join("; ")}${s.baselines.length > 4 ? "; ..." : ""}.`;
}

/** The read cache's own line: what pi's read would have sent minus what was sent (null when it answered nothing). */
export function readcacheLine(r: EngineStats["readcache"], scope = ""): string | null {
  if (r.reads === 0) return null;
  return (
    `Read cache${scope}: ${plural(r.reads, "read")} answered from the cache; saved ${formatCount(r.savedTokens)} tokens ` +
    `= ${formatCount(r.builtInTokens)} pi's read would have sent - ${formatCount(r.sentTokens)} sent.`
  );
}

/** Pruning's own line: results replaced by pointers, saved on every later request (null when it pruned nothing). */
export function pruningLine(p: EngineStats["pruning"], scope = ""): string | null {
  if (p.results === 0) return null;
  return (
    `Pruning${scope}: ${plural(p.results, "result")} replaced by pointers in ${plural(p.batches, "batch", "batches")}; ` +
    `saves ${formatCount(p.savedPerRequest)} tokens on every later request; rehydrating cost ${formatCount(p.retrievedTokens)}.`
  );
}

export function formatStatsBrief(session: EngineStats | null, all: EngineStats): string {
  const lines: (string | null)[] = [];
  if (session) lines.push(tallyLine("This session", session.totals));
  lines.push(tallyLine("All sessions", all.totals));
  lines.push(baselineLine(session && session.totals.captures > 0 ? session : all));
  const own = session ?? all;
  const scope = session ? " (this session)" : "";
  lines.push(readcacheLine(own.readcache, scope), pruningLine(own.pruning, scope));
  const d = all.database;
  lines.push(
    `Store: ${formatBytes(d.fileBytes + d.walBytes)} on disk (${formatBytes(d.fileBytes)} database + ${formatBytes(d.walBytes)} write-ahead log), ` +
      `${plural(d.chunks, "chunk")}; tokens counted with ${all.tokenizer}.`,
  );
  return lines.filter((l): l is string => l !== null).join("\n");
}

const contextSearch: Handler = async (engine, args, scope) => {
  const source = str(args.source);
  const r = await engine.search({
    query: str(args.query)!,
    source,
    limit: num(args.limit),
    project: source ? undefined : scope.project,
    askedBy: scope.session ?? null,
  });
  if (!r.ok) return problem(r.message);
  const hits = r.hits.map((h) => ({ sourceId: h.sourceId, chunk: h.chunk, lineStart: h.lineStart, lineEnd: h.lineEnd }));
  return { text: r.text, isError: false, details: { mode: r.mode, hits } };
};

const contextGet: Handler = async (engine, args, scope) => {
  const lines = str(args.lines);
  const chunk = num(args.chunk);
  if (lines !== undefined && chunk !== undefined) return problem("Give either lines or chunk, not both.");
  const range = lines === undefined ? undefined : parseLineRange(lines);
  if (range === null) return problem(`lines must look like "120-180" or "120", got ${JSON.stringify(lines)}.`);
  const r = await engine.get({ source: str(args.source)!, lines: range, chunk, around: num(args.around), askedBy: scope.session ?? null });
  if (!r.ok) return problem(r.message);
  const header = `[${r.sourceId} lines ${r.lineStart}-${r.lineEnd} of ${r.totalLines}]`;
  const footer = r.truncated ? `\n[cut at the size cap; continue with ${r.next}]` : "";
  return {
    text: `${header}\n${r.text}${footer}`,
    isError: false,
    details: { sourceId: r.sourceId, lineStart: r.lineStart, lineEnd: r.lineEnd, truncated: r.truncated },
  };
};

const contextStats: Handler = async (engine, _args, scope) => {
  const all = await engine.stats({});
  const session = scope.session ? await engine.stats({ session: scope.session }) : null;
  return { text: formatStatsBrief(session, all), isError: false, details: { session: session?.totals ?? null, all: all.totals } };
};

const contextPurge: Handler = async (engine, args, scope) => {
  const source = str(args.source);
  const olderThan = str(args.older_than);
  const thisSession = args.this_session === true;
  const olderThanMs = olderThan === undefined ? undefined : parseDuration(olderThan);
  if (olderThanMs === null) return problem(`older_than must be an age like 30m, 12h or 7d, got ${JSON.stringify(olderThan)}.`);
  if (thisSession && !scope.session) return problem("This client has no session id; purge by source or older_than instead.");
  if (source === undefined && olderThanMs === undefined && !thisSession)
    return problem("Say what to purge: source, older_than, or this_session: true.");
  const r = await engine.purge({ source, olderThanMs, session: thisSession ? scope.session : undefined });
  return {
    text: `Purged ${r.sources} source${r.sources === 1 ? "" : "s"} (${formatBytes(r.bytes)} of stored text freed).${r.note}`,
    isError: false,
    details: { ...r },
  };
};

const contextIndex: Handler = async (engine, args, scope) => {
  const path = str(args.path);
  const given = str(args.text);
  if ((path === undefined) === (given === undefined)) return problem("context_index needs exactly one of path or text.");
  let text = given;
  if (path !== undefined) {
    const full = isAbsolute(path) ? path : resolve(scope.project, path);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(full);
    } catch (error) {
      return problem(`Cannot read ${full}: ${errorMessage(error)}. Give an existing file path.`);
    }
    // Devices, pipes and sockets never end (or block): only regular files are read.
    if (!st.isFile())
      return problem(`${full} is not a regular file (a device, pipe, socket or folder); index a regular file, or pass its text.`);
    if (st.size > MAX_INDEX_FILE)
      return problem(`${full} is ${formatBytes(st.size)}; files over ${formatBytes(MAX_INDEX_FILE)} are not indexed.`);
    text = readFileSync(full, "utf8");
  }
  const r = await engine.capture({
    text: text!,
    tool: path !== undefined ? "file" : "context_index",
    force: true,
    session: scope.session ?? null,
    project: scope.project,
    label: str(args.label) ?? path ?? null,
  });
  if (!r.stored) return problem(`Nothing stored: ${r.reason}.`);
  return { text: r.receipt, isError: false, details: { sourceId: r.sourceId, bytes: r.bytes, lines: r.lines, chunks: r.chunks } };
};

const TOOLS: Record<string, { spec: ToolSpec; handler: Handler }> = {
  [CONTEXT_SEARCH.name]: { spec: CONTEXT_SEARCH, handler: contextSearch },
  [CONTEXT_GET.name]: { spec: CONTEXT_GET, handler: contextGet },
  [CONTEXT_STATS.name]: { spec: CONTEXT_STATS, handler: contextStats },
  [CONTEXT_PURGE.name]: { spec: CONTEXT_PURGE, handler: contextPurge },
  [CONTEXT_INDEX.name]: { spec: CONTEXT_INDEX, handler: contextIndex },
};

export async function runTool(engine: Engine, name: string, raw: Record<string, unknown>, scope: ToolScope): Promise<ToolOutcome> {
  const tool = TOOLS[name];
  if (!tool) return problem(`Unknown tool ${name}. Tools: ${Object.keys(TOOLS).join(", ")}.`);
  const checked = checkArguments(tool.spec, raw);
  if (!checked.ok) return problem(checked.message);
  try {
    return await tool.handler(engine, checked.args, scope);
  } catch (error) {
    return problem(`pi-sidecar could not run ${name}: ${errorMessage(error)}`);
  }
}
