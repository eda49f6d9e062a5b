/**
 * What `/pin` keeps when the last result is a read-cache marker ("[readcache: unchanged] ..."):
 * the read whose text the marker stands for. Pinning the marker itself keeps a line that says
 * "shown to you earlier" while pruning takes away what was shown.
 */
import { readRecordOf } from "../../readcache/index.ts";

type Entry = { type?: string; message?: { role?: string; toolName?: string; toolCallId?: string; details?: unknown } };

/** The latest earlier read of the marker's file that showed its text (for `unchanged`: this very content). */
export function markerBasis(branch: readonly unknown[], markerIndex: number): { id: string; tool: string } | null {
  const list = branch as readonly Entry[];
  const marker = readRecordOf(list[markerIndex]?.message?.details);
  if (!marker || marker.mode === "full") return null;
  for (let i = markerIndex - 1; i >= 0; i--) {
    const m = list[i]!.message;
    if (list[i]!.type !== "message" || m?.role !== "toolResult" || m.toolName !== "read") continue;
    const r = readRecordOf(m.details);
    if (!r || r.path !== marker.path || r.mode !== "full" || r.trusted.length === 0) continue;
    if (marker.mode === "unchanged" && r.hash !== marker.hash) continue;
    return { id: String(m.toolCallId), tool: "read" };
  }
  return null;
}
