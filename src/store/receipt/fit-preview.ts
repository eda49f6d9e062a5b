/**
 * Fits a receipt's preview into what is left of the byte budget. Parts go in by priority (the
 * summary, then the best important lines, then head and tail), each clipped shorter when it does
 * not fit whole; they are shown in reading order: summary, head, important lines, tail.
 */
import { clipLine, headLines, numbered, type PreviewLine, tailLines } from "../preview.ts";
import type { OutputAnalysis } from "./analyze.ts";
import { salientAt, shapeOf } from "./line-score.ts";
import type { Line } from "./text-view.ts";

type Section = "summary" | "head" | "important" | "tail";
type Part = { section: Section; line?: PreviewLine; text?: string };

const TITLES: Record<Section, string> = {
  summary: "Summary",
  head: "Head:",
  important: "Lines that look important:",
  tail: "Tail:",
};
const ORDER: Section[] = ["summary", "head", "important", "tail"];
/** Widths tried for a line that does not fit whole. */
const WIDTHS = { summary: [200, 120, 80], line: [140, 100, 72] };
/** Head and tail lines at most: the receipt is read on every later turn, so it stays short. */
const HEAD_TAIL = 3;

export type PreviewInput = { analysis: OutputAnalysis; head: Line[]; tail: Line[]; totalLines: number };

function priorities(p: PreviewInput): Part[] {
  const { analysis } = p;
  const important = analysis.important;
  const shownImportant = new Set(important.map((l) => l.line));
  // A head or tail line that only repeats a summary line is not worth its bytes.
  const flat = (t: string) => t.trim().replace(/\s+/g, " ");
  const summaryText = analysis.summary.map(flat).filter((s) => s.length >= 12);
  const fresh = (l: Line) => !shownImportant.has(l.line) && !summaryText.some((s) => flat(l.text).includes(s));
  // A head or tail line shaped like one already shown (the next row of a listing) says little more.
  const shapes = new Set(important.map((l) => shapeOf(l.text)));
  const once = (l: Line) => {
    const shape = shapeOf(l.text);
    if (shapes.has(shape)) return false;
    shapes.add(shape);
    return true;
  };
  const head = headLines(p.head.filter(fresh), HEAD_TAIL).filter(once);
  const tail = tailLines(p.tail.filter(fresh), HEAD_TAIL)
    .reverse()
    .filter((t) => t.line > (head.at(-1)?.line ?? 0) && once(t))
    .reverse();
  const imp = (from: number, to: number): Part[] => important.slice(from, to).map((line) => ({ section: "important", line }));
  return [
    ...analysis.summary.map((text): Part => ({ section: "summary", text })),
    ...imp(0, 3),
    ...head.slice(0, 1).map((line): Part => ({ section: "head", line })),
    ...tail.slice(-1).map((line): Part => ({ section: "tail", line })),
    ...imp(3, 8),
    ...head.slice(1, 3).map((line): Part => ({ section: "head", line })),
    ...tail.slice(-3, -1).map((line): Part => ({ section: "tail", line })),
    ...imp(8, important.length),
    // Only outputs with little else to show get more of their head and tail.
    ...head.slice(3).map((line): Part => ({ section: "head", line })),
    ...tail.slice(0, -3).map((line): Part => ({ section: "tail", line })),
  ];
}

/** Characters kept before the words that make a long line important, for their context. */
const LEAD = 8;

/**
 * An important line too long to show whole, whose important words lie past what fits (one-line
 * XML or JSON, a long log record): its start (what the line is about) and, after "…", the words
 * that made it important.
 */
function focused(line: PreviewLine, maxChars: number): PreviewLine {
  if (line.text.length <= maxChars) return line;
  const at = salientAt(line.text);
  if (at + 20 <= maxChars - 1) return line;
  const start = Math.floor(maxChars * 0.45);
  return { line: line.line, text: `${line.text.slice(0, start)}…${line.text.slice(Math.max(start, at - LEAD))}` };
}

function render(part: Part, width: number, maxChars: number): string {
  if (!part.line) return `  ${clipLine(part.text!, maxChars)}`;
  return numbered(part.section === "important" ? focused(part.line, maxChars) : part.line, width, maxChars);
}

/** The preview lines to append to the fixed part of a receipt, within `budget` bytes in all. */
export function fitPreview(input: PreviewInput, fixedBytes: number, budget: number): string[] {
  const width = String(input.totalLines).length;
  const summaryTitle = `Summary (${input.analysis.kind ?? "output"}):`;
  const chosen = new Map<Part, string>();
  const opened = new Set<Section>();
  let used = fixedBytes;
  for (const part of priorities(input)) {
    const title = opened.has(part.section) ? 0 : Buffer.byteLength(part.section === "summary" ? summaryTitle : TITLES[part.section]) + 1;
    for (const max of part.section === "summary" ? WIDTHS.summary : WIDTHS.line) {
      const text = render(part, width, max);
      const cost = Buffer.byteLength(text) + 1 + title;
      if (used + cost <= budget) {
        chosen.set(part, text);
        opened.add(part.section);
        used += cost;
        break;
      }
    }
  }
  const out: string[] = [];
  for (const section of ORDER) {
    const parts = [...chosen].filter(([p]) => p.section === section);
    if (parts.length === 0) continue;
    out.push(section === "summary" ? summaryTitle : TITLES[section]);
    if (section !== "summary") parts.sort(([a], [b]) => a.line!.line - b.line!.line);
    out.push(...parts.map(([, text]) => text));
  }
  return out;
}
