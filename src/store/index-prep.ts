/**
 * What indexing a blob computes from its chunks before it writes them: the identifier text (the
 * trigram index), the names (the word index's third column) and the vocabulary words. Pure CPU
 * work on the chunks' text, so a second thread can take part of it while the writing thread
 * inserts: the blob is cut into batches, each batch is claimed once (a flag per batch in shared
 * memory) by whichever thread gets to it first, and the writer inserts them in order. The rows
 * written are the same whoever prepared them.
 */
import { isAscii } from "../text.ts";
import { identifierText, namesText } from "./idents.ts";

/** Letter runs longer than this are kept as pieces of this many letters (search/infix.ts relies on it). */
export const VOCABULARY_PIECE = 32;
const WORD = new RegExp(`\\p{L}{4,${VOCABULARY_PIECE}}`, "gu");
/** The same for ASCII text, which most tool output is (a third faster). */
const ASCII_WORD = new RegExp(`[a-z]{4,${VOCABULARY_PIECE}}`, "g");

/** The words a blob adds to the vocabulary (what typo correction reads); purge takes them back out. */
export function vocabularyWords(contents: readonly string[], into = new Set<string>()): Set<string> {
  for (const content of contents) for (const m of content.toLowerCase().matchAll(isAscii(content) ? ASCII_WORD : WORD)) into.add(m[0]);
  return into;
}

/** One batch of chunks, prepared: per chunk its identifier text and names; the batch's distinct vocabulary words. */
export type ChunkPrep = { idents: string[]; names: string[]; words: string[] };

export function prepareChunks(contents: readonly string[]): ChunkPrep {
  return { idents: contents.map(identifierText), names: contents.map(namesText), words: [...vocabularyWords(contents)] };
}

/**
 * Another thread that prepares batches: given every batch and one claim flag per batch (an
 * Int32Array over shared memory, 0 = free), it claims free batches in order and answers each it
 * prepared. `onError`: it stopped (what it claimed and did not answer is prepared here again).
 */
export type PrepHelper = {
  start(batches: readonly string[][], claims: Int32Array, onBatch: (index: number, prep: ChunkPrep) => void, onError: () => void): void;
};

/** Chunks per batch: small enough that the writer starts soon, large enough that messages cost little. */
export const PREP_BATCH = 32;
/** A blob of fewer batches is prepared on the writing thread alone (a message round trip would cost more). */
const MIN_SHARED_BATCHES = 4;

/** Whether a blob of `batches` is prepared with the helper (else alone, before the write lock is taken). */
export const sharesPrep = (batches: number, helper: PrepHelper | null) => helper !== null && batches >= MIN_SHARED_BATCHES;

/** Claims batch `k` for the calling thread: true for exactly one thread. */
export const claimBatch = (claims: Int32Array, k: number) => Atomics.compareExchange(claims, k, 0, 1) === 0;
/** Lets the helper's answers in (they arrive as tasks, not microtasks). */
const yieldToTasks = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Calls `write(k, prep)` for every batch in order, preparing each here or taking the helper's
 * answer. While the next batch is in the helper's hands, this thread prepares batches from the
 * end, so both threads stay busy and neither prepares a batch twice.
 */
export async function preparedInOrder(
  batches: readonly string[][],
  helper: PrepHelper,
  write: (index: number, prep: ChunkPrep) => void,
): Promise<void> {
  const claims = new Int32Array(new SharedArrayBuffer(4 * batches.length));
  const ready: (ChunkPrep | undefined)[] = new Array(batches.length);
  let failed = false;
  let wake: (() => void) | null = null;
  const signal = () => {
    wake?.();
    wake = null;
  };
  helper.start(
    batches,
    claims,
    (k, prep) => {
      ready[k] = prep;
      signal();
    },
    () => {
      failed = true;
      signal();
    },
  );
  let back = batches.length;
  for (let k = 0; k < batches.length; k++) {
    for (;;) {
      const prep = ready[k];
      if (prep) {
        ready[k] = undefined;
        write(k, prep);
        break;
      }
      // Free, or the helper stopped before answering it: prepared here.
      if (claimBatch(claims, k) || failed) {
        write(k, prepareChunks(batches[k]!));
        break;
      }
      // In the helper's hands: one batch from the end meanwhile, if one is still free.
      while (back - 1 > k && !claimBatch(claims, back - 1)) back--;
      if (back - 1 > k) {
        back--;
        ready[back] = prepareChunks(batches[back]!);
        await yieldToTasks();
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }
}
