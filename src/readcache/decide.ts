/**
 * The read cache's decision for one read, given what the built-in read would show and what the
 * model has actually seen before (trust). Never claims lines are unchanged that the model has
 * not been shown: `unchanged` needs every shown line trusted for this exact content, and
 * `unchanged_range` needs the same lines trusted in an earlier version and identical now.
 */
import { sha256 } from "../hash.ts";
import { countLines } from "../text.ts";
import { diffWorthIt, tooBigToDiff, unifiedPatch } from "./diff.ts";
import type { ObjectStore } from "./objects.ts";
import { covers, type Range } from "./ranges.ts";
import type { ReadRecord, Version } from "./trust.ts";

export type ReadMode = "full" | "unchanged" | "unchanged_range" | "diff";

export type DecideInput = {
  /** Absolute path. */
  path: string;
  /** The file's whole text now. */
  text: string;
  /** The lines the built-in read shows for this request, or null when it shows no whole line. */
  shown: Range | null;
  /** The built-in shows the whole file (no offset, no limit, not cut). */
  wholeFile: boolean;
  /** The built-in's model-facing text. */
  builtIn: string;
  /** What the model has seen of this path, most recent first. */
  versions: Version[];
};

/** `base`: the earlier version the answer was derived from (unchanged_range, diff). */
export type Decision = { mode: ReadMode; text: string; record: ReadRecord; base?: string };

export function contentHash(text: string): string {
  return sha256(text);
}

/** Lines a..b (1-based, inclusive) of a text. */
export function linesOf(text: string, [a, b]: Range): string {
  let start = 0;
  for (let line = 1; line < a; line++) {
    const nl = text.indexOf("\n", start);
    if (nl === -1) return "";
    start = nl + 1;
  }
  let end = start;
  for (let line = a; line <= b; line++) {
    const nl = text.indexOf("\n", end);
    if (nl === -1) return text.slice(start);
    end = nl + 1;
  }
  return text.slice(start, end);
}

/** "line 7" or "lines 7-12", as markers name what they cover. */
export const span = ([a, b]: Range) => (a === b ? `line ${a}` : `lines ${a}-${b}`);

export function decide(input: DecideInput, objects: ObjectStore): Decision {
  const hash = contentHash(input.text);
  const lines = countLines(input.text);
  const make = (mode: ReadMode, text: string, trusted: Range[]): Decision => ({
    mode,
    text,
    record: { v: 1, path: input.path, hash, lines, mode, trusted },
  });
  const { shown } = input;
  if (shown) {
    const current = input.versions.find((v) => v.hash === hash);
    if (current && covers(current.ranges, shown)) {
      return make(
        "unchanged",
        `[readcache: unchanged] ${input.path}: ${span(shown)} of ${lines} were shown to you earlier and have not changed since.`,
        [shown],
      );
    }
    const wanted = linesOf(input.text, shown);
    for (const v of input.versions) {
      if (v.hash === hash || !covers(v.ranges, shown)) continue;
      const old = objects.get(v.hash);
      if (old !== null && linesOf(old, shown) === wanted) {
        return {
          ...make(
            "unchanged_range",
            `[readcache: unchanged_range] ${input.path}: ${span(shown)} are the same as when they were shown to you; the file changed elsewhere (${lines} lines now).`,
            [shown],
          ),
          base: v.hash,
        };
      }
    }
  }
  if (input.wholeFile && !tooBigToDiff(Buffer.byteLength(input.text), lines)) {
    for (const v of input.versions) {
      if (v.hash === hash || !covers(v.ranges, [1, Math.max(1, v.lines)])) continue;
      const old = objects.get(v.hash);
      if (old === null) continue;
      const p = unifiedPatch(input.path, old, input.text);
      if (!diffWorthIt(p, Buffer.byteLength(input.text), lines)) break;
      const changed = `${p.changedLines} line${p.changedLines === 1 ? "" : "s"} changed of ${lines}`;
      return {
        ...make("diff", `[readcache: diff] ${input.path}: ${changed} since you last read it in full.\n${p.patch}`, [
          [1, Math.max(1, lines)],
        ]),
        base: v.hash,
      };
    }
  }
  return make("full", input.builtIn, shown ? [shown] : []);
}
