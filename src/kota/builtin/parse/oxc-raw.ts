/**
 * oxc's raw transfer on Bun: the native parser writes its AST into a buffer this process owns and
 * oxc's own generated deserializer builds the ESTree objects from it, instead of the AST crossing as
 * a JSON string (some 14 times the source) that JSON.parse then reads: about half the CPU of
 * parse + JSON.parse, with the same tree (every file of six real repositories compared).
 *
 * oxc-parser turns raw transfer off on Bun because its loader asks for a 6 GiB ArrayBuffer (to find
 * 2 GiB aligned on 4 GiB inside it), which Bun refuses. Bun does give a 4 GiB one, and such a buffer
 * holds an aligned 2 GiB block whenever it starts at most 2 GiB before a 4 GiB boundary; one that
 * does not is kept while the next is asked for after a 2 GiB spacer, which moves it by half. The
 * memory is reserved, not used: only the pages the largest file's AST touches become resident.
 * Where none of this works (a 32-bit or big-endian system, no such buffer, Windows, whose commit
 * charge would count the whole reservation) the caller parses through JSON as before.
 */

import type { Comment, EcmaScriptModule, OxcError, ParserOptions, Program } from "oxc-parser";
import { ACTIVE_SIZE, BLOCK_SIZE, BUFFER_SIZE, DATA_POINTER_POS_32, IS_TS_FLAG_POS } from "oxc-parser/src-js/generated/constants.js";
import { deserialize as deserializeJs } from "oxc-parser/src-js/generated/deserialize/js.js";
import { deserialize as deserializeTs } from "oxc-parser/src-js/generated/deserialize/ts.js";

/** The native functions raw transfer needs (the binding has them beside `parseSync`). */
export type RawBinding = {
  rawTransferSupported?(): boolean;
  getBufferOffset?(buffer: Uint8Array): number;
  parseRawSync?(filename: string, block: Uint8Array, sourceStart: number, sourceLength: number, options: ParserOptions): void;
};

export type RawParsed = { program: Program; module: EcmaScriptModule; comments: Comment[]; errors: OxcError[] };

/** The transfer buffer as oxc's deserializers read it: bytes, with 32-bit and float views beside. */
type TransferBuffer = Uint8Array & { int32: Int32Array; float64: Float64Array; block: Uint8Array };

const FOUR_GIB = 2 ** 32;
const ATTEMPTS = 3;

function alignedBuffer(binding: RawBinding): TransferBuffer | null {
  const held: ArrayBuffer[] = []; // misplaced buffers stay alive until a fitting one is found, so the next lands elsewhere
  for (let i = 0; i < ATTEMPTS; i++) {
    let memory: ArrayBuffer;
    try {
      memory = new ArrayBuffer(FOUR_GIB);
    } catch {
      return null;
    }
    const offset = binding.getBufferOffset!(new Uint8Array(memory));
    if (offset + BLOCK_SIZE <= FOUR_GIB) {
      const buffer = new Uint8Array(memory, offset, BUFFER_SIZE) as TransferBuffer;
      buffer.int32 = new Int32Array(memory, offset, BUFFER_SIZE / 4);
      buffer.float64 = new Float64Array(memory, offset, BUFFER_SIZE / 8);
      buffer.block = new Uint8Array(memory, offset, BLOCK_SIZE);
      return buffer;
    }
    held.push(memory);
    try {
      held.push(new ArrayBuffer(FOUR_GIB / 2));
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * `comments`: whether the comments are wanted. Without them, and for a file that parsed without
 * errors, the comment list and the module record come back empty: each is built by the deserializer
 * for every file otherwise (a tenth or more of its work), though only files with doc comments read
 * the comments and only files that did not parse read the module record.
 */
export type RawParser = (filename: string, source: string, options: ParserOptions, want?: { comments: boolean }) => RawParsed;

/**
 * Where oxc's deserializer finds, inside the `RawTransferData` it starts from, the lists it builds
 * besides the program (as 32-bit word offsets; each list is a Vec whose length is its third word):
 * the comments (byte 144), the module record's four lists (168, 192, 216, 240) and the errors (272),
 * as in `deserializeRawTransferData` of oxc-parser's generated deserializer. `layoutHolds` checks
 * them on a parse of known content before they are used: another layout leaves every list built.
 */
const COMMENTS_VEC = 36;
const MODULE_VECS = [42, 48, 54, 60] as const;
const ERRORS_VEC = 68;
const LENGTH = 2;
const PROBE = "/** a */ import x from 'y'; export * from 'z'; export { x }; import('w'); import.meta;\n";

function layoutHolds(buffer: TransferBuffer, parse: (source: string) => number): boolean {
  const root = parse(PROBE) >> 2;
  const len = (vec: number) => buffer.int32[root + vec + LENGTH];
  return len(COMMENTS_VEC) === 1 && MODULE_VECS.every((v) => len(v) === (v === 48 ? 2 : 1)) && len(ERRORS_VEC) === 0;
}

type Deserialize = (buffer: Uint8Array, source: string, sourceStart: number, sourceLength: number) => unknown;
/** oxc's deserializers, for JavaScript and for TypeScript (the parser's flag in the buffer says which). */
export type Deserializers = { js: Deserialize; ts: Deserialize };
const OXC_DESERIALIZERS: Deserializers = { js: deserializeJs, ts: deserializeTs };

/**
 * A parser through raw transfer, or null where it cannot work (the caller then uses JSON).
 * `deserializers`: oxc's own by default (tests pass the build's inlined ones: scripts/inline-deserializer.ts).
 */
export function rawParser(binding: RawBinding, deserializers: Deserializers = OXC_DESERIALIZERS): RawParser | null {
  if (!binding.parseRawSync || !binding.getBufferOffset || binding.rawTransferSupported?.() !== true) return null;
  // Windows commits what an ArrayBuffer reserves: 4 GiB of commit charge per parser is too much to ask.
  if (process.platform === "win32") return null;
  const buffer = alignedBuffer(binding);
  if (!buffer) return null;
  const encoder = new TextEncoder();
  /** Parses into the buffer: the source's place and length there. */
  const parseInto = (filename: string, source: string, options: ParserOptions) => {
    // The source goes at the end of the active region, with room for its longest UTF-8 form.
    const room = source.length * 3;
    const start = ACTIVE_SIZE - room;
    const { written } = encoder.encodeInto(source, new Uint8Array(buffer.buffer, buffer.byteOffset + start, room));
    binding.parseRawSync!(filename, buffer.block, start, written, options);
    return { start, written };
  };
  const skips = layoutHolds(buffer, (source) => {
    parseInto("probe.ts", source, {});
    return buffer.int32[DATA_POINTER_POS_32]!;
  });
  return (filename, source, options, want) => {
    const { start, written } = parseInto(filename, source, options);
    if (skips && want) {
      const root = buffer.int32[DATA_POINTER_POS_32]! >> 2;
      if (!want.comments) buffer.int32[root + COMMENTS_VEC + LENGTH] = 0;
      if (buffer.int32[root + ERRORS_VEC + LENGTH] === 0) for (const v of MODULE_VECS) buffer.int32[root + v + LENGTH] = 0;
    }
    const deserialize = buffer[IS_TS_FLAG_POS] === 0 ? deserializers.js : deserializers.ts;
    return deserialize(buffer, source, start, written) as RawParsed;
  };
}
