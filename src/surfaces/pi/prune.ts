/**
 * Context pruning in pi: before each model call (pi's `context` event, which changes only what
 * is sent; the session keeps the originals) old tool results become pointers to their exact
 * text in the context store. `/prune` shows the configuration and the last actions; `/pin` keeps
 * the last meaning-bearing result (a session entry, so it holds across restarts and forks).
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Config } from "../../config.ts";
import type { PruneSavings } from "../../engine.ts";
import { errorMessage } from "../../errors.ts";
import type { PruneOutput } from "../../prune/index.ts";
import { isToolResult, type Message, resultsOf, textOf } from "../../prune/index.ts";
import { isMarker, readRecordOf } from "../../readcache/index.ts";
import { formatCount, plural } from "../../units.ts";
import { say } from "./commands.ts";
import type { EngineHandle } from "./engine-handle.ts";
import { markerBasis } from "./pin-target.ts";
import type { ReadCacheHandle } from "./readcache.ts";

export const PIN_ENTRY = "pi-sidecar-pin";

type Entry = { type?: string; customType?: string; data?: unknown; message?: Message };

/** Call ids pinned on this branch (with /pin or /kota pin). */
export function pinsOf(branch: readonly unknown[]): string[] {
  const pins: string[] = [];
  for (const e of branch as Entry[]) {
    const id = (e.data as { toolCallId?: unknown } | undefined)?.toolCallId;
    if (e.type === "custom" && e.customType === PIN_ENTRY && typeof id === "string") pins.push(id);
  }
  return pins;
}

/** The last result worth keeping: not an error, not empty; for a read-cache marker, the read it stands for. */
export function lastMeaningful(branch: readonly unknown[], tools?: (name: string) => boolean): { id: string; tool: string } | null {
  const entries = branch as Entry[];
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    const m = e.message;
    if (e.type !== "message" || m?.role !== "toolResult" || m.isError === true) continue;
    if (tools && !tools(String(m.toolName))) continue;
    const text = textOf((m.content as { type: string }[]) ?? []);
    if (text.trim() === "") continue;
    if (text.startsWith("[readcache:")) {
      const basis = markerBasis(entries, i);
      if (basis) return basis;
      continue;
    }
    return { id: String(m.toolCallId), tool: String(m.toolName) };
  }
  return null;
}

/** Reads the read cache keeps in view (readcache.afterPrune "pin"). */
function pinnedReads(messages: Message[]): string[] {
  return messages
    .filter((m) => isToolResult(m) && m.toolName === "read" && readRecordOf(m.details)?.pin === true)
    .map((m) => String(m.toolCallId));
}

function hasMarkers(messages: Message[]): boolean {
  return messages.some((m) => isToolResult(m) && m.toolName === "read" && isMarker(m.details));
}

/** Bytes of old results that could go: tokens never exceed bytes, so below the batch size nothing can. */
function candidateBytes(messages: Message[], keep: number): number {
  let bytes = 0;
  for (const r of resultsOf(messages)) if (!r.images && r.turnsAgo >= Math.max(1, keep - 1)) bytes += Buffer.byteLength(r.text);
  return bytes;
}

export type PruneHandle = { pin(ctx: ExtensionContext, tools?: (name: string) => boolean): string };

export function registerPruning(
  pi: ExtensionAPI,
  config: Readonly<Config>,
  engine: EngineHandle,
  readcache: ReadCacheHandle | null,
  log: (line: string) => void,
): PruneHandle {
  const settings = config.prune;
  let last: (PruneOutput & { at: number }) | null = null;
  let problem: string | null = null;

  pi.on("context", async (event, ctx) => {
    const messages = event.messages as unknown as Message[];
    // Read-cache markers must never outlive their text (pruned or summarised away), pruning on or off.
    const markers = readcache !== null && hasMarkers(messages);
    if (!settings.enabled && !markers) return;
    // Nothing was pruned yet and too little is old to make a batch: the engine is not even asked.
    const idle = (last === null || last.pruned.length === 0) && candidateBytes(messages, settings.keepRecentTurns) < settings.clearAtLeast;
    if (settings.enabled && idle && !markers) return;
    try {
      const e = await engine.get();
      if (!e) return;
      const branch = ctx.sessionManager.getBranch();
      const out = await e.prune({
        messages,
        session: ctx.sessionManager.getSessionId(),
        project: ctx.cwd,
        pinned: [...pinsOf(branch), ...pinnedReads(messages)],
        usagePercent: ctx.getContextUsage()?.percent ?? null,
        pruneResults: settings.enabled,
      });
      last = { ...out, messages: [], at: Date.now() };
      problem = out.problems[0] ?? null;
      if (out.batch.length > 0)
        log(
          `prune: batch of ${out.batch.length} results, ${out.batch.reduce((s, p) => s + p.tokensBefore, 0)} -> ${out.batch.reduce((s, p) => s + p.tokensAfter, 0)} tokens`,
        );
      for (const p of out.problems) log(`prune: kept a result: ${p}`);
      readcache?.pruned(
        out.pruned.filter((p) => p.read !== null).map((p) => ({ callId: p.callId, source: p.source })),
        ctx,
      );
      return out.pruned.length > 0 ? { messages: out.messages as unknown as typeof event.messages } : undefined;
    } catch (error) {
      problem = errorMessage(error);
      log(`prune: ${problem}`);
      return;
    }
  });

  /** What the database says this session's pruning did: the same numbers as `stats` and the web page. */
  const status = async (ctx: ExtensionContext): Promise<string> => {
    const e = await engine.get();
    const saved = e ? (await e.stats({ session: ctx.sessionManager.getSessionId() })).pruning : null;
    return formatPruneStatus(settings, saved, last, problem);
  };

  const pin = (ctx: ExtensionContext, tools?: (name: string) => boolean): string => {
    const found = lastMeaningful(ctx.sessionManager.getBranch(), tools);
    if (!found) return "No result to pin yet.";
    pi.appendEntry(PIN_ENTRY, { toolCallId: found.id });
    return `Pinned the last ${found.tool} result (${found.id}): pruning keeps it in view.`;
  };

  pi.registerCommand("prune", {
    description: "pi-sidecar: context pruning's configuration and last actions",
    handler: async (_args, ctx) => say(ctx, await status(ctx)),
  });
  pi.registerCommand("pin", {
    description: "pi-sidecar: keep the last tool result in view (pruning never replaces it)",
    handler: async (_args, ctx) => say(ctx, pin(ctx)),
  });
  return { pin };
}

type PruneSettings = Readonly<Config["prune"]>;

/** `/prune`: the configuration, this session's batches and saving as the database counts them, and the last call. */
export function formatPruneStatus(
  s: PruneSettings,
  saved: PruneSavings | null,
  last: { pending: number; settings: { adaptive: boolean }; pruned: { tool: string; callId: string; source: string }[] } | null,
  problem: string | null,
): string {
  const lines = [
    `Pruning: ${s.enabled ? "on" : "off (PI_SIDECAR_PRUNE=0 or prune.enabled)"}; keeps the last ${s.keepRecentTurns} turns; ` +
      `prunes read/bash/search/MCP/kota results longer than a pointer and any result over ${formatCount(s.maxToolChars)} chars; ` +
      `in batches of at least ${formatCount(s.clearAtLeast)} tokens; past ${s.adaptivePercent}% of the context: one turn fewer, half the chars.`,
  ];
  if (!saved || saved.results === 0) lines.push("Nothing pruned yet in this session.");
  else {
    lines.push(
      `This session: ${plural(saved.results, "result")} replaced by pointers in ${plural(saved.batches, "batch", "batches")}; ` +
        `${formatCount(saved.savedPerRequest)} tokens fewer on every later request (${formatCount(saved.tokensBefore)} -> ${formatCount(saved.tokensAfter)}` +
        `${saved.larger > 0 ? `; ${plural(saved.larger, "pointer")} larger than its result, counted as 0` : ""}).`,
    );
    const b = saved.lastBatch;
    if (b)
      lines.push(
        `Last batch: ${new Date(b.at).toLocaleTimeString()}, ${plural(b.results, "result")}, ${formatCount(b.tokensBefore)} -> ${formatCount(b.tokensAfter)} tokens${b.adaptive ? " (adaptive)" : ""}.`,
      );
  }
  if (last) {
    lines.push(
      `Last call: ${formatCount(last.pending)} tokens due for the next batch${last.settings.adaptive ? "; adaptive (context past the threshold)" : ""}.`,
    );
    for (const p of last.pruned.slice(-5)) lines.push(`  ${p.tool} ${p.callId} -> ${p.source}`);
  }
  if (problem) lines.push(`Last problem: ${problem}`);
  return lines.join("\n");
}
