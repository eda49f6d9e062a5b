/**
 * A detector wakes up on keyword hits (its hints, found by one automaton pass for all detectors)
 * and looks only at a bounded stretch of text around each hit, so a pass stays linear.
 */
import type { ScanContext } from "./scan-context.ts";

export type Detector = {
  readonly name: string;
  /** Lower-case keywords; a leading BOUNDARY means the keyword must start a token. */
  readonly hints: readonly string[];
  /** start..end is the keyword itself (without the boundary character). */
  onHit(ctx: ScanContext, start: number, end: number, hint: string): void;
  /** Runs once after every hit was seen. */
  finish?(ctx: ScanContext): void;
};

export function isTokenChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

export function isSpace(code: number): boolean {
  return code === 32 || code === 9;
}

export function isQuote(code: number): boolean {
  return code === 34 || code === 39 || code === 96;
}

/** indexOf limited to [from, to): never reads past `to`, so a hit costs at most its window. */
export function indexWithin(text: string, needle: string, from: number, to: number): number {
  const at = text.slice(from, Math.min(to, text.length)).indexOf(needle);
  return at === -1 ? -1 : from + at;
}
