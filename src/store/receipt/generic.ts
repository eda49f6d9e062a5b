/**
 * The preview for outputs no recogniser knows: lines that look like failures, scored by what they
 * are, from a bounded scan of the whole text plus the tail window (where tools print their verdict).
 */
import { CANDIDATES, type Finding, pick, scoreLine } from "./line-score.ts";
import { tallyFindings } from "./tally.ts";
import type { TextView } from "./text-view.ts";

/** Candidate lines kept per pre-filter; enough for any real log, bounded for a pathological one. */
const MAX_CANDIDATES = 2000;

export function genericFindings(view: TextView, max: number): Finding[] {
  const lines = new Map<number, string>();
  for (const re of CANDIDATES) {
    for (const hit of view.scan(new RegExp(re.source, re.flags), null, MAX_CANDIDATES, undefined, MAX_CANDIDATES).hits)
      lines.set(hit.line, hit.text);
  }
  for (const l of view.tail()) lines.set(l.line, l.text);
  const found: Finding[] = [];
  for (const [line, text] of lines) {
    const score = scoreLine(text);
    if (score > 1) found.push({ line, text, score });
  }
  // Totals and counts: where tools say how it went, the last lines (and the first few).
  found.push(...tallyFindings(view));
  return pick(found, max, "spread");
}
