/** What every memory operation needs; the engine passes its connection, config, clock and token counter. */
import type { Config } from "../config.ts";
import type { Db } from "../db/open.ts";
import type { Log } from "../debug.ts";
import type { Registry } from "./projects.ts";

export type Scope = { project: string; session: string | null };

export type MemoryOptions = {
  db: Db;
  config: Readonly<Config>;
  now: () => number;
  /** Total real tokens of the texts (o200k), maybe on another thread. */
  count: (texts: string[]) => Promise<number>;
  /** Keeps a huge event whole in the context store; its source id goes in the cut event. */
  storeWhole?: (text: string, scope: Scope) => Promise<{ sourceId: string } | null>;
  /** Drops that whole text again when the event is forgotten. */
  dropWhole?: (sourceId: string) => Promise<void>;
  log?: Log;
  /**
   * Rewrites the file after a forget (db/rewrite.ts), off the caller's thread where it must keep
   * answering; resolves to what the user should know (" The file is being rewritten…"), or "".
   * Without it the forget rewrites the file itself before it answers.
   */
  rewrite?: () => Promise<string>;
};

export type MemoryDeps = Required<Omit<MemoryOptions, "storeWhole" | "dropWhole" | "rewrite">> &
  Pick<MemoryOptions, "storeWhole" | "dropWhole" | "rewrite"> & { registry: Registry };

export const DAY_MS = 86_400_000;

/** Event ids as users see them (`e123`), summary ids (`s45`). */
export const eventId = (id: number) => `e${id}`;
export const summaryId = (id: number) => `s${id}`;

/** `e123`, `s45` or a bare number (an event); null when it is neither. */
export function parseMemoryId(raw: string): { type: "event" | "summary"; id: number } | null {
  const m = /^\s*([es]?)(\d{1,15})\s*$/i.exec(raw);
  if (!m) return null;
  const id = Number(m[2]);
  if (!Number.isSafeInteger(id) || id < 1) return null;
  return { type: m[1]!.toLowerCase() === "s" ? "summary" : "event", id };
}
