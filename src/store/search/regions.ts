/**
 * Reading candidate chunks as regions: each candidate with the chunk before and after it (a record
 * may begin or end across a chunk edge), as runs of consecutive chunks of one text, each run one
 * region of rows (a neighbour gives only its lines next to the candidates). Runs and chunks read
 * before are taken from region-cache.ts. windows.ts finds the places in them.
 */
import type { Db } from "../../db/open.ts";
import { regionCache } from "./region-cache.ts";
import { LONG_LINE, type Region } from "./scan.ts";
import { MAX_RECORD, structureOf } from "./structure.ts";

export type CandidateChunk = {
  id: number;
  blob_id: number;
  ordinal: number;
  line_start: number;
  line_end: number;
  title: string;
  chunk_count: number;
  kind: string;
  /** Which stored text the chunk is of: its hash and when it was stored (a text's id may be taken again after a purge). */
  stamp: string;
  /** Rank of the chunk among the candidates (0 best), from the indexes. */
  rank: number;
};

type StoredChunk = { ordinal: number; line_start: number; line_end: number; title: string; content: string };

export type LoadedRegion = Region & {
  blob: number;
  kind: string;
  /** Line number of rows[0], and the title of the first chunk (where a JSON path starts). */
  first: number;
  title: string;
  /** Its chunks, without their text (that is in `text` and `rows`; a remembered region keeps one copy). */
  chunks: Omit<StoredChunk, "content">[];
};

export function rowsOf(content: string): string[] {
  const rows = content.split("\n");
  if (rows.length > 1 && rows[rows.length - 1] === "") rows.pop();
  return rows;
}

/**
 * The candidates with the chunk before and after each, as runs of consecutive chunks of one text.
 * A run read before is taken as it was (region-cache.ts): what a run holds depends only on its
 * chunks and on whether its first and last are candidates (a neighbour gives only its lines next
 * to them), not on which chunks inside it are. The chunks of a run not read before are taken from
 * the chunks read for other runs when they are there, and read from SQLite only when not.
 */
export function loadRegions(db: Db, candidates: CandidateChunk[]): { region: LoadedRegion; candidates: CandidateChunk[] }[] {
  const byBlob = new Map<number, CandidateChunk[]>();
  for (const c of candidates) byBlob.set(c.blob_id, [...(byBlob.get(c.blob_id) ?? []), c]);
  const cache = regionCache<LoadedRegion>(db);
  const texts = regionCache<StoredChunk>(db, "chunks");
  const out: { region: LoadedRegion; candidates: CandidateChunk[] }[] = [];
  for (const [blob, cands] of byBlob) {
    // A piece of a long JSON line is read with more of the line around it: its object's fields may be far.
    const around = (c: CandidateChunk) =>
      c.kind === "json" && c.line_start === c.line_end
        ? range(c.ordinal - JSON_BEFORE, c.ordinal + JSON_AFTER)
        : range(c.ordinal - 1, c.ordinal + 1);
    // A text has every chunk from 1 to its count (they are written and deleted together).
    const count = cands[0]!.chunk_count;
    const wanted = [...new Set(cands.flatMap(around))].filter((o) => o >= 1 && o <= count).sort((a, b) => a - b);
    const inRun = (from: number, to: number) => cands.filter((c) => c.ordinal >= from && c.ordinal <= to);
    const candidate = new Set(cands.map((c) => c.ordinal));
    const text = `${blob}:${cands[0]!.stamp}`;
    const keyOf = (from: number, to: number) => `${text}:${from}-${to}:${candidate.has(from) ? 1 : 0}${candidate.has(to) ? 1 : 0}`;
    const found: { from: number; region: LoadedRegion }[] = [];
    const missing: number[] = [];
    for (const [from, to] of runsOf(wanted)) {
      const region = cache.get(keyOf(from, to));
      if (region) found.push({ from, region });
      else for (let o = from; o <= to; o++) missing.push(o);
    }
    const stored: StoredChunk[] = [];
    const unread: number[] = [];
    for (const o of missing) {
      const known = texts.get(`${text}:${o}`);
      if (known) stored.push(known);
      else unread.push(o);
    }
    if (unread.length > 0) {
      const read = db
        .query<StoredChunk, [number, string]>(
          "SELECT ordinal, line_start, line_end, title, content FROM chunks WHERE blob_id = ? AND ordinal IN (SELECT value FROM json_each(?)) ORDER BY ordinal",
        )
        .all(blob, JSON.stringify(unread));
      for (const c of read) texts.put(`${text}:${c.ordinal}`, c, c.content.length);
      stored.push(...read);
      if (unread.length < missing.length) stored.sort((a, b) => a.ordinal - b.ordinal);
    }
    let run: StoredChunk[] = [];
    const flush = () => {
      if (run.length === 0) return;
      const [from, to] = [run[0]!.ordinal, run.at(-1)!.ordinal];
      const region = buildRegion(blob, cands[0]!.kind, run, candidate);
      // Whether a long first row starts a line or continues one from the chunk before (a JSON object's path needs to know).
      if (!region.firstRowWhole && (region.rows[0]?.length ?? 0) > LONG_LINE) {
        const before = db
          .query<{ line_end: number }, [number, number]>("SELECT line_end FROM chunks WHERE blob_id = ? AND ordinal = ?")
          .get(blob, run[0]!.ordinal - 1);
        region.firstRowWhole = !before || before.line_end < run[0]!.line_start;
      }
      cache.put(keyOf(from, to), region, 2 * region.text!.length);
      found.push({ from, region });
      run = [];
    };
    for (const s of stored) {
      if (run.length > 0 && s.ordinal !== run.at(-1)!.ordinal + 1) flush();
      run.push(s);
    }
    flush();
    for (const { region } of found.sort((a, b) => a.from - b.from)) {
      const chunks = region.chunks;
      out.push({ region, candidates: inRun(chunks[0]!.ordinal, chunks.at(-1)!.ordinal) });
    }
  }
  return out;
}

/** Runs of consecutive numbers in an ascending list, as [first, last]. */
function runsOf(sorted: number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const o of sorted) {
    const last = runs.at(-1);
    if (last && o === last[1] + 1) last[1] = o;
    else runs.push([o, o]);
  }
  return runs;
}

/** Chunks read before and after a candidate that is a piece of a long JSON line. */
const JSON_BEFORE = 4;
const JSON_AFTER = 2;

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let k = from; k <= to; k++) out.push(k);
  return out;
}

/** Of a neighbouring chunk, the lines next to the candidate: a record longer than this is not shown whole anyway. */
const NEIGHBOUR_ROWS = 2 * MAX_RECORD;

/** Where the last `k` lines of `text` start (it ends with a newline), or 0 when it has no more. */
function lastLines(text: string, k: number): number {
  let at = text.length - 1;
  for (let n = 0; n < k; n++) {
    if (at <= 0) return 0;
    at = text.lastIndexOf("\n", at - 1);
    if (at < 0) return 0;
  }
  return at + 1;
}

/** Where the first `k` lines of `text` end, or its length when it has no more. */
function firstLines(text: string, k: number): number {
  let at = -1;
  for (let n = 0; n < k; n++) {
    at = text.indexOf("\n", at + 1);
    if (at < 0) return text.length;
  }
  return at + 1;
}

function buildRegion(blob: number, kind: string, run: StoredChunk[], candidates: Set<number>): LoadedRegion {
  const parts = run.map((c) => c.content);
  let first = run[0]!.line_start;
  // Neighbours give only the lines next to the candidates (JSON keeps them whole: its keys above say where a line is).
  if (kind !== "json") {
    const head = run[0]!;
    if (!candidates.has(head.ordinal) && head.content.endsWith("\n")) {
      const from = lastLines(head.content, NEIGHBOUR_ROWS);
      if (from > 0) {
        parts[0] = head.content.slice(from);
        first = head.line_end - NEIGHBOUR_ROWS + 1;
      }
    }
    const tail = run.at(-1)!;
    if (run.length > 1 && !candidates.has(tail.ordinal))
      parts[parts.length - 1] = tail.content.slice(0, firstLines(tail.content, NEIGHBOUR_ROWS));
  }
  const text = parts.join("");
  const rows = rowsOf(text);
  return {
    blob,
    kind,
    first,
    title: run[0]!.title,
    chunks: run.map(({ ordinal, line_start, line_end, title }) => ({ ordinal, line_start, line_end, title })),
    rows,
    lower: new Array<string>(rows.length),
    text,
    structure: structureOf(rows, run[0]!.ordinal === 1 && first === run[0]!.line_start),
    json: kind === "json",
    firstRowWhole: run[0]!.ordinal === 1 || first !== run[0]!.line_start,
  };
}
