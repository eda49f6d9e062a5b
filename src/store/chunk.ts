/**
 * Lossless, line-aligned chunking: the chunks concatenate to the input byte for byte, each
 * knows its 1-based line range, and none exceeds `capBytes` of UTF-8, even for a single
 * line of a megabyte (such a line is split at a space past 60% of the cap when it can be,
 * else at a character boundary). Past 60% of the cap a chunk prefers to end at a blank line
 * or before a markdown heading, so paragraphs and sections stay whole.
 */

import { isAscii } from "../text.ts";

export type RawChunk = { lineStart: number; lineEnd: number; text: string };

const HEADING = /^#{1,6}[ \t]+\S/;

/** Splits one over-long line into pieces of at most capBytes. */
function splitLine(line: string, capBytes: number, ascii: boolean): string[] {
  const pieces: string[] = [];
  let i = 0;
  while (i < line.length) {
    let j: number;
    if (ascii) j = Math.min(line.length, i + capBytes);
    else {
      let bytes = 0;
      j = i;
      while (j < line.length) {
        const c = line.charCodeAt(j);
        const pair = c >= 0xd800 && c <= 0xdbff && j + 1 < line.length;
        const w = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
        if (bytes + w > capBytes) break;
        bytes += w;
        j += pair ? 2 : 1;
      }
    }
    if (j < line.length) {
      const soft = i + Math.floor((j - i) * 0.6);
      const space = Math.max(line.lastIndexOf(" ", j - 1), line.lastIndexOf("\t", j - 1));
      if (space >= soft) j = space + 1;
    }
    pieces.push(line.slice(i, j));
    i = j;
  }
  return pieces;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at NUL on purpose
const NON_ASCII = /[^\x00-\x7f]/g;

/**
 * UTF-8 bytes of text[from, to) as `utf8Length` counts them (a high surrogate and the character
 * after it are 4 bytes, any other character past 0x7ff 3), from the character count plus what each
 * non-ASCII character adds: the native regex skips the ASCII runs between them, so a mostly ASCII
 * text is not read a character at a time in script. `next` is where the search starts (at or past
 * `from`, no non-ASCII character between); the answer's `next` is the first non-ASCII character at
 * or past `to` (text.length if none).
 */
function bytesOf(text: string, from: number, to: number, next: number): { bytes: number; next: number } {
  let bytes = to - from;
  let i = next;
  while (i < to) {
    const c = text.charCodeAt(i);
    let after = i + 1;
    if (c < 0x800) bytes += 1;
    else {
      bytes += 2;
      if (c >= 0xd800 && c <= 0xdbff && after < to) after++; // the pair's second half adds nothing
    }
    NON_ASCII.lastIndex = after;
    i = NON_ASCII.exec(text)?.index ?? text.length;
  }
  return { bytes, next: i };
}

export function chunkText(text: string, capBytes: number): RawChunk[] {
  const chunks: RawChunk[] = [];
  const ascii = isAscii(text);
  const soft = Math.floor(capBytes * 0.6);
  let start = 0; // char offset where the open chunk starts
  let startLine = 1;
  let bytes = 0; // bytes in the open chunk
  let prevBlank = false;
  let pos = 0;
  let line = 1;
  // The first non-ASCII character at or past pos (text.length if none).
  let next = text.length;
  if (!ascii) {
    NON_ASCII.lastIndex = 0;
    next = NON_ASCII.exec(text)?.index ?? text.length;
  }
  const flush = (end: number, lastLine: number) => {
    if (end > start) chunks.push({ lineStart: startLine, lineEnd: lastLine, text: text.slice(start, end) });
    start = end;
    bytes = 0;
  };
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl + 1;
    let lineBytes = end - pos;
    if (next < end) {
      const counted = bytesOf(text, pos, end, next);
      lineBytes = counted.bytes;
      next = counted.next;
    }
    if (lineBytes > capBytes) {
      flush(pos, line - 1);
      for (const piece of splitLine(text.slice(pos, end), capBytes, ascii)) {
        chunks.push({ lineStart: line, lineEnd: line, text: piece });
      }
      start = end;
      startLine = line + 1;
      prevBlank = false;
    } else {
      const lineText = text.slice(pos, end);
      if (bytes + lineBytes > capBytes || (bytes >= soft && (prevBlank || HEADING.test(lineText)))) {
        flush(pos, line - 1);
        startLine = line;
      }
      bytes += lineBytes;
      prevBlank = lineText.trim() === "";
    }
    pos = end;
    line++;
  }
  flush(text.length, line - 1);
  return chunks;
}
