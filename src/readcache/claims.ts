/**
 * What read-cache markers claim, for pruning: which results are markers, which of them are sent
 * but stand on text no result still sent holds (its read pruned, summarised away, or never on
 * this branch), and the exact text a marker stood for (the file's lines from the base versions
 * this database keeps). The same rule as trust replay (replay.ts), over what is sent.
 */
import { linesOf } from "./decide.ts";
import type { ObjectStore } from "./objects.ts";
import { basisStands, readRecordOf } from "./replay.ts";
import { createTrust } from "./trust.ts";

const MARKERS = new Set(["unchanged", "unchanged_range", "diff"]);

/** A read result's details say it is a marker (it stands on text an earlier read showed). */
export function isMarker(details: unknown): boolean {
  const record = readRecordOf(details);
  return record !== null && MARKERS.has(record.mode);
}

export function checkMarkers(results: readonly { key: string; tool: string; details: unknown; sent: boolean }[]): {
  markers: Set<string>;
  stranded: Set<string>;
} {
  const trust = createTrust();
  const markers = new Set<string>();
  const stranded = new Set<string>();
  for (const r of results) {
    if (r.tool !== "read") continue;
    const record = readRecordOf(r.details);
    if (!record) continue;
    const marker = isMarker(r.details);
    if (marker) markers.add(r.key);
    if (!r.sent) continue;
    if (marker && !basisStands(trust, record)) stranded.add(r.key);
    else trust.record(record);
  }
  return { markers, stranded };
}

/** The file's lines a marker stood for, as they were, or null when that version is no longer kept. */
export function markerText(objects: Pick<ObjectStore, "get">, details: unknown): string | null {
  const record = readRecordOf(details);
  if (!record || record.trusted.length === 0) return null;
  const text = objects.get(record.hash);
  return text === null ? null : record.trusted.map((range) => linesOf(text, range)).join("");
}
