/**
 * A recogniser knows one kind of tool output: how to tell it from the head and tail windows, and
 * how to say what happened (a short summary, first) and which lines matter (scored findings).
 */
import { formatCount } from "../../units.ts";
import type { Finding } from "./line-score.ts";
import type { TextView } from "./text-view.ts";

export type Recognised = { summary: string[]; important: Finding[] };

export type Recogniser = {
  kind: string;
  /** Cheap: looks at view.headText / view.tailText only. */
  detect(view: TextView): boolean;
  analyze(view: TextView): Recognised;
  /** A listing (git log, dpkg -l, JSON): its lines are data, so no generic failure lines are added. */
  listing?: boolean;
};

/** Failed test names as summary lines: the first few, then how many more. */
export function failedList(names: string[], max = 10, mark = "✗"): string[] {
  const unique = [...new Set(names)];
  const out = unique.slice(0, max).map((n) => `${mark} ${n}`);
  if (unique.length > max) out.push(`… and ${unique.length - max} more`);
  return out;
}

/** Collapses runs of spaces, as a summary line. */
export function squeeze(text: string): string {
  return text.trim().replace(/[^\S\n]{2,}/g, " ");
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : many}`;
}
