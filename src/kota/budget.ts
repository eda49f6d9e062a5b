/**
 * Fitting an answer into a byte budget: each answer has renderings from the fullest (level 0) to
 * the most compact; the first that fits is used, and it says what was cut and how to narrow the
 * question. When even the most compact does not fit, the caller stores the full text and sends a
 * receipt (the answer's head plus where the rest is).
 */

export type Rendering = {
  text: string;
  /** What this level left out, in words (empty at level 0). */
  cut: string[];
};

export type Fitted = {
  text: string;
  level: number;
  cut: string[];
  /** Even the most compact rendering is over the budget. */
  over: boolean;
  /** The full (level 0) text, for storing when `over`. */
  full: string;
};

export const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** The first rendering within `budget` bytes, its notes appended; `levels` renderings from 0. */
export function fitToBudget(render: (level: number) => Rendering, levels: number, budget: number, narrow: string): Fitted {
  const full = render(0);
  let last: Fitted | null = null;
  for (let level = 0; level < levels; level++) {
    const r = level === 0 ? full : render(level);
    const text = withNotes(r, narrow);
    last = { text, level, cut: r.cut, over: bytes(text) > budget, full: full.text };
    if (!last.over) return last;
  }
  return last!;
}

function withNotes(r: Rendering, narrow: string): string {
  if (r.cut.length === 0) return r.text;
  return `${r.text}\n[Shortened to fit: ${r.cut.join("; ")}. ${narrow}]`;
}

/** The head of `text` within `budget` bytes, cut at a line end. */
export function headLines(text: string, budget: number): string {
  if (bytes(text) <= budget) return text;
  const lines = text.split("\n");
  const out: string[] = [];
  let used = 0;
  for (const line of lines) {
    const n = bytes(line) + 1;
    if (used + n > budget) break;
    out.push(line);
    used += n;
  }
  return out.join("\n");
}

/** "3 files" / "1 file". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
