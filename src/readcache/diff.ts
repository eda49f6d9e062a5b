/**
 * The diff mode's patch and its gate: a patch is only worth sending when it is clearly smaller
 * than the file (under 0.9x its bytes, at most 0.85x its lines), and never for huge files.
 */
import { createTwoFilesPatch } from "diff";

export const DIFF_LIMITS = { maxBytes: 2 * 1024 * 1024, maxLines: 12_000, byteRatio: 0.9, lineRatio: 0.85 } as const;

export type Patch = { patch: string; changedLines: number };

export function unifiedPatch(path: string, before: string, after: string): Patch {
  const full = createTwoFilesPatch(path, path, before, after, "seen", "now", { context: 2 });
  // Drop the "Index:"/"===" preamble; keep ---/+++ and the hunks.
  const patch = full.slice(full.indexOf("--- ")).trimEnd();
  let added = 0;
  let removed = 0;
  for (const line of patch.split("\n")) {
    if (line.startsWith("+") && !line.startsWith("+++")) added++;
    else if (line.startsWith("-") && !line.startsWith("---")) removed++;
  }
  // A modified line is one removal and one addition: count it once.
  return { patch, changedLines: Math.max(added, removed) };
}

export function diffWorthIt(p: Patch, fileBytes: number, fileLines: number): boolean {
  const patchLines = p.patch.split("\n").length;
  return Buffer.byteLength(p.patch) < DIFF_LIMITS.byteRatio * fileBytes && patchLines <= DIFF_LIMITS.lineRatio * fileLines;
}

export function tooBigToDiff(bytes: number, lines: number): boolean {
  return bytes > DIFF_LIMITS.maxBytes || lines > DIFF_LIMITS.maxLines;
}
