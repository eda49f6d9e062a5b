/**
 * CSV exports with a credential column (password managers, IAM console downloads, API key tables):
 * the header names the column (`password`, `Secret access key`, `api_key`...), and that field of each
 * following row is redacted. A header is a line of two or more short comma-separated names.
 */
import type { Detector } from "./detector.ts";
import { isHarmlessValue } from "./harmless-values.ts";
import { classifyKey } from "./key-names.ts";
import { RANK, type ScanContext } from "./scan-context.ts";

const MAX_ROW = 8192;
const MAX_ROWS = 10000;

/** Splits one CSV line into fields with their offsets (quotes kept out of the offsets). */
function fields(line: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line.charCodeAt(i) === 34) {
      let close = i + 1;
      for (;;) {
        close = line.indexOf('"', close);
        if (close === -1 || line.charCodeAt(close + 1) !== 34) break;
        close += 2;
      }
      if (close === -1) return out;
      out.push({ start: i + 1, end: close });
      i = close + 1;
      if (i < line.length && line.charCodeAt(i) !== 44) return out;
      i++;
    } else {
      const comma = line.indexOf(",", i);
      const end = comma === -1 ? line.length : comma;
      out.push({ start: i, end });
      i = end + 1;
    }
  }
  return out;
}

function isHeaderChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 32 || c === 95 || c === 34 || c === 40 || c === 41 || c === 47 || c === 45;
}

function onHit(ctx: ScanContext, start: number): void {
  const text = ctx.text;
  // The keyword must sit in a short header field: only letters, spaces, `_`, quotes back to a comma or the line's start.
  let back = start;
  while (back > 0 && start - back < 40 && isHeaderChar(text.charCodeAt(back - 1))) back--;
  const before = back > 0 ? text.charCodeAt(back - 1) : 10;
  if (before !== 44 && before !== 10) return;
  const lineStart = ctx.lineStart(start);
  // Each line is read once: as a header, or as a row of the header above it.
  if (lineStart < ((ctx.state.get("csv.until") as number | undefined) ?? 0)) return;
  ctx.state.set("csv.until", ctx.lineEnd(start) + 1);
  const lineEnd = ctx.lineEnd(start);
  if (lineEnd - lineStart > 1024) return;
  const header = text.slice(lineStart, lineEnd).replace(/\r$/, "");
  const names = fields(header).map((f) => header.slice(f.start, f.end).trim());
  if (names.length < 2 || !names.every((n) => /^[A-Za-z][\w .()/-]{0,40}$/.test(n))) return;
  const secret = names.map((n) => classifyKey(n.replace(/[ ()/]+/g, "_")) !== null);
  if (!secret.includes(true)) return;
  let pos = lineEnd + 1;
  for (let row = 0; row < MAX_ROWS && pos < text.length; row++) {
    const next = text.indexOf("\n", pos);
    const end = next === -1 ? text.length : next;
    if (end - pos > MAX_ROW) return;
    const line = text.slice(pos, end).replace(/\r$/, "");
    const cells = fields(line);
    if (cells.length !== names.length) return;
    cells.forEach((cell, i) => {
      const value = line.slice(cell.start, cell.end);
      if (secret[i] && !isHarmlessValue(value, { cls: "password", quoted: true, numbersAreSecret: true }))
        ctx.add(pos + cell.start, pos + cell.end, "password", RANK.context);
    });
    pos = end + 1;
    ctx.state.set("csv.until", pos);
  }
}

export const csvColumns: Detector = {
  name: "csv-columns",
  hints: ["password", "secret", "passwd", "token", "api key", "api_key", "apikey"],
  onHit: (ctx, start) => onHit(ctx, start),
};
