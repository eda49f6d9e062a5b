/**
 * YAML block scalars: `password: |` (or `>`, `|-`, `>+2`...) puts the value on the lines after it,
 * indented deeper than the key. Reads those lines (at most MAX_BLOCK characters, all indented as
 * the first) as the value.
 */
import { isSpace } from "./detector.ts";
import type { ScanContext } from "./scan-context.ts";

const MAX_BLOCK = 4096;
const INDICATOR = /^[|>](?:[+-]?[1-9]?|[1-9][+-])$/;

export type Block = { start: number; end: number };

function indentAt(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i - from;
}

/**
 * The block after `key: |` when `indicator` (the rest of the key's line, comment removed) is a
 * block indicator: from the first character of its first line to the end of its last; null otherwise.
 */
export function blockScalar(ctx: ScanContext, indicator: string, nameStart: number): Block | null {
  if (!INDICATOR.test(indicator)) return null;
  const text = ctx.text;
  const keyLine = ctx.lineStart(nameStart);
  // `- password: |` in a list: the block is indented past the key, not past the dash.
  const keyIndent = nameStart - keyLine;
  let line = ctx.lineEnd(nameStart) + 1;
  let start = -1;
  let end = -1;
  let blockIndent = -1;
  while (line < text.length && line - keyLine < MAX_BLOCK) {
    let lineEnd = text.indexOf("\n", line);
    if (lineEnd === -1 || lineEnd - line > MAX_BLOCK) lineEnd = Math.min(text.length, line + MAX_BLOCK);
    const indent = indentAt(text, line);
    const blank = line + indent >= lineEnd || (text.charCodeAt(line + indent) === 13 && line + indent + 1 === lineEnd);
    if (!blank) {
      // A credential's block is uniform (a password, a token, a key's lines): a line indented
      // otherwise than the first is something else that happens to follow.
      if (indent <= keyIndent || (start !== -1 && indent !== blockIndent)) break;
      if (start === -1) {
        start = line + indent;
        blockIndent = indent;
      }
      end = text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
    }
    line = lineEnd + 1;
  }
  return start === -1 ? null : { start, end };
}
