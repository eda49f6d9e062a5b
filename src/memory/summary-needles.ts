/**
 * Which lines of a summary a search scores: those whose folded text holds a needle, a stem's first
 * letters (a stem's first letters begin the word it stems, so a line without them cannot match).
 * A summary's lines, folded, and the lines holding each needle asked for so far are kept with its
 * text: pure functions of it, and the same summaries and the same words come back query after query.
 */
import { remembered } from "./remember.ts";
import { foldText } from "./stem.ts";

type SummaryText = { lines: string[]; folded: string[]; holding: Map<string, number[]> };
const keptSummaryTexts = remembered<SummaryText>(500);
/** Needles whose lines a summary keeps at most (it starts again empty when full). */
const MAX_NEEDLES = 512;

/** A summary's lines, and which of them after the first (the title) hold any of the needles in their folded text, in order. */
export function linesHolding(text: string, needles: string[]): { lines: string[]; at: number[] } {
  const s = keptSummaryTexts(text, () => ({ lines: text.split("\n"), folded: foldText(text).split("\n"), holding: new Map() }));
  const at = new Set<number>();
  for (const n of needles) {
    let found = s.holding.get(n);
    if (!found) {
      found = [];
      for (let i = 1; i < Math.min(s.lines.length, s.folded.length); i++) if (s.folded[i]!.includes(n)) found.push(i);
      if (s.holding.size >= MAX_NEEDLES) s.holding.clear();
      s.holding.set(n, found);
    }
    for (const i of found) at.add(i);
  }
  return { lines: s.lines, at: [...at].sort((a, b) => a - b) };
}
