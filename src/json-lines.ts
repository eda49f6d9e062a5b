/**
 * Newline-delimited frames: a byte or text stream split into lines, whether a line arrives in
 * pieces or several arrive in one piece. Used by both ends of the stdio JSON-RPC.
 */

/** Push pieces in, get whole lines out (without their "\n"); `end()` flushes an unterminated last line. */
export function lineSplitter(onLine: (line: string) => void): { push(piece: string | Uint8Array): void; end(): void } {
  const decoder = new TextDecoder();
  let buffer = "";
  const drain = () => {
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      onLine(line);
    }
  };
  return {
    push(piece) {
      buffer += typeof piece === "string" ? piece : decoder.decode(piece, { stream: true });
      drain();
    },
    end() {
      buffer += decoder.decode();
      if (buffer !== "") onLine(buffer);
      buffer = "";
    },
  };
}

/** The lines of an async stream. */
export async function* readLines(stream: AsyncIterable<Uint8Array | string>): AsyncIterable<string> {
  const lines: string[] = [];
  const split = lineSplitter((line) => lines.push(line));
  for await (const piece of stream) {
    split.push(piece);
    yield* lines.splice(0);
  }
  split.end();
  yield* lines.splice(0);
}
