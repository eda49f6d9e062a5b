/**
 * Picks the lines of a stored text most worth showing in a receipt: head, tail, and the lines
 * that look important (errors, failures, non-zero exits, stack frames).
 */

export type PreviewLine = { line: number; text: string };

const ALARM =
  /\b(?:error|errors|err!|fatal|panic(?:ked)?|exception|traceback|fail(?:ed|ure|ures|ing|s)?|assert(?:ion)?(?:error)?|segmentation fault|core dumped|denied|refused|timed out|timeout|cannot|could not|unable to|not found|undefined reference|exit(?:ed)? (?:with )?(?:code|status) [1-9]\d*|non-zero|killed|oom)\b/gi;
const HARMLESS = /\b(?:0|no|zero) (?:errors?|failures?|failed|failing)\b|\berrors?: 0\b|\bfailed: 0\b/i;
const FRAME = /^\s+(?:at [\w$.<>[\]]+|at \/|File ".+", line \d+|#\d+ 0x[0-9a-f]+)/;
const MAX_SCAN_MATCHES = 5000;

/** 1-based line number of each offset in a sorted list. */
function lineNumbers(text: string, offsets: number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let pos = 0;
  for (const off of offsets) {
    for (let i = text.indexOf("\n", pos); i !== -1 && i < off; i = text.indexOf("\n", i + 1)) {
      line++;
      pos = i + 1;
    }
    out.push(line);
  }
  return out;
}

function lineAt(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const nl = text.indexOf("\n", offset);
  return { start, end: nl === -1 ? text.length : nl };
}

/** Lines that look important, most important first, at most `max`. */
export function notableLines(text: string, max: number): PreviewLine[] {
  const found: { start: number; text: string; score: number }[] = [];
  ALARM.lastIndex = 0;
  for (let m = ALARM.exec(text); m && found.length < MAX_SCAN_MATCHES; m = ALARM.exec(text)) {
    const { start, end } = lineAt(text, m.index);
    const line = text.slice(start, end);
    if (!HARMLESS.test(line)) {
      const score = /\b(?:error|fatal|panic|exception|traceback|failed|failure|exit(?:ed)? (?:with )?(?:code|status) [1-9])/i.test(line)
        ? 3
        : 2;
      found.push({ start, text: line, score });
      // A stack frame right after an error line is worth one slot.
      const nextEnd = text.indexOf("\n", end + 1);
      const next = text.slice(end + 1, nextEnd === -1 ? text.length : nextEnd);
      if (FRAME.test(next)) found.push({ start: end + 1, text: next, score: 1 });
    }
    ALARM.lastIndex = end + 1;
  }
  // Most important first; among equals, spread over the text (first and last occurrences first).
  const seen = new Set<number>();
  const unique = found.filter((f) => !seen.has(f.start) && seen.add(f.start));
  const picked: typeof unique = [];
  for (const score of [3, 2, 1]) {
    const tier = unique.filter((f) => f.score === score);
    const order = spread(tier.length);
    for (const i of order) {
      if (picked.length >= max) break;
      picked.push(tier[i]!);
    }
  }
  picked.sort((a, b) => a.start - b.start);
  const lines = lineNumbers(
    text,
    picked.map((p) => p.start),
  );
  return picked.map((p, i) => ({ line: lines[i]!, text: p.text }));
}

/** Indices 0..n-1 ordered first, last, middle, quarters... so a few picks cover the range. */
function spread(n: number): number[] {
  if (n <= 2) return [...Array(n).keys()];
  const order: number[] = [0, n - 1];
  const seen = new Set(order);
  for (let parts = 2; order.length < n && parts <= 64; parts *= 2) {
    for (let k = 1; k < parts; k++) {
      const i = Math.round((k * (n - 1)) / parts);
      if (!seen.has(i)) {
        seen.add(i);
        order.push(i);
      }
    }
  }
  for (let i = 0; i < n; i++) if (!seen.has(i)) order.push(i);
  return order;
}

export function headLines(text: string, count: number): PreviewLine[] {
  const out: PreviewLine[] = [];
  let pos = 0;
  for (let line = 1; line <= count && pos < text.length; line++) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl;
    out.push({ line, text: text.slice(pos, end) });
    pos = end + 1;
  }
  return out;
}

export function tailLines(text: string, count: number, totalLines: number): PreviewLine[] {
  const out: PreviewLine[] = [];
  let end = text.endsWith("\n") ? text.length - 1 : text.length;
  for (let line = totalLines; line > 0 && out.length < count; line--) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    out.unshift({ line, text: text.slice(start, end) });
    end = start - 1;
    if (start === 0) break;
  }
  return out;
}

export function clipLine(text: string, max: number): string {
  const t = text.replace(/\t/g, "  ").replace(/\r$/, "");
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}
