/**
 * The read cache in pi: overrides `read` by wrapping pi's built-in read (same name, parameters,
 * truncation; images, non-UTF-8 and sensitive files pass straight through), keeps trust from
 * the active branch (rebuilt on start, tree navigation and compaction; updated by each read),
 * and adds read's `fresh` (the text even if unchanged), `/readcache-refresh` and `/readcache-status`.
 */
import { readFileSync, statSync } from "node:fs";
import { extname } from "node:path";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { TSchema } from "typebox";
import type { Config } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { errorMessage } from "../../errors.ts";
import { absolutePath as absolute } from "../../paths.ts";
import type { Range } from "../../readcache/index.ts";
import { createTrust, isSensitiveFile, REFRESH_ENTRY, type ReadRecord, readRecordOf, replay, span } from "../../readcache/index.ts";
import { TOOL_CALLS } from "../../store/index.ts";
import { countLines } from "../../text.ts";
import { formatCount } from "../../units.ts";
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

type Gone = Map<string, { hash: string; from: number; to: number; source: string }[]>;

/** The branch's read results that pruning replaced (call id -> stored source): what each showed, and where it is stored. */
function goneReads(branch: readonly unknown[], pruned: ReadonlyMap<string, string>): Gone {
  const gone: Gone = new Map();
  if (pruned.size === 0) return gone;
  for (const e of branch as { type?: string; message?: { role?: string; toolCallId?: string; details?: unknown } }[]) {
    const source = e.type === "message" && e.message?.role === "toolResult" ? pruned.get(e.message.toolCallId ?? "") : undefined;
    const r = source ? readRecordOf(e.message!.details) : null;
    if (!source || !r || r.trusted.length === 0) continue;
    const list = gone.get(r.path) ?? [];
    list.push({ hash: r.hash, from: r.trusted[0]![0], to: r.trusted.at(-1)![1], source });
    gone.set(r.path, list);
  }
  return gone;
}

/** An earlier read of the same version that showed these lines and is now a pointer. */
function prunedRead(gone: Gone, path: string, hash: string, [a, b]: Range) {
  return gone.get(path)?.find((g) => g.hash === hash && g.from <= a && b <= g.to) ?? null;
}

export function registerReadCache(
  pi: ExtensionAPI,
  { createReadToolDefinition, Type }: PiHost,
  config: Readonly<Config>,
  engine: () => Promise<Engine | null>,
  log: (line: string) => void,
) {
  let trust = createTrust();
  /** Reads that pruning shows as pointers (not in view), and the stored source of each. */
  let pruned = new Map<string, string>();
  /** Per file: the lines of each version whose read is now a pointer, and where that text is stored. */
  let gone: Gone = new Map();
  let tally: Tally = { modes: {}, savedBytes: 0, savedTokens: 0 };
  const count = (r: ReadRecord) => {
    tally.modes[r.mode] = (tally.modes[r.mode] ?? 0) + 1;
    tally.savedBytes += r.saved?.bytes ?? 0;
    tally.savedTokens += r.saved?.tokens ?? 0;
  };
  const rebuild = (ctx: ExtensionContext) => {
    const branch = ctx.sessionManager.getBranch();
    const r = replay(branch, new Set(pruned.keys()));
    trust = r.trust;
    gone = goneReads(branch, pruned);
    tally = { modes: {}, savedBytes: 0, savedTokens: 0 };
    for (const rec of r.records) count(rec);
  };
  pi.on("session_start", (_e, ctx) => rebuild(ctx));
  pi.on("session_tree", (_e, ctx) => rebuild(ctx));
  pi.on("session_compact", (_e, ctx) => rebuild(ctx));

  // The built-in's name, description and parameters (plus `fresh`); execution wraps a built-in made for the call's cwd.
  const definition = createReadToolDefinition(process.cwd());
  const parameters = Type.Object({
    ...(definition.parameters as unknown as { properties: Record<string, TSchema> }).properties,
    fresh: Type.Optional(Type.Boolean({ description: "the text even if unchanged since shown" })),
  }) as unknown as typeof definition.parameters;
  pi.registerTool({
    ...definition,
    parameters,
    async execute(id, input, signal, onUpdate, ctx) {
      const { fresh, ...params } = input as typeof input & { fresh?: boolean };
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
        // `fresh`: answered as if never shown, so the text comes back (and is trusted again).
        const versions = fresh === true ? [] : trust.versions(path);
        const d = await e.readcache({
          path,
          text,
          shown,
          wholeFile,
          builtIn: builtInText,
          versions,
          session: ctx.sessionManager.getSessionId(),
          project: ctx.cwd,
        });
        const details = { ...(typeof result.details === "object" && result.details ? result.details : {}), readcache: d.record };
        const earlier = d.mode === "full" && shown && fresh !== true ? prunedRead(gone, path, d.record.hash, shown) : null;
        if (earlier && config.readcache.afterPrune === "pin")
          return { ...result, details: { ...details, readcache: { ...d.record, pin: true } } };
        if (earlier && config.readcache.afterPrune === "pointer") {
          const text = `[readcache: stored] ${path}: ${span(shown!)} have not changed since you read them; that read is no longer in view. The text: ${TOOL_CALLS.lines(earlier.source, shown![0] - earlier.from + 1, shown![1] - earlier.from + 1)}`;
          return { content: [{ type: "text", text }], details: { ...details, readcache: { ...d.record, mode: "stored", trusted: [] } } };
        }
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

  return {
    /** Trust follows the final result (after the context store may have replaced it). */
    onReadResult(details: unknown) {
      const r = readRecordOf(details);
      if (!r) return;
      trust.record(r);
      count(r);
    },
    refresh: (cwd: string, path: string, range?: Range) => refresh(absolute(cwd, path), range),
    /** The reads now shown as pruning pointers (and their stored sources): their lines are no longer trusted. */
    pruned(reads: { callId: string; source: string }[], ctx: ExtensionContext) {
      if (reads.length === pruned.size && reads.every((r) => pruned.get(r.callId) === r.source)) return;
      pruned = new Map(reads.map((r) => [r.callId, r.source]));
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
