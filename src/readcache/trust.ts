/**
 * What the model has actually seen: per file, per content hash, the line ranges shown to it.
 * Rebuilt from the session's active branch (replay.ts) and updated by each read result.
 */
import { addRange, type Range, removeRange } from "./ranges.ts";

export type Version = { hash: string; lines: number; ranges: Range[]; seq: number };

/** What a read result records in its details, and replay reads back. */
export type ReadRecord = {
  v: 1;
  path: string;
  hash: string;
  lines: number;
  mode: string;
  trusted: Range[];
  saved?: { bytes: number; tokens: number };
  /** The text came back because its earlier read was pruned, and stays in view from now on (readcache.afterPrune "pin"). */
  pin?: true;
};

export type TrustState = {
  record(r: ReadRecord): void;
  invalidate(path: string, range?: Range): void;
  versions(path: string): Version[];
  files(): number;
  clear(): void;
};

export function createTrust(): TrustState {
  const byPath = new Map<string, Map<string, Version>>();
  let seq = 0;
  return {
    record(r) {
      const versions = byPath.get(r.path) ?? new Map<string, Version>();
      const v = versions.get(r.hash) ?? { hash: r.hash, lines: r.lines, ranges: [], seq: 0 };
      for (const range of r.trusted) v.ranges = addRange(v.ranges, range);
      v.seq = ++seq;
      versions.set(r.hash, v);
      byPath.set(r.path, versions);
    },
    invalidate(path, range) {
      const versions = byPath.get(path);
      if (!versions) return;
      if (!range) {
        byPath.delete(path);
        return;
      }
      for (const v of versions.values()) v.ranges = removeRange(v.ranges, range);
    },
    /** Most recently used first. */
    versions: (path) => [...(byPath.get(path)?.values() ?? [])].filter((v) => v.ranges.length > 0).sort((a, b) => b.seq - a.seq),
    files: () => byPath.size,
    clear: () => byPath.clear(),
  };
}
