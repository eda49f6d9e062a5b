/**
 * The messages between a thread and the background worker it started (background.ts and
 * background-worker.ts), and between that worker and its helper thread (prep-helper.ts).
 */
import type { ChunkPrep, PurgeFilter } from "./store/index.ts";

/** `tokenizer`: the tables' file when they are not bundled in (the pi extension). */
export type WorkerRequest =
  | { id: number; op: "count"; texts: string[]; tokenizer: string | null }
  /** `helper`: the worker code's URL, to start a second thread that prepares large blobs' chunks (prep-helper.ts). */
  | { id: number; op: "settle"; path: string; indexOnly: boolean; merge: number; tokenizer: string | null; helper: string | null }
  /** On that second thread: prepare the batches whose claim flag it wins (store/index-prep.ts). */
  | { id: number; op: "prep"; batches: string[][]; claims: Int32Array; tokenizer: null }
  /** The file rewritten when a purge or forget owes it (db/rewrite.ts), on a worker started for it alone. */
  | { id: number; op: "rewrite"; path: string; tokenizer: null }
  /** A purge's deletes, on a worker started for it alone; `waitMs`: take the lock without waiting in SQLite (the web page). */
  | { id: number; op: "purge"; path: string; filter: PurgeFilter; now: number; waitMs: number | null; tokenizer: null };
/** `code`: an AppError's code, so the caller can say what to do. */
export type WorkerReply = { id: number; value?: unknown; error?: string; code?: string };
/** What a helper answers for one batch it prepared, then once `done` after the last. */
export type PrepAnswer = { batch: number; prep: ChunkPrep } | { done: true };
