/**
 * A hit as the model reads it: the matching lines and the lines around them, numbered as grep
 * does (`917: match`, `918- context`), the whole JSON record a matching field belongs to, long
 * lines cut to a window around the match. Context grows while the answer fits its byte budget,
 * so fewer hits get more of it. A window near a chunk edge reads on into the neighbouring chunk.
 */
import type { Db } from "../../db/open.ts";
import type { NextCalls } from "../next-calls.ts";
import { jsonPathAt, jsonRecord } from "./json.ts";
import type { Window } from "./windows.ts";

export type HitLine = { line: number; text: string; match: boolean };
export type Hit = {
  sourceId: string;
  tool: string;
  chunk: number;
  chunks: number;
  lineStart: number;
  lineEnd: number;
  title: string;
  score: number;
  lines: HitLine[];
  more: number;
  text: string;
};
export type SourcedWindow = Window & { sourceId: string; tool: string };

const MATCH_WIDTH = 240;
const CONTEXT_WIDTH = 160;
const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;

/** The text around position `at`, at most `max` characters, marked where it was cut. */
export function clipAround(text: string, at: number, max: number): string {
  const t = text.replace(/\r$/, "");
  if (t.length <= max) return t;
  const start = Math.max(0, Math.min(at - Math.floor(max / 3), t.length - max));
  return `${start > 0 ? "…" : ""}${t.slice(start, start + max)}${start + max < t.length ? "…" : ""}`;
}

/** Rows of text around a window, from line `first`; `shift` maps a chunk's own positions on its first row to this row. */
type Material = { rows: string[]; first: number; startTitle: string; shift: Map<number, { line: number; by: number }> };

/** The window's chunk with its neighbours (one each side, more if the window spans chunks). */
function material(db: Db, w: Window): Material {
  const last = w.matches.at(-1)!.line;
  const rows = db
    .query<{ ordinal: number; line_start: number; line_end: number; title: string; content: string }, [number, number, number, number]>(
      `SELECT ordinal, line_start, line_end, title, content FROM chunks
       WHERE blob_id = ? AND ordinal BETWEEN ? AND ? AND line_start <= ? ORDER BY ordinal`,
    )
    .all(w.chunk.blob_id, w.chunk.ordinal - 1, w.chunk.ordinal + 8, last + 1);
  // Keep the run up to the chunk after the one holding the last match.
  const upTo = rows.findIndex((r) => r.line_end >= last);
  const used = rows.slice(0, upTo === -1 ? rows.length : Math.min(rows.length, upTo + 2));
  const text = used.map((r) => r.content).join("");
  const lines = text.split("\n");
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  // A chunk that starts inside a line (a long line spans chunks): its positions on that line move
  // by the part of the line the chunks before it hold.
  const shift = new Map<number, { line: number; by: number }>();
  let offset = 0;
  for (const r of used) {
    shift.set(r.ordinal, { line: r.line_start, by: offset - (text.lastIndexOf("\n", offset - 1) + 1) });
    offset += r.content.length;
  }
  return { rows: lines, first: used[0]?.line_start ?? w.chunk.line_start, startTitle: used[0]?.title ?? w.chunk.title, shift };
}

function titleFor(w: Window, m: Material, row: number): string {
  if (w.chunk.kind === "json") return jsonPathAt(m.rows, row, m.startTitle);
  if (w.chunk.kind === "markdown") {
    for (let k = row; k >= 0; k--) {
      const h = HEADING.exec(m.rows[k]!);
      if (h) return h[2]!.trim();
    }
    return m.startTitle.startsWith("line") ? "" : m.startTitle;
  }
  return "";
}

/** `record`: the hit shows a whole JSON record, which is its context (lines of the next record would mislead). */
type Draft = { w: SourcedWindow; m: Material; shown: Map<number, boolean>; before: number; after: number; title: string; record: boolean };

function draft(db: Db, w: SourcedWindow): Draft {
  const m = material(db, w);
  const shown = new Map<number, boolean>();
  const rowOf = (line: number) => Math.max(0, Math.min(m.rows.length - 1, line - m.first));
  for (const match of w.matches) shown.set(rowOf(match.line), true);
  let record = false;
  if (w.chunk.kind === "json") {
    for (const match of w.matches.slice(0, 2)) {
      const rows = jsonRecord(m.rows, rowOf(match.line));
      record ||= rows.length > 1;
      for (const r of rows) if (!shown.has(r)) shown.set(r, false);
    }
  }
  const rows = [...shown.keys()];
  return { w, m, shown, before: Math.min(...rows), after: Math.max(...rows), title: titleFor(w, m, rowOf(w.matches[0]!.line)), record };
}

function renderDraft(d: Draft, index: number, calls: NextCalls): { text: string; lines: HitLine[] } {
  const at = new Map(
    d.w.matches.map((m) => {
      const s = d.m.shift.get(m.ordinal);
      return [m.line - d.m.first, m.at + (s && s.line === m.line ? s.by : 0)];
    }),
  );
  const rows = [...new Set([...d.shown.keys(), ...range(d.before, d.after)])]
    .sort((a, b) => a - b)
    .filter((r) => r >= 0 && r < d.m.rows.length);
  const lines: HitLine[] = rows.map((r) => {
    const match = d.shown.get(r) === true;
    const text = match ? clipAround(d.m.rows[r]!, Math.max(0, at.get(r) ?? 0), MATCH_WIDTH) : clipAround(d.m.rows[r]!, 0, CONTEXT_WIDTH);
    return { line: d.m.first + r, text, match };
  });
  const from = lines[0]?.line ?? d.w.chunk.line_start;
  const to = lines.at(-1)?.line ?? from;
  const width = String(to).length;
  const where = from === to ? `line ${from}` : `lines ${from}-${to}`;
  const head = `[${index}] ${d.w.sourceId} (${d.w.tool}) ${where}${d.title ? ` — ${d.title}` : ""}`;
  const body = lines.map((l) => `${String(l.line).padStart(width)}${l.match ? ":" : "-"} ${l.text}`);
  if (d.w.more > 0) {
    body.push(
      `(+${d.w.more} more matching line${d.w.more === 1 ? "" : "s"} nearby: ${calls.lines(d.w.sourceId, d.w.chunk.line_start, d.w.chunk.line_end)})`,
    );
  }
  return { text: [head, ...body].join("\n"), lines };
}

function range(a: number, b: number): number[] {
  return b < a ? [] : Array.from({ length: b - a + 1 }, (_, k) => a + k);
}

/** Renders the windows within `budget` bytes: hits that do not fit are dropped (counted), the rest get context. */
export function renderHits(db: Db, windows: SourcedWindow[], budget: number, calls: NextCalls): { hits: Hit[]; omitted: number } {
  const drafts = windows.map((w) => draft(db, w));
  const size = (d: Draft, i: number) => Buffer.byteLength(renderDraft(d, i + 1, calls).text) + 1;
  let kept = drafts;
  while (kept.length > 1 && kept.reduce((s, d, i) => s + size(d, i), 0) > budget) kept = kept.slice(0, -1);
  // Context for neighbouring answers: a few lines each side, a couple more when there are fewer hits.
  const maxContext = kept.length <= 1 ? 6 : kept.length === 2 ? 5 : 4;
  let total = kept.reduce((s, d, i) => s + size(d, i), 0);
  for (let step = 0; step < maxContext; step++) {
    let grew = false;
    for (const [i, d] of kept.entries()) {
      if (d.record) continue;
      for (const side of ["before", "after"] as const) {
        const next = side === "before" ? d.before - 1 : d.after + 1;
        if (next < 0 || next >= d.m.rows.length) continue;
        const old = size(d, i);
        d[side] = next;
        const grown = size(d, i);
        if (total - old + grown > budget) {
          d[side] = side === "before" ? next + 1 : next - 1;
          continue;
        }
        total += grown - old;
        grew = true;
      }
    }
    if (!grew) break;
  }
  const hits = kept.map((d, i) => {
    const r = renderDraft(d, i + 1, calls);
    return {
      sourceId: d.w.sourceId,
      tool: d.w.tool,
      chunk: d.w.chunk.ordinal,
      chunks: d.w.chunk.chunk_count,
      lineStart: r.lines[0]?.line ?? d.w.chunk.line_start,
      lineEnd: r.lines.at(-1)?.line ?? d.w.chunk.line_end,
      title: d.title,
      score: d.w.score,
      lines: r.lines,
      more: d.w.more,
      text: r.text,
    };
  });
  return { hits, omitted: windows.length - kept.length };
}
