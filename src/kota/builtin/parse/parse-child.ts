/**
 * The parser process: reads one request per line on stdin (`{id, path, text}`), answers one line
 * per request on stdout (`{id, hash, facts}`), in order. It is a process of its own because the
 * native parser can crash (a segfault on deeply nested code) and that must take down only this
 * process, never pi or a server: the pool (parse-pool.ts) blames the file it was parsing, skips it
 * and starts another. It returns facts as written in the file: the pool redacts them, and makes the
 * search words, in the indexing process (parse-pool.ts), so the redactor's code warms up once per index
 * run, not once per parser, and no file's text crosses the pipe.
 */

import { readFileSync } from "node:fs";
import { sha256 } from "../../../hash.ts";
import { lineSplitter } from "../../../json-lines.ts";
import { extractFacts } from "./extract.ts";
import type { StoredFacts } from "./facts.ts";
import { nestingProblem } from "./nesting.ts";
import { preloadParser } from "./oxc-binding.ts";

/** `file`: where to read it (the parser reads it itself: no file text crosses the pipe). */
export type ParseRequest = { id: number; path: string; file: string };
/** `hash`: the sha256 of the bytes parsed (null when the file could not be read). `facts` are not redacted yet. */
export type ParseReply = { id: number; facts: StoredFacts; hash: string | null } | { ready: true };

const empty = (line: number, message: string): StoredFacts => ({
  symbols: [],
  imports: [],
  exports: [],
  refs: [],
  error: { line, message },
});

/** One file's facts (not redacted); a fault in the extractor is that file's error, not the process's. */
export function parseOne(path: string, text: string): StoredFacts {
  const deep = nestingProblem(text);
  if (deep) return empty(deep.line, deep.message);
  try {
    return extractFacts(path, text);
  } catch (error) {
    return empty(1, `parser failed (${error instanceof Error ? error.message : String(error)}): not parsed, only its text is searchable`);
  }
}

/**
 * Source bytes parsed between two requests for a collection. Raw transfer's 4 GiB buffer counts as
 * heap to JavaScriptCore, which then collects so rarely that the parser's memory grows by half; a
 * collection asked for every so often keeps it where it was with JSON (about 100 MB on 500 files).
 */
const GC_BYTES = 256 * 1024;

export async function runParseChild(
  input: AsyncIterable<Uint8Array> = Bun.stdin.stream() as unknown as AsyncIterable<Uint8Array>,
  write: (line: string) => void = (line) => process.stdout.write(line),
): Promise<number> {
  let sinceGc = 0;
  const splitter = lineSplitter((line) => {
    if (!line) return;
    const req = JSON.parse(line) as ParseRequest;
    let bytes: Buffer;
    try {
      bytes = readFileSync(req.file);
    } catch (error) {
      const message = `could not read: ${error instanceof Error ? error.message : String(error)}`;
      write(`${JSON.stringify({ id: req.id, facts: { ...empty(1, message), refs: [] }, hash: null })}\n`);
      return;
    }
    write(`${JSON.stringify({ id: req.id, hash: sha256(bytes), facts: parseOne(req.path, bytes.toString("utf8")) })}\n`);
    sinceGc += bytes.length;
    if (sinceGc > GC_BYTES) {
      sinceGc = 0;
      Bun.gc(false);
    }
  });
  write(`${JSON.stringify({ ready: true })}\n`);
  // The first requests arrive once the indexing process has listed the files: the binding loads
  // meanwhile, with the first read of the input already asked for (the stream's start overlaps it).
  const chunks = input[Symbol.asyncIterator]();
  const first = chunks.next();
  preloadParser();
  for (let r = await first; !r.done; r = await chunks.next()) splitter.push(r.value);
  splitter.end();
  return 0;
}
