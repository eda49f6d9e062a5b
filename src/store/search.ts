/**
 * Search: words (stemmed) AND first, fused with trigram substring matches; OR when nothing
 * matches all words; typo-corrected words and trigram similarity when nothing matches at all.
 * A hit shows its matching lines with line numbers, bounded per hit and per response.
 */

import type { EngineDeps } from "../engine-deps.ts";
import { fail, type Result } from "../errors.ts";
import { isAscii } from "../text.ts";
import { type HitLine, type Matcher, matchersFor, matchingLines } from "./hit-lines.ts";
import { isIdentifierLike, parseQuery, quote, substringsAnd, trigramsOf, wordsAnd, wordsOr, wordsPrefixAnd } from "./query.ts";
import { type SourceFilter, sourceConditions } from "./source-filter.ts";
import { correctWord } from "./typo.ts";

export type SearchFilter = SourceFilter;
export type SearchInput = SearchFilter & { query: string; limit?: number };
export type SearchMode = "all words" | "any word" | "typo-tolerant" | "no match";

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

export type SearchAnswer = {
  query: string;
  mode: SearchMode;
  corrections: Record<string, string>;
  hits: Hit[];
  omitted: number;
  text: string;
};

const CANDIDATES = 50;
const RRF_K = 60;
const MAX_LINE_CHARS = 200;

/**
 * Conditions on the sources table `s`, and the same as an EXISTS clause for a chunk `c`. With
 * one source, `range` is its chunks' row ids (contiguous: a blob's chunks are inserted in one
 * transaction), which lets FTS5 skip every other source instead of testing each match.
 */
type Filter = { and: string; sql: string; params: string[]; range: [number, number] | null };

function rangeSql(table: string, f: Filter): { sql: string; params: number[] } {
  return f.range ? { sql: ` AND ${table}.rowid BETWEEN ? AND ?`, params: f.range } : { sql: "", params: [] };
}

function filterSql(deps: EngineDeps, f: SearchFilter): Filter {
  const { conds, params } = sourceConditions(f);
  const and = conds.map((c) => ` AND ${c}`).join("");
  const sql = conds.length > 0 ? ` AND EXISTS (SELECT 1 FROM sources s WHERE s.blob_id = c.blob_id${and})` : "";
  const range = f.source
    ? deps.db
        .query<{ lo: number | null; hi: number | null }, [string]>(
          "SELECT min(c.id) AS lo, max(c.id) AS hi FROM chunks c JOIN sources s ON s.blob_id = c.blob_id WHERE s.handle = ?",
        )
        .get(f.source)
    : null;
  return { and, sql, params, range: range && range.lo !== null && range.hi !== null ? [range.lo, range.hi] : null };
}

/** Past this many matching chunks, ranking costs more than it tells: the newest matches win. */
const COMMON = 1000;

function wordHits(deps: EngineDeps, match: string | null, f: Filter): number[] {
  if (!match) return [];
  const r = rangeSql("chunks_words", f);
  const matches = deps.db
    .query<{ n: number }, (string | number)[]>(
      `SELECT count(*) AS n FROM (SELECT rowid FROM chunks_words WHERE chunks_words MATCH ?${r.sql} LIMIT ?)`,
    )
    .get(match, ...r.params, COMMON)!.n;
  const order = matches >= COMMON ? "chunks_words.rowid DESC" : "bm25(chunks_words, 4.0, 1.0)";
  return deps.db
    .query<{ id: number }, (string | number)[]>(
      `SELECT c.id AS id FROM chunks_words JOIN chunks c ON c.id = chunks_words.rowid
     WHERE chunks_words MATCH ?${r.sql}${f.sql} ORDER BY ${order} LIMIT ?`,
    )
    .all(match, ...r.params, ...f.params, CANDIDATES)
    .map((row) => row.id);
}

/**
 * Chunks containing every substring, newest first. Not ranked by bm25: on an index without
 * positions that re-reads and re-tokenizes every candidate; the substrings are verified instead.
 */
function substringHits(deps: EngineDeps, substrings: string[], f: Filter): number[] {
  const match = substringsAnd(substrings);
  if (!match) return [];
  const ascii = substrings.filter(isAscii);
  const check = ascii.map(() => " AND instr(lower(c.content), ?) > 0").join("");
  const r = rangeSql("chunks_trigrams", f);
  return deps.db
    .query<{ id: number }, (string | number)[]>(
      `SELECT c.id AS id FROM chunks_trigrams JOIN chunks c ON c.id = chunks_trigrams.rowid
     WHERE chunks_trigrams MATCH ?${r.sql}${check}${f.sql} ORDER BY chunks_trigrams.rowid DESC LIMIT ?`,
    )
    .all(match, ...r.params, ...ascii, ...f.params, CANDIDATES)
    .map((row) => row.id);
}

/**
 * Typo-tolerant fallback: chunks holding the most of the query's rarer trigrams, counted from
 * the trigram doclists (row ids only, no text read), at least half of them.
 */
function similarHits(deps: EngineDeps, grams: string[], f: Filter): number[] {
  if (grams.length === 0) return [];
  const counts = new Map<number, number>();
  const r = rangeSql("chunks_trigrams", f);
  const rows = deps.db.query<{ id: number }, (string | number)[]>(
    `SELECT rowid AS id FROM chunks_trigrams WHERE chunks_trigrams MATCH ?${r.sql}`,
  );
  for (const g of grams) for (const { id } of rows.iterate(quote(g), ...r.params)) counts.set(id, (counts.get(id) ?? 0) + 1);
  const need = Math.max(2, Math.ceil(grams.length / 2));
  const best = [...counts].filter(([, n]) => n >= need).sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  if (!f.sql) return best.slice(0, CANDIDATES).map(([id]) => id);
  const allowed = deps.db.query<{ one: number }, (string | number)[]>(`SELECT 1 AS one FROM chunks c WHERE c.id = ?${f.sql}`);
  const out: number[] = [];
  for (const [id] of best) {
    if (out.length >= CANDIDATES) break;
    if (allowed.get(id, ...f.params)) out.push(id);
  }
  return out;
}

/** Reciprocal rank fusion of ranked id lists. */
function fuse(lists: number[][]): { id: number; score: number }[] {
  const scores = new Map<number, number>();
  for (const list of lists) for (const [rank, id] of list.entries()) scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

/** Trigrams worth searching for: known to the index and not in most chunks. */
function usefulTrigrams(deps: EngineDeps, grams: string[]): string[] {
  const total = deps.db.query<{ n: number }, []>("SELECT count(*) AS n FROM chunks").get()!.n;
  const docOf = deps.db.query<{ doc: number }, [string]>("SELECT doc FROM chunks_trigrams_vocab WHERE term = ?");
  const known = grams
    .map((g) => ({ g, doc: docOf.get(g)?.doc ?? 0 }))
    .filter(({ doc }) => doc > 0 && doc <= Math.max(50, total * 0.02))
    .sort((a, b) => a.doc - b.doc);
  return known.slice(0, 6).map(({ g }) => g);
}

type ChunkRow = {
  id: number;
  blob_id: number;
  ordinal: number;
  line_start: number;
  line_end: number;
  title: string;
  content: string;
  chunk_count: number;
  kind: string;
};

export function search(deps: EngineDeps, input: SearchInput): Result<SearchAnswer> {
  const { db, config } = deps;
  const limit = Math.max(1, Math.min(input.limit ?? config.search.limit, 50));
  if (input.source && !db.query("SELECT 1 FROM sources WHERE handle = ?").get(input.source)) {
    return fail(
      "NO_SUCH_SOURCE",
      `No source "${input.source}" in the store (it may have been purged). Search without a source filter, or list the sources.`,
    );
  }
  const q = parseQuery(input.query);
  if (q.words.length === 0 && q.substrings.length === 0) {
    return fail(
      "EMPTY_QUERY",
      "The query has no letters or digits to search for. Search with distinctive words from the output, e.g. an error message or an identifier.",
    );
  }
  const f = filterSql(deps, input);
  const identifiers = q.substrings.filter(isIdentifierLike);
  const phraseTexts = q.phrases.map((p) => p.text);
  let mode: SearchMode = "all words";
  let matchers: Matcher[] = matchersFor(q.words, [...q.substrings, ...phraseTexts]);
  const corrections: Record<string, string> = {};
  let ranked = fuse([wordHits(deps, wordsAnd(q.words, q.phrases), f), substringHits(deps, identifiers, f)]);
  if (ranked.length === 0 && q.words.length > 0) {
    // Starts of words ("conn" for "connection"): a prefix query on the word index.
    ranked = fuse([wordHits(deps, wordsPrefixAnd(q.words), f)]);
  }
  let words = q.words;
  if (ranked.length === 0) {
    words = q.words.map((w) => {
      const fixed = correctWord(db, w);
      if (fixed) corrections[w] = fixed;
      return fixed ?? w;
    });
    if (Object.keys(corrections).length > 0) {
      mode = "typo-tolerant";
      matchers = matchersFor(words, identifiers);
      ranked = fuse([wordHits(deps, wordsAnd(words), f), substringHits(deps, identifiers, f)]);
    }
  }
  if (ranked.length === 0 && words.length > 1) {
    mode = "any word";
    matchers = matchersFor(words, identifiers);
    ranked = fuse([wordHits(deps, wordsOr(words), f), ...identifiers.map((s) => substringHits(deps, [s], f))]);
  }
  if (ranked.length === 0) {
    mode = "typo-tolerant";
    const grams = usefulTrigrams(deps, [...new Set([...q.substrings, ...q.words].flatMap(trigramsOf))]);
    matchers = matchersFor([], [], grams);
    ranked = fuse([similarHits(deps, grams, f)]);
    if (ranked.length === 0) mode = "no match";
  }

  const top = ranked.slice(0, limit);
  const rows = new Map<number, ChunkRow>();
  if (top.length > 0) {
    const sql = `SELECT c.id, c.blob_id, c.ordinal, c.line_start, c.line_end, c.title, c.content, b.chunk_count, b.kind
      FROM chunks c JOIN blobs b ON b.id = c.blob_id WHERE c.id IN (${top.map(() => "?").join(",")})`;
    for (const r of db.query<ChunkRow, number[]>(sql).all(...top.map((t) => t.id))) rows.set(r.id, r);
  }
  const sourceOf = db.query<{ handle: string; tool: string }, (string | number)[]>(
    `SELECT s.handle, s.tool FROM sources s JOIN chunks c ON c.blob_id = s.blob_id WHERE c.id = ?${f.and} ORDER BY s.id DESC LIMIT 1`,
  );

  const hits: Hit[] = [];
  let used = 0;
  let omitted = 0;
  for (const { id, score } of top) {
    const row = rows.get(id);
    const src = row && sourceOf.get(id, ...f.params);
    if (!row || !src) continue;
    const { lines, more } = matchingLines(
      row.content,
      row.line_start,
      matchers,
      config.search.maxLinesPerHit,
      MAX_LINE_CHARS,
      row.kind === "json",
      mode === "all words",
    );
    if (mode === "typo-tolerant" && lines.length === 0) continue;
    const range = row.line_start === row.line_end ? `line ${row.line_start}` : `lines ${row.line_start}-${row.line_end}`;
    const head =
      `[${hits.length + 1}] ${src.handle} (${src.tool}) chunk ${row.ordinal}/${row.chunk_count}, ${range}` +
      (row.title && !row.title.startsWith("line") ? ` — ${row.title}` : "");
    const width = String(row.line_end).length;
    const body = lines.map((l) => `  ${String(l.line).padStart(width)}: ${l.text}`);
    if (more > 0)
      body.push(
        `  (+${more} more matching line${more === 1 ? "" : "s"} here: ${deps.calls.lines(src.handle, row.line_start, row.line_end)})`,
      );
    const text = [head, ...body].join("\n");
    if (hits.length > 0 && used + Buffer.byteLength(text) > config.search.maxResponseBytes) {
      omitted++;
      continue;
    }
    used += Buffer.byteLength(text) + 1;
    hits.push({
      sourceId: src.handle,
      tool: src.tool,
      chunk: row.ordinal,
      chunks: row.chunk_count,
      lineStart: row.line_start,
      lineEnd: row.line_end,
      title: row.title,
      score,
      lines,
      more,
      text,
    });
  }
  omitted += Math.max(0, ranked.length - top.length);

  const summary = describe(input.query, mode, hits.length, omitted, corrections);
  const text = [summary, ...hits.map((h) => h.text)].join("\n");
  deps.retrievals.add(
    hits.map((h) => ({ sourceId: h.sourceId, text: h.text })),
    summary,
  );
  return { ok: true, query: input.query, mode, corrections, hits, omitted, text };
}

function describe(query: string, mode: SearchMode, n: number, omitted: number, corrections: Record<string, string>): string {
  if (n === 0)
    return `No match for ${JSON.stringify(query)}. Try fewer or different words: an exact identifier, error text, or a file name from the output.`;
  const fixes = Object.entries(corrections)
    .map(([a, b]) => `${a} -> ${b}`)
    .join(", ");
  const how =
    mode === "all words"
      ? ""
      : mode === "any word"
        ? " (no chunk has every word; showing chunks with some)"
        : ` (no exact match; closest matches${fixes ? `, ${fixes}` : ""})`;
  const rest = omitted > 0 ? ` ${omitted} more not shown: add words or filter by source to narrow.` : "";
  return `${n} hit${n === 1 ? "" : "s"} for ${JSON.stringify(query)}${how}.${rest}`;
}
