/**
 * Newline-delimited frames: a byte or text stream split into lines, whether a line arrives in
 * pieces or several arrive in one piece. Framing happens on bytes (a multi-byte character split
 * between pieces is decoded whole), and a line longer than `maxBytes` is dropped as it streams
 * in, so memory stays bounded whatever a peer sends. Used by both ends of the stdio protocols.
 */

export type SplitterOptions = {
  /** Longest line kept, in bytes (default: no limit). */
  maxBytes?: number;
  /** Called once for each line over `maxBytes`, with how many bytes it had reached. */
  onTooLong?: (bytes: number) => void;
};

/** Push pieces in, get whole lines out (without their "\n"); `end()` flushes an unterminated last line. */
export function lineSplitter(
  onLine: (line: string) => void,
  options: SplitterOptions = {},
): { push(piece: string | Uint8Array): void; end(): void } {
  const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  let size = 0;
  let tooLong = false;
  const append = (part: Uint8Array) => {
    if (tooLong || part.length === 0) return;
    size += part.length;
    if (size > max) {
      tooLong = true;
      parts = [];
      options.onTooLong?.(size);
      return;
    }
    parts.push(part);
  };
  const emit = () => {
    if (!tooLong) onLine(parts.length === 1 ? decoder.decode(parts[0]) : decoder.decode(Buffer.concat(parts)));
    parts = [];
    size = 0;
    tooLong = false;
  };
  return {
    push(piece) {
      const bytes = typeof piece === "string" ? encoder.encode(piece) : piece;
      let start = 0;
      for (let nl = bytes.indexOf(10, start); nl !== -1; nl = bytes.indexOf(10, start)) {
        append(bytes.subarray(start, nl));
        emit();
        start = nl + 1;
      }
      // Copy: the caller may reuse its buffer.
      append(bytes.slice(start));
    },
    end() {
      if (size > 0 || tooLong) emit();
    },
  };
}

/** The lines of an async stream. */
export async function* readLines(stream: AsyncIterable<Uint8Array | string>, options: SplitterOptions = {}): AsyncIterable<string> {
  const lines: string[] = [];
  const split = lineSplitter((line) => lines.push(line), options);
  for await (const piece of stream) {
    split.push(piece);
    yield* lines.splice(0);
  }
  split.end();
  yield* lines.splice(0);
}
