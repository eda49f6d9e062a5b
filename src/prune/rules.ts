/**
 * Which tool results may be replaced by a pointer. Never: the model's and the user's own
 * messages (only tool results are looked at), results of the last turns, pinned results
 * (`kota_impact` summaries by default), results with images, and recent errors.
 */
import type { ResultView } from "./messages.ts";

export type PruneSettings = {
  /** Results of the last this many user turns stay. */
  keepRecentTurns: number;
  /** Any tool's result longer than this may go. */
  maxToolChars: number;
  /** A batch must clear at least this many tokens. */
  clearAtLeast: number;
  /** Past this share of the context window (percent): one turn fewer, half of maxToolChars. */
  adaptivePercent: number;
};

/** Tools whose results are bulk the model can get back: pruned once longer than a pointer. */
const BULK = /^(read|bash|grep|find|ls|context_search|context_get|mcp_call|mcp_search|mcp_describe|kota_(?!impact$)\w+)$|__/;
/** A result this short costs about what its pointer would. */
const MIN_CHARS = 400;
/** Errors stay this many turns longer than other results: they say what went wrong. */
const ERROR_GRACE_TURNS = 3;
/** Pinned unless unpinned: a change's impact summary is what the rest of the work follows. */
const PINNED_TOOLS = new Set(["kota_impact"]);

/** The settings in force at this context usage (adaptive past the threshold). */
export function settingsAt(settings: PruneSettings, usagePercent: number | null | undefined): PruneSettings & { adaptive: boolean } {
  if (usagePercent == null || usagePercent < settings.adaptivePercent) return { ...settings, adaptive: false };
  return {
    ...settings,
    keepRecentTurns: Math.max(1, settings.keepRecentTurns - 1),
    maxToolChars: Math.max(MIN_CHARS, Math.floor(settings.maxToolChars / 2)),
    adaptive: true,
  };
}

/** Outside the turns that always stay (errors stay a few turns longer). */
export function outsideKeptTurns(r: ResultView, s: PruneSettings): boolean {
  return r.turnsAgo >= s.keepRecentTurns + (r.isError ? ERROR_GRACE_TURNS : 0);
}

export function isPrunable(r: ResultView, s: PruneSettings, pinned: ReadonlySet<string>): boolean {
  if (r.images || pinned.has(r.callId) || PINNED_TOOLS.has(r.tool) || !outsideKeptTurns(r, s)) return false;
  return BULK.test(r.tool) ? r.text.length > Math.min(MIN_CHARS, s.maxToolChars) : r.text.length > s.maxToolChars;
}
