/**
 * `pi-sidecar memory ...`: episodic memory from the shell, for any agent or script. `--json`
 * prints stable shapes (`search --json` -> {hits: [{id, type, kind, ts, session, text, score}]}).
 * `add --jsonl` imports a history, one event per line ({kind, session, text, ts?}), in batches.
 */
import { resolve } from "node:path";
import { CONFIG_KEYS } from "../../../config-keys.ts";
import { lineSplitter } from "../../../json-lines.ts";
import {
  answerOf,
  EVENT_KINDS,
  importKeys,
  isEventKind,
  MAX_BATCH,
  MAX_TS,
  type MemoryAnswer,
  type MemoryRequest,
  type NewEvent,
} from "../../../memory/index.ts";
import { type Command, type CommandContext, positiveInt, printJson, str, UsageError } from "../command.ts";

const SUBCOMMANDS = ["add", "search", "recall", "forget", "stats", "on", "off"] as const;
type Sub = (typeof SUBCOMMANDS)[number];

const USAGE = [
  "pi-sidecar memory add --kind K [--project DIR] [--session ID] [TEXT | < text]     (or --jsonl: one {kind, session, text, ts?, id?} per line)",
  "       pi-sidecar memory search QUERY [--project DIR] [--limit N]",
  "       pi-sidecar memory recall [--project DIR] [--session ID] [--prompt TEXT] [--budget N]",
  "       pi-sidecar memory forget ID | --query Q [--project DIR]",
  "       pi-sidecar memory stats [--project DIR]",
  "       pi-sidecar memory on|off [--project DIR]",
  "       (each: [--json])",
].join("\n");

/** A bad line of an import stops nothing: it is reported with its line number. */
type Rejected = { line: number; reason: string };

async function call(ctx: CommandContext, request: MemoryRequest): Promise<MemoryAnswer | null> {
  const r = await ctx.engine().memory(request);
  if (r.ok) return r;
  ctx.err(`pi-sidecar: ${r.message}\n`);
  return null;
}

/** Milliseconds since 1970 from a number or an ISO date; a reason when it is neither. */
function parseTs(raw: unknown): { ts: number | undefined } | { reason: string } {
  if (raw === undefined || raw === null) return { ts: undefined };
  const ts = typeof raw === "string" ? Date.parse(raw) : raw;
  if (typeof ts !== "number" || !Number.isFinite(ts) || ts < 0 || ts > MAX_TS)
    return { reason: `ts must be milliseconds since 1970 (0 to ${MAX_TS}) or an ISO date (got ${JSON.stringify(raw)})` };
  return { ts };
}

const typeName = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "object" ? "an object" : JSON.stringify(v);

/**
 * A line's event, or null (reported). Its key is stable across runs of the same import: the
 * line's own `id`, else its session, kind, time and text with how many identical lines came
 * before it, so a killed import run again stores what the first run did not, and nothing twice.
 */
function parseLine(
  line: string,
  n: number,
  rejected: Rejected[],
  keyOf: ReturnType<typeof importKeys>,
  session: string | null,
): NewEvent | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (error) {
    rejected.push({ line: n, reason: `not JSON (${(error as Error).message})` });
    return null;
  }
  const e = v as Record<string, unknown> | null;
  if (typeof e !== "object" || e === null || Array.isArray(e)) {
    rejected.push({ line: n, reason: "not an object {kind, session, text, ts?}" });
    return null;
  }
  const reject = (reason: string) => {
    rejected.push({ line: n, reason });
    return null;
  };
  if (!isEventKind(e.kind)) return reject(`kind must be one of ${EVENT_KINDS.join(", ")}`);
  if (typeof e.text !== "string") return reject(`text must be a string (got ${typeName(e.text)})`);
  if (e.session !== undefined && e.session !== null && typeof e.session !== "string")
    return reject(`session must be a string, the session's id (got ${typeName(e.session)})`);
  if (e.id !== undefined && (typeof e.id !== "string" || e.id === ""))
    return reject(`id must be a non-empty string, the event's own id (got ${typeName(e.id)})`);
  const time = parseTs(e.ts);
  if ("reason" in time) return reject(time.reason);
  const own = typeof e.session === "string" ? e.session : session;
  const event: NewEvent = { kind: e.kind, text: e.text, session: own, ts: time.ts };
  return { ...event, key: typeof e.id === "string" ? `id\0${e.id}` : keyOf(event) };
}

/** After an import: the windows it filled are summarised before the command returns. */
async function summarizeBacklog(ctx: CommandContext, project: string): Promise<string[] | null> {
  const summaries: string[] = [];
  for (;;) {
    const a = await call(ctx, { type: "summarize", project, steps: 200 });
    if (!a) return null;
    const r = answerOf(a, "summarize");
    summaries.push(...r.summaries);
    if (!r.pending) return summaries;
  }
}

/** `add --jsonl`: streamed, in batches of MAX_BATCH; every line is stored or reported, and what fills a window is summarised. */
async function importLines(ctx: CommandContext, project: string, session: string | null): Promise<number> {
  const rejected: Rejected[] = [];
  const keyOf = importKeys();
  let added = 0;
  let duplicates = 0;
  let pending = false;
  const batch: { event: NewEvent; line: number }[] = [];
  let n = 0;
  const send = async () => {
    if (batch.length === 0) return true;
    const events = batch.splice(0);
    const a = await call(ctx, { type: "addMany", project, session, events: events.map((b) => b.event) });
    if (!a) return false;
    const r = answerOf(a, "addMany");
    if (r.skipped) {
      ctx.err(`pi-sidecar: ${r.skipped}\n`);
      return false;
    }
    added += r.added;
    duplicates += r.duplicates;
    pending = r.pending;
    for (const x of r.rejected) rejected.push({ line: events[x.index]!.line, reason: x.reason });
    return true;
  };
  const lines: string[] = [];
  const split = lineSplitter((line) => lines.push(line));
  const take = async () => {
    for (const line of lines.splice(0)) {
      n++;
      if (line.trim() === "") continue;
      const event = parseLine(line, n, rejected, keyOf, session);
      if (event) batch.push({ event, line: n });
      if (batch.length >= MAX_BATCH && !(await send())) return false;
    }
    return true;
  };
  for await (const piece of ctx.stdinStream()) {
    split.push(piece);
    if (!(await take())) return 1;
  }
  split.end();
  if (!(await take()) || !(await send())) return 1;
  const summaries = pending ? await summarizeBacklog(ctx, project) : [];
  if (summaries === null) return 1;
  if (ctx.json) printJson(ctx, { added, duplicates, rejected, summaries: summaries.length });
  else
    ctx.out(
      `Added ${added} event${added === 1 ? "" : "s"} to ${project}` +
        `${duplicates > 0 ? ` (${duplicates} already stored by an earlier import, skipped)` : ""}.\n`,
    );
  for (const r of rejected.slice(0, 20)) ctx.err(`pi-sidecar: line ${r.line} not stored: ${r.reason}\n`);
  if (rejected.length > 20) ctx.err(`pi-sidecar: ... and ${rejected.length - 20} more lines not stored.\n`);
  return rejected.length > 0 ? 1 : 0;
}

/** `add`: the event's text after the flags (`memory add --kind note "text"`), else on stdin. */
async function add(ctx: CommandContext, project: string, session: string | null, words: string[]): Promise<number> {
  if (ctx.values.jsonl === true) {
    if (words.length > 0) throw new UsageError("memory add --jsonl reads JSON Lines on stdin: give no text after it");
    if (ctx.stdinIsTTY) throw new UsageError("memory add --jsonl reads JSON Lines on stdin (< history.jsonl)");
    return importLines(ctx, project, session);
  }
  if (words.length === 0 && ctx.stdinIsTTY)
    throw new UsageError('memory add needs the event\'s text: after the flags (--kind note "text") or on stdin');
  const kind = str(ctx.values.kind);
  if (!isEventKind(kind))
    throw new UsageError(`--kind takes one of ${EVENT_KINDS.join(", ")}${kind ? `, got ${JSON.stringify(kind)}` : ""}`);
  const text = words.length > 0 ? words.join(" ") : new TextDecoder().decode(await ctx.readStdin());
  const a = await call(ctx, { type: "add", project, session, kind, text });
  if (!a) return 1;
  const r = answerOf(a, "add");
  if (r.skipped) {
    ctx.err(`pi-sidecar: ${r.skipped}\n`);
    return 1;
  }
  if (ctx.json)
    printJson(ctx, {
      id: r.id,
      kind: r.kind,
      tokens: r.tokens,
      cut: r.cut,
      sourceId: r.sourceId,
      redactions: r.redactions,
      supersedes: r.supersedes,
    });
  else
    ctx.out(
      `Stored ${r.id} (${r.kind}, ${r.tokens} tokens${r.cut ? `; cut, whole text in ${r.sourceId ?? "no source"}` : ""}` +
        `${r.redactions > 0 ? `; ${r.redactions} secrets redacted` : ""}${r.supersedes.length > 0 ? `; replaces ${r.supersedes.join(", ")}` : ""}).\n`,
    );
  return 0;
}

async function run(ctx: CommandContext, sub: Sub, project: string): Promise<number> {
  const session = str(ctx.values.session) ?? null;
  const args = ctx.positionals.slice(1);
  switch (sub) {
    case "add":
      return add(ctx, project, session, args);
    case "search": {
      const query = args.join(" ").trim();
      if (query === "") throw new UsageError("memory search needs a QUERY: the words to look for");
      const a = await call(ctx, { type: "search", project, query, limit: positiveInt(ctx.values.limit, "--limit") });
      if (!a) return 1;
      const r = answerOf(a, "search");
      if (ctx.json)
        printJson(ctx, {
          query: r.query,
          hits: r.hits.map((h) => ({
            id: h.id,
            type: h.type,
            kind: h.kind,
            ts: h.ts,
            session: h.session,
            text: h.text,
            score: h.score,
            supersededBy: h.supersededBy,
          })),
        });
      else ctx.out(`${r.text}\n`);
      return 0;
    }
    case "recall": {
      const budget = positiveInt(ctx.values.budget, "--budget");
      // The range memory.recallTokens takes: below it not even the recall's header line fits.
      const { min, max } = CONFIG_KEYS["memory.recallTokens"];
      if (budget !== undefined && (budget < min || budget > max))
        throw new UsageError(`--budget takes ${min} to ${max} tokens (memory.recallTokens' range), got ${budget}`);
      const a = await call(ctx, { type: "recall", project, session, prompt: str(ctx.values.prompt) ?? "", budget });
      if (!a) return 1;
      const r = answerOf(a, "recall");
      if (ctx.json) printJson(ctx, { text: r.text, tokens: r.tokens, budget: r.budget, items: r.items });
      else ctx.out(r.text === "" ? `Nothing remembered for ${project} yet.\n` : `${r.text}\n`);
      return 0;
    }
    case "forget": {
      const query = str(ctx.values.query);
      if ((args.length === 0) === (query === undefined))
        throw new UsageError("memory forget takes one of: an ID (e123, s45), or --query WORDS");
      if (args.length > 1) throw new UsageError(`memory forget takes one ID (got ${args.length})`);
      const a = await call(ctx, { type: "forget", project, ...(query !== undefined ? { query } : { id: args[0]! }) });
      if (!a) return 1;
      const r = answerOf(a, "forget");
      if (ctx.json) printJson(ctx, { events: r.events, summaries: r.summaries, ids: r.ids });
      else ctx.out(`${r.text}\n`);
      return 0;
    }
    case "stats": {
      const only = typeof ctx.values.project === "string" ? project : undefined;
      const a = await call(ctx, { type: "stats", project: only });
      if (!a) return 1;
      const r = answerOf(a, "stats");
      if (ctx.json) printJson(ctx, { projects: r.projects, totals: r.totals });
      else ctx.out(`${r.text}\n`);
      return 0;
    }
    case "on":
    case "off": {
      const a = await call(ctx, { type: "setEnabled", project, enabled: sub === "on" });
      if (!a) return 1;
      const r = answerOf(a, "setEnabled");
      if (ctx.json) printJson(ctx, { project: r.project, enabled: r.enabled });
      else ctx.out(`${r.text.replace("/memory on", "`pi-sidecar memory on`")}\n`);
      return 0;
    }
  }
}

export const memoryCommand: Command = {
  name: "memory",
  summary: "episodic memory across sessions: add, search, recall, forget, stats, on, off",
  usage: USAGE,
  options: {
    project: { type: "string", help: "the project directory (default: the current directory)", value: "DIR" },
    session: { type: "string", help: "add, recall: the session", value: "ID" },
    kind: { type: "string", help: `add: ${EVENT_KINDS.join(", ")}`, value: "K" },
    jsonl: {
      type: "boolean",
      help: "add: JSON Lines on stdin, one {kind, session, text, ts?, id?} per line (run again, it adds only what is new)",
    },
    limit: { type: "string", help: "search: at most N hits (default 5, max 50)", value: "N" },
    prompt: { type: "string", help: "recall: the task, for related memories", value: "TEXT" },
    budget: { type: "string", help: "recall: token budget (default memory.recallTokens)", value: "N" },
    query: { type: "string", help: "forget: every memory holding all these words", value: "Q" },
  },
  async run(ctx) {
    const sub = ctx.positionals[0];
    if (!sub || !SUBCOMMANDS.includes(sub as Sub)) {
      throw new UsageError(
        sub ? `unknown memory command "${sub}"; use one of ${SUBCOMMANDS.join(", ")}` : `memory needs a command: ${SUBCOMMANDS.join(", ")}`,
      );
    }
    const project = resolve(ctx.cwd, str(ctx.values.project) ?? ".");
    return run(ctx, sub as Sub, project);
  },
};
