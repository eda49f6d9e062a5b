/**
 * What the model-facing tools do, shared by the pi extension and the MCP server. Arguments are
 * checked here; every problem comes back as a message that says what to do next.
 */
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { Engine } from "../../engine.ts";
import { errorMessage } from "../../errors.ts";
import type { Stats, Tally } from "../../store/stats.ts";
import { formatBytes, formatCount, parseDuration, parseLineRange } from "../../units.ts";

export type ToolScope = { session?: string; project: string };
export type ToolOutcome = { text: string; isError: boolean; details: Record<string, unknown> };

const MAX_INDEX_FILE = 256 * 1024 * 1024;

type Args = Record<string, unknown>;

function problem(text: string): ToolOutcome {
  return { text, isError: true, details: {} };
}

function optString(args: Args, key: string): string | undefined | { bad: string } {
  const v = args[key];
  if (v === undefined || v === null || v === "") return undefined;
  return typeof v === "string" ? v : { bad: `${key} must be a string` };
}

function optInt(args: Args, key: string, min: number, max: number): number | undefined | { bad: string } {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max)
    return { bad: `${key} must be a whole number from ${min} to ${max}` };
  return n;
}

function isBad(v: unknown): v is { bad: string } {
  return typeof v === "object" && v !== null && "bad" in v;
}

function tallyLine(name: string, t: Tally): string {
  return (
    `${name}: ${formatCount(t.captures)} stored output${t.captures === 1 ? "" : "s"}, ${formatCount(t.storedTokens)} tokens kept out; ` +
    `receipts cost ${formatCount(t.receiptTokens)}, retrieval ${formatCount(t.retrievedTokens)}; net saved ${formatCount(t.netSavedTokens)} tokens`
  );
}

export function formatStatsBrief(session: Stats | null, all: Stats): string {
  const lines = [];
  if (session) lines.push(tallyLine("This session", session.totals));
  lines.push(tallyLine("All sessions", all.totals));
  lines.push(
    `Store: ${formatBytes(all.database.fileBytes)} on disk, ${formatCount(all.database.chunks)} chunks; tokens counted with ${all.tokenizer}.`,
  );
  return lines.join("\n");
}

export async function runTool(engine: Engine, name: string, args: Args, scope: ToolScope): Promise<ToolOutcome> {
  try {
    switch (name) {
      case "context_search": {
        const query = optString(args, "query");
        const source = optString(args, "source");
        const tool = optString(args, "tool");
        const limit = optInt(args, "limit", 1, 20);
        if (query === undefined) return problem("context_search needs a query: 2-4 distinctive words, an identifier or error text.");
        for (const v of [query, source, tool, limit]) if (isBad(v)) return problem(v.bad);
        const r = await engine.search({
          query: query as string,
          source: source as string | undefined,
          tool: tool as string | undefined,
          limit: limit as number | undefined,
          project: source ? undefined : scope.project,
        });
        if (!r.ok) return problem(r.message);
        return {
          text: r.text,
          isError: false,
          details: {
            mode: r.mode,
            hits: r.hits.map((h) => ({ sourceId: h.sourceId, chunk: h.chunk, lineStart: h.lineStart, lineEnd: h.lineEnd })),
          },
        };
      }
      case "context_get": {
        const source = optString(args, "source");
        const lines = optString(args, "lines");
        const chunk = optInt(args, "chunk", 1, 1_000_000);
        const around = optInt(args, "around", 0, 200);
        if (source === undefined) return problem("context_get needs a source id (from a receipt or a search hit), e.g. ctx_ab12cd34.");
        for (const v of [source, lines, chunk, around]) if (isBad(v)) return problem(v.bad);
        if (lines !== undefined && chunk !== undefined) return problem("Give either lines or chunk, not both.");
        const range = typeof lines === "string" ? parseLineRange(lines) : undefined;
        if (range === null) return problem(`lines must look like "120-180" or "120", got ${JSON.stringify(lines)}.`);
        const r = await engine.get({
          source: source as string,
          lines: range,
          chunk: chunk as number | undefined,
          around: around as number | undefined,
        });
        if (!r.ok) return problem(r.message);
        const header = `[${r.sourceId} lines ${r.lineStart}-${r.lineEnd} of ${r.totalLines}]`;
        const footer = r.truncated ? `\n[cut at the size cap; continue with ${r.next}]` : "";
        return {
          text: `${header}\n${r.text}${footer}`,
          isError: false,
          details: { sourceId: r.sourceId, lineStart: r.lineStart, lineEnd: r.lineEnd, truncated: r.truncated },
        };
      }
      case "context_stats": {
        const all = await engine.stats({});
        const session = scope.session ? await engine.stats({ session: scope.session }) : null;
        return { text: formatStatsBrief(session, all), isError: false, details: { session: session?.totals ?? null, all: all.totals } };
      }
      case "context_purge": {
        const source = optString(args, "source");
        const olderThan = optString(args, "older_than");
        for (const v of [source, olderThan]) if (isBad(v)) return problem(v.bad);
        const thisSession = args.this_session === true;
        const olderThanMs = typeof olderThan === "string" ? parseDuration(olderThan) : undefined;
        if (olderThanMs === null) return problem(`older_than must be an age like 30m, 12h or 7d, got ${JSON.stringify(olderThan)}.`);
        if (thisSession && !scope.session) return problem("This client has no session id; purge by source or older_than instead.");
        if (source === undefined && olderThanMs === undefined && !thisSession)
          return problem("Say what to purge: source, older_than, or this_session: true.");
        const r = await engine.purge({
          source: source as string | undefined,
          olderThanMs,
          session: thisSession ? scope.session : undefined,
        });
        return {
          text: `Purged ${r.sources} source${r.sources === 1 ? "" : "s"} (${formatBytes(r.bytes)} of stored text freed).`,
          isError: false,
          details: { ...r },
        };
      }
      case "context_index": {
        const path = optString(args, "path");
        const text = optString(args, "text");
        const label = optString(args, "label");
        for (const v of [path, text, label]) if (isBad(v)) return problem(v.bad);
        if ((path === undefined) === (text === undefined)) return problem("context_index needs exactly one of path or text.");
        let body = text as string | undefined;
        let tool = "context_index";
        if (typeof path === "string") {
          const full = isAbsolute(path) ? path : resolve(scope.project, path);
          let size: number;
          try {
            size = statSync(full).size;
          } catch (error) {
            return problem(`Cannot read ${full}: ${errorMessage(error)}. Give an existing file path.`);
          }
          if (size > MAX_INDEX_FILE)
            return problem(`${full} is ${formatBytes(size)}; files over ${formatBytes(MAX_INDEX_FILE)} are not indexed.`);
          body = readFileSync(full, "utf8");
          tool = "file";
        }
        const r = await engine.capture({
          text: body!,
          tool,
          force: true,
          session: scope.session ?? null,
          project: scope.project,
          label: (label as string | undefined) ?? (path as string | undefined) ?? null,
        });
        if (!r.stored) return problem(`Nothing stored: ${r.reason}.`);
        return { text: r.receipt, isError: false, details: { sourceId: r.sourceId, bytes: r.bytes, lines: r.lines, chunks: r.chunks } };
      }
      default:
        return problem(`Unknown tool ${name}.`);
    }
  } catch (error) {
    return problem(`pi-sidecar could not run ${name}: ${errorMessage(error)}`);
  }
}
