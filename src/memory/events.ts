/**
 * Events in and out of their table. Before anything is written an event is redacted, cut at
 * memory.maxEventBytes (the whole text goes to the context store, and the cut says where), its
 * tokens are counted with the real tokenizer, and a prompt that corrects the agent is stored as a
 * correction. A batch is written in one transaction; the clock is made monotonic per project, so
 * a clock that goes backwards never reorders what was said.
 */
import { immediate } from "../db/open.ts";
import { fail, type Result } from "../errors.ts";
import { redact } from "../redact/redact.ts";
import { stripAnsi, utf8Length } from "../text.ts";
import { isCorrection } from "./classify.ts";
import type { MemoryDeps, Scope } from "./deps.ts";
import { type EventKind, isEventKind } from "./types.ts";

export type EventRow = {
  id: number;
  project_id: number;
  session_id: number;
  ts: number;
  kind: EventKind;
  content: string;
  tokens: number;
  archived: number;
  source: string | null;
};

export const EVENT_COLUMNS = "id, project_id, session_id, ts, kind, content, tokens, archived, source";

/** Events by id, in id order (missing ids are skipped). */
export function eventsById(deps: MemoryDeps, ids: readonly number[]): EventRow[] {
  if (ids.length === 0) return [];
  const out: EventRow[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    out.push(
      ...deps.db
        .query<EventRow, number[]>(`SELECT ${EVENT_COLUMNS} FROM memory_events WHERE id IN (${part.map(() => "?").join(",")})`)
        .all(...part),
    );
  }
  return out.sort((a, b) => a.id - b.id);
}

/** An event ready to write: redacted, cut, counted. */
export type Prepared = {
  kind: EventKind;
  content: string;
  tokens: number;
  session: string;
  ts: number | null;
  source: string | null;
  cut: boolean;
  redactions: number;
};

export type RawEvent = { kind: unknown; text: unknown; session?: unknown; ts?: unknown };

/** Cuts at a UTF-8 byte count, never inside a character, preferring a line or sentence end near the cut. */
function cutAt(text: string, maxBytes: number): string {
  let end = Math.min(text.length, maxBytes);
  while (end > 0 && utf8Length(text, 0, end) > maxBytes) end = Math.floor(end * 0.9);
  const head = text.slice(0, end);
  const soft = Math.max(head.lastIndexOf("\n"), head.lastIndexOf(". "));
  return soft > end * 0.7 ? head.slice(0, soft + 1) : head;
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
  if (raw.ts !== undefined && raw.ts !== null && (typeof raw.ts !== "number" || !Number.isFinite(raw.ts) || raw.ts < 0)) {
    return fail("BAD_TS", `ts must be a time in milliseconds since 1970 (got ${JSON.stringify(raw.ts)}).`);
  }
  const session = typeof raw.session === "string" ? raw.session.slice(0, 200) : (scope.session ?? "");
  const kind: EventKind = raw.kind === "prompt" && isCorrection(text) ? "correction" : raw.kind;
  const max = deps.config.memory.maxEventBytes;
  let content = text;
  let source: string | null = null;
  let cut = false;
  if (utf8Length(text) > max) {
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
      kind,
      content: redaction.text,
      tokens,
      session: redact(session).text,
      ts: typeof raw.ts === "number" ? Math.floor(raw.ts) : null,
      source,
      cut,
      redactions: redaction.count,
    },
  };
}

/** Rows per INSERT statement: one statement is one FTS5 flush (a statement per row would write a segment per row). */
const ROWS_PER_STATEMENT = 1000;

/**
 * Writes prepared events in one transaction; returns their ids, or null when the project's
 * memory is off (nothing written). Rows go in as JSON through json_each, many per statement:
 * FTS5 flushes its pending terms at every statement, so a statement per row would leave the
 * index in thousands of tiny segments (4x slower to write, and slower to search).
 */
export function insertEvents(deps: MemoryDeps, project: string, events: Prepared[]): number[] | null {
  const { db, registry } = deps;
  return immediate(db, () => {
    const projectId = registry.project(project, true)!;
    if (!registry.enabled(projectId)) return null;
    let last = db.query<{ last_ts: number }, [number]>("SELECT last_ts FROM memory_projects WHERE id = ?").get(projectId)?.last_ts ?? 0;
    const insert = db.query<{ id: number }, [number, string]>(
      `INSERT INTO memory_events (project_id, session_id, ts, kind, content, tokens, source)
       SELECT ?1, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 FROM json_each(?2) ORDER BY key
       RETURNING id`,
    );
    const ids: number[] = [];
    let bytes = 0;
    for (let i = 0; i < events.length; i += ROWS_PER_STATEMENT) {
      const rows = events.slice(i, i + ROWS_PER_STATEMENT).map((e) => {
        // The clock may go backwards: never before the project's newest event (imports keep their own times).
        const ts = e.ts ?? Math.max(deps.now(), last);
        if (e.ts === null) last = ts;
        bytes += utf8Length(e.content);
        return [registry.session(projectId, e.session), ts, e.kind, e.content, e.tokens, e.source];
      });
      // Ids of one statement are consecutive in insertion order (nobody else writes inside this transaction).
      ids.push(
        ...insert
          .all(projectId, JSON.stringify(rows))
          .map((r) => r.id)
          .sort((a, b) => a - b),
      );
    }
    db.query("UPDATE memory_projects SET events = events + ?, text_bytes = text_bytes + ?, last_ts = max(last_ts, ?) WHERE id = ?").run(
      events.length,
      bytes,
      last,
      projectId,
    );
    return ids;
  });
}
