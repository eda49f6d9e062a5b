/**
 * Read-cache markers and pruning. A marker ("unchanged", "unchanged_range", a diff) tells the
 * model it holds lines an earlier read showed; once that read is a pointer (or summarised away
 * by a compaction, or on another branch) the claim is false. So: a read that a marker of the
 * kept turns stands on stays in view, and a marker whose text is no longer sent becomes a
 * pointer to the exact text it stood for. What a marker claims is the read cache's to judge
 * (the engine passes it in as MarkerDeps); pruning only decides what is sent.
 */
import type { Keyed } from "./messages.ts";
import { outsideKeptTurns, type PruneSettings } from "./rules.ts";

export type MarkerRead = { key: string; tool: string; details: unknown; sent: boolean };

export type MarkerDeps = {
  /**
   * Of these results (oldest first), the read-cache markers, and those of them that are sent but
   * claim text no result still sent holds.
   */
  check(results: readonly MarkerRead[]): { markers: Set<string>; stranded: Set<string> };
  /** The exact text a marker stood for (the file's lines as they were), or null when it is no longer kept. */
  text(details: unknown): string | null;
};

export type StrandedMarker = { k: Keyed; text: string | null };

export function markerPlan(all: readonly Keyed[], deps: MarkerDeps | undefined) {
  const check = (sent: (k: Keyed) => boolean) =>
    deps?.check(all.map((k) => ({ key: k.key, tool: k.view.tool, details: k.view.details, sent: sent(k) }))) ?? {
      markers: new Set<string>(),
      stranded: new Set<string>(),
    };
  const markers = check(() => true).markers;
  return {
    isMarker: (k: Keyed) => markers.has(k.key),

    /** `due` without the reads whose pruning would strand a marker of the kept turns. */
    keepBases(due: Keyed[], pruned: (k: Keyed) => boolean, settings: PruneSettings): Keyed[] {
      if (markers.size === 0 || due.length === 0) return due;
      const recent = new Set(all.filter((k) => markers.has(k.key) && !outsideKeptTurns(k.view, settings)).map((k) => k.key));
      if (recent.size === 0) return due;
      const strandedRecent = (going: Set<string>) =>
        [...check((k) => !pruned(k) && !going.has(k.key)).stranded].filter((key) => recent.has(key)).length;
      const going = new Set(due.map((k) => k.key));
      let stranded = strandedRecent(going);
      // Newest first: a marker stands on the latest read of its lines.
      for (const k of [...due].reverse()) {
        if (stranded === 0) break;
        if (k.view.tool !== "read") continue;
        going.delete(k.key);
        const now = strandedRecent(going);
        if (now < stranded) stranded = now;
        else going.add(k.key);
      }
      return due.filter((k) => going.has(k.key));
    },

    /** The markers that are sent but stand on text that is not. */
    stranded(sent: (k: Keyed) => boolean): StrandedMarker[] {
      if (markers.size === 0) return [];
      const { stranded } = check(sent);
      return all.filter((k) => stranded.has(k.key)).map((k) => ({ k, text: deps!.text(k.view.details) }));
    },
  };
}
