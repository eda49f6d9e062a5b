/**
 * Rebuilds trust from the session's active branch: read results' details and refresh entries.
 * A compaction is a barrier: read results it summarised away (before its first kept entry)
 * are no longer trusted. Only the active branch counts, so tree navigation and forks are right
 * with no extra state; a restart rebuilds the same way from the session file. Read results that
 * pruning replaced by pointers are not in view either. A marker (unchanged, unchanged_range, diff)
 * counts only while what it stood on is still trusted: a marker whose full read was pruned or
 * summarised away restores nothing.
 */
import { covers, type Range } from "./ranges.ts";
import { createTrust, type ReadRecord, type TrustState } from "./trust.ts";

export const REFRESH_ENTRY = "readcache-refresh";

export type RefreshData = { path: string; range?: Range };

type Entry = {
  type?: string;
  id?: string;
  customType?: string;
  data?: unknown;
  firstKeptEntryId?: string;
  message?: { role?: string; toolName?: string; toolCallId?: string; details?: unknown };
};

export function readRecordOf(details: unknown): ReadRecord | null {
  const r = (details as { readcache?: unknown } | undefined)?.readcache as Partial<ReadRecord> | undefined;
  if (r?.v !== 1 || typeof r.path !== "string" || typeof r.hash !== "string" || !Array.isArray(r.trusted)) return null;
  return r as ReadRecord;
}

export function refreshOf(entry: Entry): RefreshData | null {
  if (entry.type !== "custom" || entry.customType !== REFRESH_ENTRY) return null;
  const d = entry.data as Partial<RefreshData> | undefined;
  return d && typeof d.path === "string" ? { path: d.path, range: Array.isArray(d.range) ? (d.range as Range) : undefined } : null;
}

/** The index from which entries are still in the model's context (after the last compaction). */
function keptFrom(entries: readonly Entry[]): number {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.type !== "compaction") continue;
    const kept = entries.findIndex((x) => x.id === e.firstKeptEntryId);
    return kept >= 0 && kept < i ? kept : i + 1;
  }
  return 0;
}

export type ReplayResult = { trust: TrustState; records: ReadRecord[] };

/** The model still sees what this marker relied on. */
export function basisStands(trust: TrustState, r: ReadRecord): boolean {
  const versions = trust.versions(r.path);
  if (r.mode === "unchanged") return versions.some((v) => v.hash === r.hash && r.trusted.every((t) => covers(v.ranges, t)));
  if (r.mode === "unchanged_range") return versions.some((v) => r.trusted.every((t) => covers(v.ranges, t)));
  if (r.mode === "diff") return versions.some((v) => v.hash !== r.hash && covers(v.ranges, [1, Math.max(1, v.lines)]));
  return true;
}

/** `pruned`: call ids of results the model now sees as pruning pointers. */
export function replay(entries: readonly unknown[], pruned: ReadonlySet<string> = new Set()): ReplayResult {
  const list = entries as readonly Entry[];
  const trust = createTrust();
  const records: ReadRecord[] = [];
  for (let i = keptFrom(list); i < list.length; i++) {
    const e = list[i]!;
    if (e.type === "message" && e.message?.role === "toolResult" && e.message.toolName === "read") {
      const r = readRecordOf(e.message.details);
      if (r) {
        if (!pruned.has(e.message.toolCallId ?? "") && basisStands(trust, r)) trust.record(r);
        records.push(r);
      }
      continue;
    }
    const refresh = refreshOf(e);
    if (refresh) trust.invalidate(refresh.path, refresh.range);
  }
  return { trust, records };
}
