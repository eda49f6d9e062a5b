/**
 * Lines for a receipt's preview: the first and last lines that say something (blank and
 * decoration-only lines never fill a preview), numbered and clipped for display.
 */
import { isBlank, type Line } from "./receipt/text-view.ts";

export type PreviewLine = Line;

/** Up to `count` non-blank lines from the start of `lines`. */
export function headLines(lines: Line[], count: number): PreviewLine[] {
  const out: PreviewLine[] = [];
  for (const l of lines) {
    if (out.length >= count) break;
    if (!isBlank(l.text)) out.push(l);
  }
  return out;
}

/** Up to `count` non-blank lines from the end of `lines`, in order. */
export function tailLines(lines: Line[], count: number): PreviewLine[] {
  const out: PreviewLine[] = [];
  for (let i = lines.length - 1; i >= 0 && out.length < count; i--) {
    if (!isBlank(lines[i]!.text)) out.unshift(lines[i]!);
  }
  return out;
}

export function clipLine(text: string, max: number): string {
  const t = text.replace(/\t/g, "  ").replace(/\r$/, "").trimEnd();
  if (t.length <= max) return t;
  // Never cut a surrogate pair in half.
  const cut = /[\ud800-\udbff]/.test(t[max - 2] ?? "") ? max - 2 : max - 1;
  return `${t.slice(0, cut)}…`;
}

export function numbered(l: PreviewLine, width: number, maxChars: number): string {
  return `${String(l.line).padStart(width)}  ${clipLine(l.text, maxChars)}`;
}
