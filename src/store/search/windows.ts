/**
 * From candidate chunks to hits: the matching lines of each chunk, grouped into windows (lines
 * a few apart belong together), scored by their best line, merged when windows of one stored
 * text meet across a chunk edge, best first. A hit is a place in a text, not a chunk.
 */
import type { LineMatch, Term } from "./lines.ts";
import { scoreLines } from "./lines.ts";

export type CandidateChunk = {
  id: number;
  blob_id: number;
  ordinal: number;
  line_start: number;
  line_end: number;
  title: string;
  content: string;
  chunk_count: number;
  kind: string;
  /** Rank of the chunk among the candidates (0 best), from the indexes. */
  rank: number;
};

export type Window = {
  chunk: CandidateChunk;
  /**
   * Absolute line numbers of the matching lines, ascending, with where the match is on each (a
   * position in that line's part held by chunk `ordinal`: a long line spans several chunks).
   */
  matches: { line: number; at: number; score: number; ordinal: number }[];
  score: number;
  /** Matching lines of the chunk left out of this window (shown as "+N more"). */
  more: number;
};

/** Matching lines this close belong to one hit (their context would overlap anyway). */
const GAP = 8;
const PER_CHUNK = 2;

export function rowsOf(content: string): string[] {
  const rows = content.split("\n");
  if (rows.length > 1 && rows[rows.length - 1] === "") rows.pop();
  return rows;
}

function cluster(chunk: CandidateChunk, lines: LineMatch[], maxLines: number): Window[] {
  const groups: LineMatch[][] = [];
  for (const m of [...lines].sort((a, b) => a.row - b.row)) {
    const last = groups.at(-1);
    if (last && last.length < maxLines && m.row - last.at(-1)!.row <= GAP) last.push(m);
    else groups.push([m]);
  }
  return groups.map((g) => {
    const best = Math.max(...g.map((m) => m.score));
    const rest = g.reduce((s, m) => s + m.score, 0) - best;
    return {
      chunk,
      matches: g.map((m) => ({ line: chunk.line_start + m.row, at: m.at, score: m.score, ordinal: chunk.ordinal })),
      score: best + Math.min(rest * 0.3, best * 0.5) - chunk.rank * 1e-3,
      more: 0,
    };
  });
}

/**
 * The windows worth showing, best first. `allWords`: only lines holding every query word count
 * as matches when some line does (the search matched all words in the chunk).
 */
export function findWindows(chunks: CandidateChunk[], terms: Term[], allWords: boolean, maxLines: number): Window[] {
  const words = terms.filter((t) => t.kind === "word").length;
  const out: Window[] = [];
  for (const chunk of chunks) {
    const rows = rowsOf(chunk.content);
    let lines = scoreLines(rows, terms);
    // In JSON, the shallower of equal matches is the more canonical one (a top-level dependency
    // before the same package nested under another).
    if (chunk.kind === "json") for (const l of lines) l.score *= 1 + 1 / (2 + (rows[l.row]!.length - rows[l.row]!.trimStart().length) / 2);
    const complete = lines.filter((l) => l.idents > 0 || l.phrases > 0 || l.words === words);
    if (allWords && complete.length > 0) lines = complete;
    if (lines.length === 0) {
      // Matched by its title (a heading, or a JSON record that began in the chunk before).
      out.push({
        chunk,
        matches: [{ line: chunk.line_start, at: 0, score: 0, ordinal: chunk.ordinal }],
        score: -chunk.rank * 1e-3,
        more: 0,
      });
      continue;
    }
    // Lines far weaker than the best one (one common word of several) are noise, not hits.
    const best = Math.max(...lines.map((l) => l.score));
    const kept = lines.filter((l) => l.score >= best * 0.5);
    const windows = cluster(chunk, kept, maxLines).sort((a, b) => b.score - a.score);
    const shown = windows.slice(0, PER_CHUNK);
    const hidden = windows.slice(PER_CHUNK).reduce((n, w) => n + w.matches.length, 0);
    if (shown[0]) shown[0].more = hidden;
    out.push(...shown);
  }
  return merge(out, maxLines).sort((a, b) => b.score - a.score);
}

/** Windows of one text that touch (across a chunk edge) become one. */
function merge(windows: Window[], maxLines: number): Window[] {
  const byBlob = new Map<number, Window[]>();
  for (const w of windows) byBlob.set(w.chunk.blob_id, [...(byBlob.get(w.chunk.blob_id) ?? []), w]);
  const out: Window[] = [];
  for (const list of byBlob.values()) {
    list.sort((a, b) => a.matches[0]!.line - b.matches[0]!.line);
    for (const w of list) {
      const prev = out.at(-1);
      const touches = prev && prev.chunk.blob_id === w.chunk.blob_id && w.matches[0]!.line - prev.matches.at(-1)!.line <= GAP;
      if (prev && touches && prev.matches.length + w.matches.length <= maxLines) {
        prev.matches.push(...w.matches.filter((m) => !prev.matches.some((p) => p.line === m.line)));
        prev.score = Math.max(prev.score, w.score) + Math.min(prev.score, w.score) * 0.3;
        prev.more += w.more;
      } else out.push({ ...w, matches: [...w.matches] });
    }
  }
  return out;
}
