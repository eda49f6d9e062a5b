/**
 * Getting stored text back exactly: whole chunks by ordinal (with neighbours), a line range
 * (widened by `around` lines), or the start of the source; bounded by `get.maxBytes`, with
 * the exact call that continues where a cut answer stopped. (Export is export.ts.)
 */

import { fail, type Result } from "../errors.ts";
import { utf8Length } from "../text.ts";
import type { EngineDeps } from "./engine-deps.ts";
import { type SourceFilter, sourceConditions } from "./source-filter.ts";

export type GetInput = {
  source: string;
  chunk?: number;
  lines?: { from: number; to: number };
  around?: number;
  /** The most to return (default: get.maxBytes from the config). */
  maxBytes?: number;
  /** The session that asked (kept in the retrieval log). */
  askedBy?: string | null;
};

export type GetAnswer = {
  sourceId: string;
  tool: string;
  totalLines: number;
  totalChunks: number;
  lineStart: number;
  lineEnd: number;
  chunks: { chunk: number; lineStart: number; lineEnd: number; title: string }[];
  text: string;
  truncated: boolean;
  next: string | null;
};

type SourceRow = { handle: string; tool: string; blob_id: number; lines: number; chunk_count: number; hash: string; bytes: number };
type ChunkRow = { ordinal: number; line_start: number; line_end: number; title: string; content: string };

const MAX_AROUND_CHUNKS = 5;
const MAX_AROUND_LINES = 200;

export function findSource(deps: EngineDeps, handle: string): Result<{ source: SourceRow }> {
  const row = deps.db
    .query<SourceRow, [string]>(
      `SELECT s.handle, s.tool, s.blob_id, b.lines, b.chunk_count, b.hash, b.bytes
     FROM sources s JOIN blobs b ON b.id = s.blob_id WHERE s.handle = ?`,
    )
    .get(handle);
  return row
    ? { ok: true, source: row }
    : fail(
        "NO_SUCH_SOURCE",
        `No source "${handle}" in this store: it was purged (retention or by hand), or stored on another machine. ` +
          "Run the command or read the file again to get its text now, or list the sources to see what is here.",
      );
}

/** Which of these source ids are in the store. */
export function existingSources(deps: Pick<EngineDeps, "db">, handles: string[]): Set<string> {
  if (handles.length === 0) return new Set();
  const rows = deps.db
    .query<{ handle: string }, [string]>("SELECT handle FROM sources WHERE handle IN (SELECT value FROM json_each(?))")
    .all(JSON.stringify(handles));
  return new Set(rows.map((r) => r.handle));
}

/** Cuts text to at most maxBytes, at a line end when there is one. */
function cut(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (utf8Length(text, 0, mid) <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  const nl = text.lastIndexOf("\n", lo - 1);
  return nl > 0 ? text.slice(0, nl + 1) : text.slice(0, lo);
}

/** Offset, in the rows' joined text, where line `from` starts. */
function textStart(rows: ChunkRow[], from: number): number {
  const text = rows.map((r) => r.content).join("");
  let start = 0;
  for (let line = rows[0]?.line_start ?? from; line < from; line++) start = text.indexOf("\n", start) + 1;
  return start;
}

export function get(deps: EngineDeps, input: GetInput): Result<GetAnswer> {
  const found = findSource(deps, input.source);
  if (!found.ok) return found;
  const src = found.source;
  const around = Math.max(0, Math.min(input.around ?? 0, input.chunk !== undefined ? MAX_AROUND_CHUNKS : MAX_AROUND_LINES));
  let rows: ChunkRow[];
  let from: number;
  let to: number;
  if (input.chunk !== undefined) {
    if (!Number.isInteger(input.chunk) || input.chunk < 1 || input.chunk > src.chunk_count) {
      return fail("BAD_CHUNK", `Source ${src.handle} has chunks 1-${src.chunk_count}; chunk ${input.chunk} does not exist.`);
    }
    rows = deps.db
      .query<ChunkRow, [number, number, number]>(
        "SELECT ordinal, line_start, line_end, title, content FROM chunks WHERE blob_id = ? AND ordinal BETWEEN ? AND ? ORDER BY ordinal",
      )
      .all(src.blob_id, input.chunk - around, input.chunk + around);
    from = rows[0]!.line_start;
    to = rows.at(-1)!.line_end;
  } else {
    const want = input.lines ?? { from: 1, to: src.lines };
    if (want.from < 1 || want.to < want.from) {
      return fail(
        "BAD_RANGE",
        `Line range ${want.from}-${want.to} is not valid: use A-B with 1 <= A <= B (the source has ${src.lines} lines).`,
      );
    }
    if (want.from > src.lines) {
      return fail("BAD_RANGE", `Source ${src.handle} has ${src.lines} lines; line ${want.from} does not exist.`);
    }
    from = Math.max(1, want.from - around);
    to = Math.min(src.lines, want.to + around);
    rows = deps.db
      .query<ChunkRow, [number, number, number]>(
        "SELECT ordinal, line_start, line_end, title, content FROM chunks WHERE blob_id = ? AND line_end >= ? AND line_start <= ? ORDER BY ordinal",
      )
      .all(src.blob_id, from, to);
  }
  let text = rows.map((r) => r.content).join("");
  if (input.chunk === undefined) {
    // Keep exactly lines from..to of the concatenation, which starts at rows[0].line_start.
    let start = 0;
    for (let line = rows[0]?.line_start ?? from; line < from; line++) start = text.indexOf("\n", start) + 1;
    let end = start;
    for (let line = from; line <= to && end !== -1; line++) {
      const nl = text.indexOf("\n", end);
      end = nl === -1 ? -1 : nl + 1;
    }
    text = text.slice(start, end === -1 ? text.length : end);
  }
  const cutText = cut(text, input.maxBytes ?? deps.config.get.maxBytes);
  const truncated = cutText.length < text.length;
  let lineEnd = to;
  let next: string | null = null;
  if (truncated) {
    const shownLines = (cutText.match(/\n/g) ?? []).length;
    lineEnd = Math.max(from, from + shownLines - (cutText.endsWith("\n") ? 1 : 0));
    if (cutText.endsWith("\n")) next = deps.calls.lines(src.handle, lineEnd + 1, to);
    else {
      // Cut inside a line longer than the cap: continue by chunk (each at most 4 KiB), from the
      // chunk holding the cut, so every call makes progress.
      const skipped = input.chunk === undefined ? textStart(rows, from) : 0;
      const at = skipped + cutText.length;
      let offset = 0;
      let holding = rows.at(-1)!;
      for (const r of rows) {
        offset += r.content.length;
        if (offset > at) {
          holding = r;
          break;
        }
      }
      next = deps.calls.chunk(src.handle, holding.ordinal);
    }
  }
  const asked = input.chunk !== undefined ? `chunk ${input.chunk}` : input.lines ? `lines ${input.lines.from}-${input.lines.to}` : "start";
  deps.retrievals.add({
    kind: "get",
    session: input.askedBy ?? null,
    query: asked,
    mode: null,
    hits: 1,
    parts: [{ sourceId: src.handle, text: cutText }],
  });
  return {
    ok: true,
    sourceId: src.handle,
    tool: src.tool,
    totalLines: src.lines,
    totalChunks: src.chunk_count,
    lineStart: from,
    lineEnd,
    chunks: rows.map((r) => ({ chunk: r.ordinal, lineStart: r.line_start, lineEnd: r.line_end, title: r.title })),
    text: cutText,
    truncated,
    next,
  };
}

export type SourceInfo = {
  sourceId: string;
  tool: string;
  session: string | null;
  project: string;
  label: string | null;
  createdAt: number;
  bytes: number;
  lines: number;
  chunks: number;
  tokens: number;
  redactions: number;
};

export function listSources(deps: EngineDeps, filter: SourceFilter = {}, limit = 20): SourceInfo[] {
  const { conds, params } = sourceConditions(filter);
  return deps.db
    .query<SourceInfo, (string | number)[]>(
      `SELECT s.handle AS sourceId, s.tool, s.session, s.project, s.label, s.created_at AS createdAt, b.bytes, b.lines,
       b.chunk_count AS chunks, b.tokens, s.redactions
     FROM sources s JOIN blobs b ON b.id = s.blob_id ${conds.length ? `WHERE ${conds.join(" AND ")}` : ""}
     ORDER BY s.id DESC LIMIT ?`,
    )
    .all(...params, limit);
}
