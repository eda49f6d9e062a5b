/**
 * What the detectors share during one redaction pass: the text, the findings so far, cheap line
 * lookups and the last position of context words. Hits arrive in increasing position, so the line
 * lookups and "already covered" checks are amortised O(1): nothing here rescans a long line.
 */

/** How sure a detector is of its kind: on overlap the finding with the higher rank names the kind. */
export const RANK = { generic: 1, context: 2, format: 3 } as const;

export type Finding = { start: number; end: number; kind: string; rank: number };

export type ScanContext = {
  readonly text: string;
  readonly findings: Finding[];
  /** The caller only asks whether anything would change: the pass may stop at the first finding. */
  readonly firstOnly: boolean;
  add(start: number, end: number, kind: string, rank: number): void;
  /** True if pos lies inside a finding already made (hits inside a redacted value are skipped). */
  covered(pos: number): boolean;
  lineStart(pos: number): number;
  lineEnd(pos: number): number;
  /** Remembers where a context word (`curl`, `sshpass`, `login`...) was last seen. */
  see(word: string, pos: number): void;
  /** Where the word was last seen, or -1. */
  seen(word: string): number;
  /** Where the word was last seen at or before pos on the same line, or -1. */
  seenOnLine(word: string, pos: number): number;
  /** Scratch state a detector keeps for the length of one pass. */
  readonly state: Map<string, unknown>;
  /**
   * How many characters of a value a detector may examine. Generous (whole values) until the pass
   * has examined several times the text's length, which only a text made of back-to-back keywords
   * does; then short, so the work stays linear whatever the input.
   */
  examine(length: number): number;
};

export function createScanContext(text: string, firstOnly: boolean): ScanContext {
  const findings: Finding[] = [];
  let coveredUntil = -1;
  // The line that holds the last position asked about: [lineFrom, lineTo) where lineTo is the "\n" or the end.
  let lineFrom = 0;
  let lineTo = -1;
  const seen = new Map<string, number>();
  let budget = 4 * text.length + 65536;

  const locate = (pos: number): void => {
    if (pos >= lineFrom && pos <= lineTo) return;
    // Moving forward, the backward search stops at the previous line's "\n" at the latest.
    lineFrom = text.lastIndexOf("\n", pos - 1) + 1;
    const next = text.indexOf("\n", pos);
    lineTo = next === -1 ? text.length : next;
  };

  return {
    text,
    findings,
    firstOnly,
    state: new Map(),
    add(start, end, kind, rank) {
      if (end <= start) return;
      findings.push({ start, end, kind, rank });
      if (end > coveredUntil) coveredUntil = end;
    },
    covered(pos) {
      if (pos >= coveredUntil) return false;
      // Findings arrive roughly in text order: the recent ones are the only candidates worth checking.
      for (let i = findings.length - 1; i >= 0 && i >= findings.length - 16; i--) {
        const f = findings[i]!;
        if (pos >= f.start && pos < f.end) return true;
      }
      return false;
    },
    lineStart(pos) {
      locate(pos);
      return lineFrom;
    },
    lineEnd(pos) {
      locate(pos);
      return lineTo;
    },
    examine(length) {
      const allowed = budget > 0 ? length : Math.min(length, 64);
      budget -= allowed;
      return allowed;
    },
    see(word, pos) {
      seen.set(word, pos);
    },
    seen(word) {
      return seen.get(word) ?? -1;
    },
    seenOnLine(word, pos) {
      const at = seen.get(word);
      if (at === undefined || at > pos) return -1;
      return at >= this.lineStart(pos) ? at : -1;
    },
  };
}
