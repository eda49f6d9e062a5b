/**
 * The read cache in pi: overrides `read` by wrapping pi's built-in read (same name, parameters,
 * truncation; images, non-UTF-8 and sensitive files pass straight through), keeps trust from
 * the active branch (rebuilt on start, tree navigation and compaction; updated by each read),
 * and adds `readcache_refresh`, `/readcache-refresh` and `/readcache-status`.
 */
import { readFileSync, statSync } from "node:fs";
import { extname } from "node:path";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Config } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { errorMessage } from "../../errors.ts";
import { absolutePath as absolute } from "../../paths.ts";
import type { Range } from "../../readcache/ranges.ts";
import { REFRESH_ENTRY, readRecordOf, replay } from "../../readcache/replay.ts";
import { isSensitiveFile } from "../../readcache/sensitive.ts";
import { createTrust, type ReadRecord } from "../../readcache/trust.ts";
import { countLines } from "../../text.ts";
import { formatCount, parseLineRange } from "../../units.ts";
import type { PiHost } from "./host.ts";

const IMAGE = new Set([".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".ico", ".svgz"]);

type Tally = { modes: Record<string, number>; savedBytes: number; savedTokens: number };

/** Files the cache handles: regular files up to this size (bigger ones, FIFOs, devices pass through). */
const MAX_CACHED_BYTES = 8 * 1024 * 1024;

function cacheable(path: string): boolean {
  try {
    const st = statSync(path);
    return st.isFile() && st.size <= MAX_CACHED_BYTES;
  } catch {
    return false;
  }
}

/** UTF-8 text with no NUL bytes, or null (binary files pass through untouched). */
function textOf(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

export type ReadCacheHandle = ReturnType<typeof registerReadCache>;

export function registerReadCache(
  pi: ExtensionAPI,
  { createReadToolDefinition, Type }: PiHost,
  config: Readonly<Config>,
  engine: () => Promise<Engine | null>,
  log: (line: string) => void,
) {
  let trust = createTrust();
  /** Reads that pruning shows as pointers: not in view. */
  let pruned = new Set<string>();
  let tally: Tally = { modes: {}, savedBytes: 0, savedTokens: 0 };
  const count = (r: ReadRecord) => {
    tally.modes[r.mode] = (tally.modes[r.mode] ?? 0) + 1;
    tally.savedBytes += r.saved?.bytes ?? 0;
    tally.savedTokens += r.saved?.tokens ?? 0;
  };
  const rebuild = (ctx: ExtensionContext) => {
    const r = replay(ctx.sessionManager.getBranch(), pruned);
    trust = r.trust;
    tally = { modes: {}, savedBytes: 0, savedTokens: 0 };
    for (const rec of r.records) count(rec);
  };
  pi.on("session_start", (_e, ctx) => rebuild(ctx));
  pi.on("session_tree", (_e, ctx) => rebuild(ctx));
  pi.on("session_compact", (_e, ctx) => rebuild(ctx));

  // The built-in's name, description and parameters; execution wraps a built-in made for the call's cwd.
  pi.registerTool({
    ...createReadToolDefinition(process.cwd()),
    async execute(id, params, signal, onUpdate, ctx) {
      const builtIn = createReadToolDefinition(ctx.cwd);
      const path = absolute(ctx.cwd, params.path);
      if (isSensitiveFile(path, config.readcache.sensitive) || IMAGE.has(extname(path).toLowerCase()) || !cacheable(path)) {
        return builtIn.execute(id, params, signal, onUpdate, ctx);
      }
      let text: string | null = null;
      try {
        text = textOf(readFileSync(path));
      } catch {
        text = null; // the built-in reports missing or unreadable files its own way
      }
      const result = await builtIn.execute(id, params, signal, onUpdate, ctx);
      if (text === null) return result;
      // Changed while pi read it: we cannot know which version the model got, so trust nothing.
      try {
        if (textOf(readFileSync(path)) !== text) return result;
      } catch {
        return result;
      }
      const e = await engine();
      if (!e) return result;
      const lines = countLines(text);
      // As pi's read computes them: offset and limit go through Array.slice, so they count as integers.
      const offset = Math.max(1, Math.floor(Number(params.offset ?? 1)) || 1);
      const limit = params.limit === undefined ? undefined : Math.floor(Number(params.limit));
      const truncation = (
        result.details as { truncation?: { truncated?: boolean; outputLines?: number; firstLineExceedsLimit?: boolean } } | undefined
      )?.truncation;
      let shown: Range | null;
      if (lines === 0 || offset > lines || (limit !== undefined && !(limit >= 1))) shown = null;
      else if (truncation?.truncated)
        shown =
          truncation.firstLineExceedsLimit || !truncation.outputLines
            ? null
            : [offset, Math.min(lines, offset + truncation.outputLines - 1)];
      else if (limit !== undefined) shown = [offset, Math.min(lines, offset + limit - 1)];
      else shown = [offset, lines];
      const wholeFile = shown !== null && shown[0] === 1 && shown[1] === lines;
      const builtInText = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      try {
        const d = await e.readcache({
          path,
          text,
          shown,
          wholeFile,
          builtIn: builtInText,
          versions: trust.versions(path),
          session: ctx.sessionManager.getSessionId(),
          project: ctx.cwd,
        });
        const details = { ...(typeof result.details === "object" && result.details ? result.details : {}), readcache: d.record };
        if (d.mode === "full") return { ...result, details };
        return { content: [{ type: "text", text: d.text }], details };
      } catch (error) {
        log(`read cache: ${errorMessage(error)}`);
        return result;
      }
    },
  });

  const refresh = (path: string, range?: Range) => {
    pi.appendEntry(REFRESH_ENTRY, { path, ...(range ? { range } : {}) });
    trust.invalidate(path, range);
  };

  pi.registerTool({
    name: "readcache_refresh",
    label: "Read cache refresh",
    description: "Forget what read showed of a file (or a line range), so the next read returns the text again.",
    parameters: Type.Object({
      path: Type.String({ description: "file path" }),
      lines: Type.Optional(Type.String({ description: "e.g. 10-40" })),
    }),
    async execute(_id, params, _signal, _onUpdate, ctx) {
      const range = params.lines ? parseLineRange(params.lines) : undefined;
      if (range === null) throw new Error(`lines must look like "10-40", got ${JSON.stringify(params.lines)}.`);
      const path = absolute(ctx.cwd, params.path);
      refresh(path, range ? [range.from, range.to] : undefined);
      return {
        content: [{ type: "text", text: `The next read of ${path}${range ? ` lines ${range.from}-${range.to}` : ""} returns the text.` }],
        details: undefined,
      };
    },
  });

  return {
    /** Trust follows the final result (after the context store may have replaced it). */
    onReadResult(details: unknown) {
      const r = readRecordOf(details);
      if (!r) return;
      trust.record(r);
      count(r);
    },
    refresh: (cwd: string, path: string, range?: Range) => refresh(absolute(cwd, path), range),
    /** The reads now shown as pruning pointers: their lines are no longer trusted. */
    pruned(callIds: string[], ctx: ExtensionContext) {
      if (callIds.length === pruned.size && callIds.every((id) => pruned.has(id))) return;
      pruned = new Set(callIds);
      rebuild(ctx);
    },
    status(): string {
      const modes =
        Object.entries(tally.modes)
          .map(([m, n]) => `${m} ${n}`)
          .join(", ") || "none yet";
      return (
        `Read cache: ${trust.files()} file${trust.files() === 1 ? "" : "s"} tracked; reads served: ${modes}; ` +
        `saved ${formatCount(tally.savedTokens)} tokens (${formatCount(tally.savedBytes)} bytes) against what read would have sent.`
      );
    },
  };
}
