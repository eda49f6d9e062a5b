/**
 * Runs a set of detectors over a text: one automaton pass finds every hint of every detector, then
 * each hit wakes the detectors that asked for its keyword, in text order.
 */
import type { Detector } from "./detector.ts";
import { BOUNDARY, compileKeywords } from "./keyword-automaton.ts";
import { createScanContext, type ScanContext } from "./scan-context.ts";

export type DetectorSet = {
  readonly keywords: readonly string[];
  /** firstOnly: stop at the first finding (enough to answer "would redaction change this?"). */
  run(text: string, firstOnly: boolean): ScanContext;
};

export function createDetectorSet(detectors: readonly Detector[]): DetectorSet {
  const keywords: string[] = [];
  const listeners: Detector[][] = [];
  const index = new Map<string, number>();
  for (const detector of detectors) {
    for (const hint of detector.hints) {
      let k = index.get(hint);
      if (k === undefined) {
        k = keywords.length;
        index.set(hint, k);
        keywords.push(hint);
        listeners.push([]);
      }
      if (!listeners[k]!.includes(detector)) listeners[k]!.push(detector);
    }
  }
  const automaton = compileKeywords(keywords);
  // Length of the keyword proper: a leading BOUNDARY matched the character before it.
  const lengths = keywords.map((k) => (k.startsWith(BOUNDARY) ? k.length - 1 : k.length));
  const finishers = detectors.filter((d) => d.finish !== undefined);

  return {
    keywords,
    run(text, firstOnly) {
      const ctx = createScanContext(text, firstOnly);
      const hits = automaton.scan(text);
      for (let i = 0; i < hits.length; i += 2) {
        const k = hits[i]!;
        const end = hits[i + 1]!;
        const start = end - lengths[k]!;
        for (const detector of listeners[k]!) {
          detector.onHit(ctx, start, end, keywords[k]!);
          if (firstOnly && ctx.findings.length > 0) return ctx;
        }
      }
      for (const detector of finishers) {
        detector.finish!(ctx);
        if (firstOnly && ctx.findings.length > 0) return ctx;
      }
      return ctx;
    },
  };
}
