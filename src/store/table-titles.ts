/**
 * Titles of plain-text chunks that continue a ruled table: a header line (the columns' names,
 * perhaps a caption line above it) over a rule of dashes or equals signs under each column
 * (`-------- -----`, `===  ====`), then rows up to the next blank line, often hundreds long. A
 * chunk that starts among those rows does not hold the header: it is titled with it (titles are
 * indexed), so a question naming a column ("... value in the variables list") finds the row far
 * below its header.
 */
import { blankSpan as blank } from "./blank-span.ts";
import type { RawChunk } from "./chunk.ts";

/** A rule under a table's header: runs of `-`, `=` or `+` (at least three), separated by spaces, nothing else. */
const RULE = /^[ \t]*[-=+]{3,}(?:[ \t]+[-=+]{3,})*[ \t]*$/;
/** How long a header line may be (a longer line is prose, not names); the two lines above a rule are its header. */
const MAX_HEADER = 120;

/** Whether text[from, to) may be a rule: its first non-blank character is `-`, `=` or `+` (then RULE says). */
function mayBeRule(text: string, from: number, to: number): boolean {
  let k = from;
  while (k < to && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
  const c = text.charCodeAt(k);
  return k < to && (c === 45 || c === 61 || c === 43) && RULE.test(text.slice(from, to));
}

/** Each chunk's table header when it starts among a ruled table's rows (its first line is a row, not the header or rule), else "". */
export function tableHeaders(chunks: RawChunk[]): string[] {
  const out: string[] = [];
  // The header of the table the lines so far are rows of ("" when none), and the two lines before
  // the current one since the last blank line (a header's candidates; null when none).
  let header = "";
  let before: string | null = null;
  let last: string | null = null;
  for (const chunk of chunks) {
    const text = chunk.text;
    let title: string | null = null;
    // A chunk's text ends with a newline unless a long line was split: the rest is the next chunk's first line.
    for (let at = 0; at < text.length; ) {
      let end = text.indexOf("\n", at);
      if (end < 0) end = text.length;
      if (blank(text, at, end)) {
        header = "";
        before = last = null;
        title ??= "";
      } else if (mayBeRule(text, at, end)) {
        header = [before, last]
          .filter((l): l is string => l !== null && l.length <= MAX_HEADER && !RULE.test(l))
          .map((l) => l.trim().replace(/\s+/g, " "))
          .join(" ");
        title ??= "";
        before = last = null;
      } else {
        title ??= header;
        // Only a short line may be a header: a longer one is kept as null (prose, or a row).
        before = last;
        last = end - at <= MAX_HEADER ? text.slice(at, end) : null;
      }
      at = end + 1;
    }
    out.push(title ?? "");
  }
  return out;
}
