/** Text measures shared by every subsystem: UTF-8 bytes, ASCII, line counts. */

/** UTF-8 byte length of s[from, to). */
export function utf8Length(s: string, from = 0, to = s.length): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export function isAscii(s: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at NUL on purpose
  return !/[^\x00-\x7f]/.test(s);
}

/** Number of lines: newlines, plus one for a last line with no newline. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n : n + 1;
}

/**
 * Terminal escape sequences (colours, cursor moves, hyperlinks) removed: a model reads them as
 * noise, and they split words ("\x1b[0mCannot" is not the word "Cannot"). Linear: each pattern
 * is a fixed prefix and one bounded class run.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC and BEL are what this removes
const ANSI = /\x1b\[[0-9;:?<=>]{0,64}[ -/]{0,8}[@-~]|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)|\x1b[()*+][0-9A-Za-z]|\x1b[@-Z\\-_0-9=>]/g;

export function stripAnsi(text: string): string {
  return text.includes("\x1b") ? text.replace(ANSI, "") : text;
}

/**
 * Bytes as UTF-8 text, a byte order mark kept (it is part of the input); invalid sequences become
 * U+FFFD and are counted, so whoever stores the text can say so.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string; invalid: number } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes), invalid: 0 };
  } catch {
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    let invalid = 0;
    for (let i = text.indexOf("\ufffd"); i !== -1; i = text.indexOf("\ufffd", i + 1)) invalid++;
    return { text, invalid };
  }
}
