/**
 * Events in and out of their table. Before anything is written an event is redacted, cut at
 * memory.maxEventBytes (the whole text goes to the context store, and the cut says where), its
 * tokens are counted with the real tokenizer, and a prompt that corrects the agent is stored as a
 * correction. A batch is written in one transaction; the clock is made monotonic per project, so
 * a clock that goes backwards never reorders what was said.
 */
import { IN_ID_LIST, idList } from "../db/id-list.ts";
import { immediate } from "../db/open.ts";
import { fail, type Result } from "../errors.ts";
import { redact } from "../redact/redact.ts";
import { stripAnsi, utf8Length } from "../text.ts";
import { isCorrection } from "./classify.ts";
import type { MemoryDeps, Scope } from "./deps.ts";
import { extraTerms } from "./identifiers.ts";
import { newByKey } from "./import-keys.ts";
import { type EventKind, isEventKind, MAX_TS } from "./types.ts";

export type EventRow = {
  id: number;
  project_id: number;
  session_id: number;
  ts: number;
  kind: EventKind;
  content: string;
  tokens: number;
  /** 0 while open; then 1 (older databases: the summary's id). Which summary holds it: coveringSummaries. */
  archived: number;
  source: string | null;
  terms: string | null;
};

export const EVENT_COLUMNS = "id, project_id, session_id, ts, kind, content, tokens, archived, source, terms";

/** Events by id, in id order (missing ids are skipped). */
export function eventsById(deps: MemoryDeps, ids: readonly number[]): EventRow[] {
  if (ids.length === 0) return [];
  return deps.db
    .query<EventRow, [string]>(`SELECT ${EVENT_COLUMNS} FROM memory_events WHERE id ${IN_ID_LIST} ORDER BY id`)
    .all(idList(ids));
}

/** An event ready to write: redacted, cut, counted. */
export type Prepared = {
  /** The import key (stored hashed: an event with a key already stored is not stored again). */
  key: string | null;
  kind: EventKind;
  content: string;
  tokens: number;
  session: string;
  ts: number | null;
  source: string | null;
  cut: boolean;
  redactions: number;
  /** Extra words it is indexed by (identifiers.ts). */
  terms: string | null;
};

export type RawEvent = { kind: unknown; text: unknown; session?: unknown; ts?: unknown; key?: unknown };

const describe = (v: unknown) => (v === null || typeof v !== "object" ? JSON.stringify(v) : Array.isArray(v) ? "a list" : "an object");

/** Cuts at a UTF-8 byte count, never inside a character, preferring a line or sentence end near the cut. */
function cutAt(text: string, maxBytes: number): string {
  let end = Math.min(text.length, maxBytes);
  while (end > 0 && utf8Length(text, 0, end) > maxBytes) end = Math.floor(end * 0.9);
  const head = text.slice(0, end);
  const soft = Math.max(head.lastIndexOf("\n"), head.lastIndexOf(". "));
  return soft > end * 0.7 ? head.slice(0, soft + 1) : head;
}

/** The last session name redacted: a batch names the same session event after event (redaction is a pure function of the text). */
let lastSession = { raw: "", text: "" };
function redactedSession(session: string): string {
  if (session !== lastSession.raw) lastSession = { raw: session, text: redact(session).text };
  return lastSession.text;
}

/** Checks and prepares one event; a failure says what was wrong with it. */
export async function prepareEvent(deps: MemoryDeps, raw: RawEvent, scope: Scope): Promise<Result<{ event: Prepared }>> {
  if (!isEventKind(raw.kind)) {
    return fail(
      "BAD_KIND",
      `kind must be one of prompt, answer, decision, correction, error, command, files, note (got ${JSON.stringify(raw.kind)}).`,
    );
  }
  if (typeof raw.text !== "string") return fail("BAD_TEXT", "text must be a string.");
  // Control characters (a NUL ends a string for SQLite's functions) and half surrogate pairs become harmless.
  const text = stripAnsi(raw.text.replace(/\r\n?/g, "\n"))
    .replace(/(?![\t\n])\p{Cc}/gu, " ")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .trim();
  if (text === "") return fail("EMPTY", "The event is empty: give some text (an empty event is not stored).");
  if (
    raw.ts !== undefined &&
    raw.ts !== null &&
    (typeof raw.ts !== "number" || !Number.isFinite(raw.ts) || raw.ts < 0 || raw.ts > MAX_TS)
  ) {
    return fail(
      "BAD_TS",
      `ts must be a time in milliseconds since 1970, from 0 to ${MAX_TS} (got ${JSON.stringify(raw.ts) ?? String(raw.ts)}).`,
    );
  }
  if (raw.session !== undefined && raw.session !== null && typeof raw.session !== "string") {
    return fail("BAD_SESSION", `session must be a string, the session's id (got ${describe(raw.session)}).`);
  }
  if (raw.key !== undefined && raw.key !== null && (typeof raw.key !== "string" || raw.key === "")) {
    return fail("BAD_KEY", `key must be a non-empty string (got ${describe(raw.key)}).`);
  }
  const session = typeof raw.session === "string" ? raw.session.slice(0, 200) : (scope.session ?? "");
  const kind: EventKind = raw.kind === "prompt" && isCorrection(text) ? "correction" : raw.kind;
  const max = deps.config.memory.maxEventBytes;
  let content = text;
  let source: string | null = null;
  let cut = false;
  // At most 3 bytes per UTF-16 unit: most events are shorter than that and need no count.
  if (text.length * 3 > max && Buffer.byteLength(text) > max) {
    cut = true;
    try {
      source = (await deps.storeWhole?.(text, { project: scope.project, session: session || null }))?.sourceId ?? null;
    } catch (error) {
      deps.log(`memory: could not keep a cut event whole: ${error instanceof Error ? error.message : String(error)}`);
    }
    const note = source
      ? ` […cut; whole text (${utf8Length(text)} bytes) in context source ${source}]`
      : ` […cut at ${max} of ${utf8Length(text)} bytes]`;
    content = cutAt(text, max - 80) + note;
  }
  const redaction = redact(content);
  const tokens = await deps.count([redaction.text]);
  return {
    ok: true,
    event: {
      key: typeof raw.key === "string" ? raw.key : null,
      kind,
      content: redaction.text,
      tokens,
      session: redactedSession(session),
      ts: typeof raw.ts === "number" ? Math.floor(raw.ts) : null,
      source,
      cut,
      redactions: redaction.count,
      terms: extraTerms(redaction.text),
    },
  };
}

/** Rows per INSERT statement: one statement is one FTS5 flush (a statement per row would write a segment per row). */
const ROWS_PER_STATEMENT = 1000;

export type Inserted = { ids: number[]; duplicates: number };

/**
 * One INSERT of `n` rows (a VALUES list of bound parameters: a fifth less work for SQLite than
 * reading the same rows out of JSON, and no JSON to write). The full-size statement and the
 * single row are kept compiled; another size is compiled for the one batch that ends with it.
 */
function rowsInsert(db: MemoryDeps["db"], n: number) {
  const sql = `INSERT INTO memory_events (project_id, session_id, ts, kind, content, tokens, source, terms)
       VALUES ${Array.from({ length: n }, () => "(?,?,?,?,?,?,?,?)").join(",")} RETURNING id`;
  return n === ROWS_PER_STATEMENT || n === 1
    ? { st: db.query<{ id: number }, (string | number | null)[]>(sql), own: false }
    : { st: db.prepare<{ id: number }, (string | number | null)[]>(sql), own: true };
}

/**
 * Writes prepared events in one transaction; returns their ids (and how many were already
 * stored under their import key), or null when the project's memory is off (nothing written).
 * Many rows go in per statement: FTS5 flushes its pending terms at every statement, so a
 * statement per row would leave the index in thousands of tiny segments (4x slower to write,
 * and slower to search).
 */
export function insertEvents(deps: MemoryDeps, project: string, all: Prepared[]): Inserted | null {
  const { db, registry } = deps;
  return immediate(db, () => {
    const projectId = registry.project(project, true)!;
    if (!registry.enabled(projectId)) return null;
    const events = newByKey(deps, projectId, all);
    let last = db.query<{ last_ts: number }, [number]>("SELECT last_ts FROM memory_projects WHERE id = ?").get(projectId)?.last_ts ?? 0;
    const ids: number[] = [];
    let bytes = 0;
    for (let i = 0; i < events.length; i += ROWS_PER_STATEMENT) {
      const part = events.slice(i, i + ROWS_PER_STATEMENT);
      const values: (string | number | null)[] = [];
      for (const e of part) {
        // The clock may go backwards: never before the project's newest event (imports keep their own times).
        const ts = e.ts ?? Math.max(deps.now(), last);
        if (e.ts === null) last = ts;
        bytes += Buffer.byteLength(e.content);
        values.push(projectId, registry.session(projectId, e.session), ts, e.kind, e.content, e.tokens, e.source, e.terms);
      }
      const insert = rowsInsert(db, part.length);
      try {
        // Ids of one statement are consecutive in insertion order (nobody else writes inside this transaction).
        ids.push(
          ...insert.st
            .all(...values)
            .map((r) => r.id)
            .sort((a, b) => a - b),
        );
      } finally {
        if (insert.own) insert.st.finalize();
      }
    }
    db.query("UPDATE memory_projects SET events = events + ?, text_bytes = text_bytes + ?, last_ts = max(last_ts, ?) WHERE id = ?").run(
      events.length,
      bytes,
      last,
      projectId,
    );
    return { ids, duplicates: all.length - events.length };
  });
}
