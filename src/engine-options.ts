/** How an engine is made (engine.ts): its file, where its background work runs, how it waits for other writers. */
import type { Assets } from "./background.ts";
import type { Config } from "./config.ts";
import type { Db } from "./db/open.ts";
import type { NextCalls } from "./store/index.ts";

export type EngineOptions = {
  config: Readonly<Config>;
  /** An open database (tests); otherwise config.db is opened on first use. */
  db?: Db;
  /**
   * Open config.db read-only and never create or upgrade it: searched as it is, nothing indexed,
   * counted or logged (the web page). A missing file or an older schema is an error saying what to do.
   */
  readOnly?: boolean;
  now?: () => number;
  /** How receipts and hits phrase the next call: CLI commands or tool calls. */
  calls?: NextCalls;
  /**
   * Where indexing and token counting run: a worker thread (long-lived hosts: pi, serve, mcp),
   * or inline (one-shot commands, which finish the work before they exit).
   */
  background?: "worker" | "inline";
  /**
   * Inline work on a large text prepares its chunks with a second thread while this one writes
   * (store/index-prep.ts): `pi-sidecar settle`, which nothing else shares its thread with.
   */
  indexHelper?: boolean;
  /**
   * A one-shot command that hands its queued work to another process (capture starts a detached
   * `pi-sidecar settle`): close leaves the queue as it is. Nothing is lost either way: the queue
   * is in the database and any later process finishes it.
   */
  leaveQueued?: boolean;
  /** Inside a host's process (pi on Bun): wait for other writers with async retries, not in SQLite. */
  busyTimeoutMs?: number;
  /** The worker's code and the tokenizer tables as files (the pi extension's folder); else built in. */
  assets?: Assets;
  /**
   * A server that must keep answering (the web page): purge and memory writes take the write lock
   * with async retries for at most this long, then fail BUSY, nothing changed (use busyTimeoutMs 0).
   */
  writeLockWaitMs?: number;
};
