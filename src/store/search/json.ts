/**
 * Pretty-printed JSON around a hit: the record (object) a matching line belongs to, so a key is
 * shown with its value, and the key path of a line, so a hit's title says where it is.
 */

import { isSpace } from "./structure.ts";

const MAX_RECORD_LINES = 14;
const MAX_SCAN = 400;

/** The white space a line starts with (what `trimStart` takes off), counted without a copy of the line. */
function indentOf(line: string): number {
  let k = 0;
  while (k < line.length && isSpace(line.charCodeAt(k))) k++;
  return k;
}

/** The last character that is not white space (what `trimEnd()` ends with), or -1. */
function lastNonSpace(line: string): number {
  let k = line.length - 1;
  while (k >= 0 && isSpace(line.charCodeAt(k))) k--;
  return k < 0 ? -1 : line.charCodeAt(k);
}

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/**
 * Rows of the record around row i: all of it when it is short, else the lines at its own
 * depth (its fields), never more than MAX_RECORD_LINES; [i] when there is no enclosing object.
 */
export function jsonRecord(rows: string[], i: number): number[] {
  const indent = indentOf(rows[i]!);
  let open = -1;
  for (let k = i; k >= 0 && i - k < MAX_SCAN; k--) {
    // The line itself may open the record ("key": {), else the nearest shallower opener.
    if ((k === i || indentOf(rows[k]!) < indent) && lastNonSpace(rows[k]!) === OPEN_BRACE) {
      open = k;
      break;
    }
  }
  if (open < 0) return [i];
  const openIndent = indentOf(rows[open]!);
  let close = -1;
  for (let k = open + 1; k < rows.length && k - open < MAX_SCAN; k++) {
    if (indentOf(rows[k]!) === openIndent && rows[k]!.charCodeAt(openIndent) === CLOSE_BRACE) {
      close = k;
      break;
    }
  }
  const end = close < 0 ? Math.min(rows.length - 1, open + MAX_RECORD_LINES) : close;
  const all = Array.from({ length: end - open + 1 }, (_, k) => open + k);
  if (all.length <= MAX_RECORD_LINES) return all;
  // A long record: its own fields (the lines that open a key at its first level), the matching line, its ends.
  const fieldIndent = indentOf(rows[Math.min(open + 1, rows.length - 1)]!);
  const isField = (k: number) => indentOf(rows[k]!) === fieldIndent && /^\s*"/.test(rows[k]!);
  const fields = all.filter((k) => k === open || k === i || isField(k));
  const kept = fields.length <= MAX_RECORD_LINES ? fields : [...fields.slice(0, MAX_RECORD_LINES - 1), i];
  return [...new Set(kept)].sort((a, b) => a - b);
}

const KEY = /^\s*"((?:[^"\\]|\\.)*)"\s*:/;

function keyOf(line: string): string | null {
  const m = KEY.exec(line);
  if (!m) return null;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return m[1]!;
  }
}

function render(keys: string[]): string {
  return keys.map((k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)).join("");
}

/**
 * The key path of row i in pretty-printed JSON, found by walking up to shallower lines. When
 * the rows end before the top-level object, `prefix` (the path where the rows start, from the
 * stored chunk title) goes in front.
 */
export function jsonPathAt(rows: string[], i: number, prefix: string): string {
  const keys: string[] = [];
  const own = keyOf(rows[i]!);
  if (own !== null) keys.push(own);
  let indent = indentOf(rows[i]!);
  let reachedTop = indent === 0;
  for (let k = i - 1; k >= 0 && indent > 0 && i - k < MAX_SCAN * 4; k--) {
    const line = rows[k]!;
    const lead = indentOf(line);
    // A blank line (all white space), or one no shallower.
    if (lead === line.length || lead >= indent) continue;
    indent = lead;
    const trimmed = line.trimEnd();
    if (trimmed.endsWith("{") || trimmed.endsWith("[")) {
      const key = keyOf(line);
      if (key !== null) keys.unshift(key);
    }
    if (indent === 0) reachedTop = true;
  }
  const tail = render(keys);
  if (reachedTop) return `$${tail}`;
  const base = prefix.split(" … ")[0] ?? "";
  return base.startsWith("$") ? `${base}…${tail}` : `…${tail}`;
}
