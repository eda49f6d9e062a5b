/**
 * What searches and gets returned: one row per answer (query, mode, hits, bytes) and one part
 * per source it drew from, with the text kept until its tokens are counted (index-queue.ts
 * counts them later, off the answer's path, and adds them to the source's retrieved tokens).
 * Long-lived engines buffer answers and write them in batches; `flush` writes them now.
 */
import { type Db, immediate, immediateAsync } from "../db/open.ts";
import { redactText } from "../redact/lazy.ts";

export type RetrievalPart = { sourceId: string; text: string };

export type Retrieval = {
  kind: "search" | "get";
  query: string | null;
  mode: string | null;
  session?: string | null;
  hits: number;
  /** Text shared by the whole answer (its summary line): charged to the first source. */
  shared?: string;
  parts: RetrievalPart[];
};

export type RetrievalLog = {
  add(r: Retrieval): void;
  /** Writes what is buffered now (waits for the write lock in SQLite: for one-shot tools). */
  flush(): void;
  /**
   * The same, waiting for the write lock with async retries (inside a host's event loop), at most
   * `maxWaitMs`. Whatever could not be written stays buffered for the next flush.
   */
  flushAsync(maxWaitMs?: number): Promise<void>;
  pending(): number;
};

export function createRetrievalLog(db: Db, now: () => number, immediately = false, readOnly = false): RetrievalLog {
  let buffer: (Retrieval & { at: number })[] = [];
  const write = (batch: typeof buffer) => {
    const row = db.query(
      "INSERT INTO retrievals (at, kind, query, mode, session, hits, bytes, first_source) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const part = db.query("INSERT INTO retrieval_parts (retrieval_id, source, bytes, text) VALUES (?, ?, ?, ?)");
    const counted = db.query("UPDATE sources SET retrieved_bytes = retrieved_bytes + ?, retrievals = retrievals + ? WHERE handle = ?");
    for (const r of batch) {
      const texts = r.parts.map((p, i) => (i === 0 && r.shared ? `${r.shared}\n${p.text}` : p.text));
      const sizes = texts.map((t) => Buffer.byteLength(t) + 1);
      const bytes = sizes.reduce((sum, b) => sum + b, 0);
      const id = Number(
        row.run(r.at, r.kind, r.query, r.mode, r.session ?? null, r.hits, bytes, r.parts[0]?.sourceId ?? null).lastInsertRowid,
      );
      // Each part counts once for its source; a source's parts are added up in one update.
      const perSource = new Map<string, { bytes: number; parts: number }>();
      r.parts.forEach((p, i) => {
        part.run(id, p.sourceId, sizes[i]!, texts[i]!);
        const sum = perSource.get(p.sourceId) ?? { bytes: 0, parts: 0 };
        perSource.set(p.sourceId, { bytes: sum.bytes + sizes[i]!, parts: sum.parts + 1 });
      });
      for (const [source, sum] of perSource) counted.run(sum.bytes, sum.parts, source);
    }
  };
  /** Takes the buffer out for writing; what fails to be written goes back in front of it, so nothing is dropped. */
  const take = () => {
    const batch = buffer;
    buffer = [];
    return {
      run: () => write(batch),
      putBack: () => {
        buffer = batch.concat(buffer);
      },
    };
  };
  const log: RetrievalLog = {
    add(r) {
      if (r.parts.length === 0 || readOnly) return;
      // The question (a token pasted into a search), the session and the summary line that quotes
      // the question are redacted; the parts are stored text, redacted when it was captured.
      buffer.push({
        ...r,
        query: r.query === null ? null : redactText(r.query),
        session: r.session ? redactText(r.session) : (r.session ?? null),
        shared: r.shared === undefined ? undefined : redactText(r.shared),
        at: now(),
      });
      if (immediately) log.flush();
    },
    flush() {
      if (buffer.length === 0) return;
      const batch = take();
      try {
        immediate(db, batch.run);
      } catch (error) {
        batch.putBack();
        throw error;
      }
    },
    async flushAsync(maxWaitMs) {
      if (buffer.length === 0) return;
      const batch = take();
      // The lock is waited for with async retries only, never inside SQLite: an answer that records
      // itself first must not stall the host's event loop behind another process's write. Nor
      // behind a checkpoint (copying the WAL into the file, with its syncs: tens of milliseconds,
      // every thousand pages): the log's commit leaves that to the next other write (the token
      // count that follows the answers in the background, a capture), or to closing the file.
      // (Prepared statements, kept by the connection: an exec would parse its pragmas on every answer.)
      const timeout = (db.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout;
      const checkpointAt = (db.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
      db.query("PRAGMA busy_timeout = 0").run();
      db.query("PRAGMA wal_autocheckpoint = 0").run();
      try {
        await immediateAsync(db, async () => batch.run(), maxWaitMs);
      } catch (error) {
        batch.putBack();
        throw error;
      } finally {
        db.query(`PRAGMA busy_timeout = ${Math.trunc(timeout)}`).run();
        db.query(`PRAGMA wal_autocheckpoint = ${Math.trunc(checkpointAt)}`).run();
      }
    },
    pending: () => buffer.length,
  };
  return log;
}
