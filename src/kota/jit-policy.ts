/**
 * How eagerly JavaScriptCore compiles hot code, for a process that lives for one burst of work: a
 * parser process, or a `pi-sidecar kota` command. Such a burst runs much code a few hundred times
 * (the AST deserializer, the extractors, the redactor, the writes): compiling it costs the JIT
 * threads more CPU than the faster code wins back before the process ends, and on two cores those
 * threads take their CPU from the other process of the index. `Bun.unsafe.setJITPolicy(n)`
 * multiplies the tier-up thresholds by n for this thread's VM (Bun 1.4+; elsewhere nothing changes).
 *
 * Measured on a cold index (zod, 489 files, two cores, per-thread CPU by bench/kota/thread-split.ts):
 * scale 1 / 4 / 16 / 64 gave the parser's JavaScript thread 340 / 345 / 375 / 405 ms with its JIT
 * threads 175 / 140 / 89 / 44 ms, and the indexing process 292 / 297 / 310 / 316 ms with 121 / 81 / 57
 * / 18 ms. The parser's own thread is the longest path, so it takes a middle scale; the indexing
 * process, which shares a core with the parser's JIT threads, the high one.
 */

/** The parser process's scale. */
export const PARSER_JIT_SCALE = 16;
/** A one-shot `pi-sidecar kota` command's scale (its process ends with the command). */
export const COMMAND_JIT_SCALE = 64;

type Unsafe = { setJITPolicy?(scale: number): void };

/** Sets this thread's JIT scale where the runtime offers it; returns whether it did. */
export function scaleJit(
  scale: number,
  unsafe: Unsafe | null | undefined = (globalThis as { Bun?: { unsafe?: Unsafe } }).Bun?.unsafe,
): boolean {
  if (typeof unsafe?.setJITPolicy !== "function") return false;
  unsafe.setJITPolicy(scale);
  return true;
}
