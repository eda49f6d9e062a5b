/**
 * What searches and gets returned, added to their sources' retrieved bytes and tokens. The
 * engine buffers it and writes it in batches, off the search path (counting tokens and a write
 * transaction per search would be most of a search's time).
 */
import { type Db, immediate, immediateAsync } from "../db/open.ts";
import { countTokens } from "../tokens/count.ts";

export type RetrievalPart = { sourceId: string; text: string };

/**
 * What searches and gets returned, to be added to their sources' retrieved bytes and tokens.
 * The engine buffers it and writes it in batches, off the search path (counting tokens and a
 * write transaction per search would be most of a search's time); `flush` writes it now.
 */
export type RetrievalLog = {
  add(parts: RetrievalPart[], shared?: string): void;
  /** Writes what is buffered now (waits for the write lock in SQLite: for tests and one-shot tools). */
  flush(): void;
  /** The same, waiting for the write lock with async retries (inside a host's event loop). */
  flushAsync(): Promise<void>;
  pending(): number;
};

export function createRetrievalLog(db: Db, immediately = false): RetrievalLog {
  let buffer: { sourceId: string; text: string }[] = [];
  /** Takes the buffer and returns the writes to make, tokens already counted. */
  const take = () => {
    const totals = new Map<string, { bytes: number; tokens: number; calls: number }>();
    for (const { sourceId, text } of buffer) {
      const t = totals.get(sourceId) ?? { bytes: 0, tokens: 0, calls: 0 };
      t.bytes += Buffer.byteLength(text) + 1;
      t.tokens += countTokens(text);
      t.calls += 1;
      totals.set(sourceId, t);
    }
    buffer = [];
    const update = db.query(
      "UPDATE sources SET retrieved_bytes = retrieved_bytes + ?, retrieved_tokens = retrieved_tokens + ?, retrievals = retrievals + ? WHERE handle = ?",
    );
    return () => {
      for (const [id, t] of totals) update.run(t.bytes, t.tokens, t.calls, id);
    };
  };
  const log: RetrievalLog = {
    add(parts, shared = "") {
      // Text shared by the whole answer (its summary line) is charged to the first source.
      for (const [i, p] of parts.entries())
        buffer.push({ sourceId: p.sourceId, text: i === 0 && shared ? `${shared}\n${p.text}` : p.text });
      if (immediately) log.flush();
    },
    flush() {
      if (buffer.length > 0) immediate(db, take());
    },
    async flushAsync() {
      if (buffer.length === 0) return;
      const write = take();
      await immediateAsync(db, async () => write());
    },
    pending: () => buffer.length,
  };
  return log;
}
