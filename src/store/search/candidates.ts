/**
 * Chunks worth looking at for a query, from the two indexes: the word index (stemmed, ranked
 * by bm25 with the title weighted up) and the identifier trigram index (substrings, verified on
 * the chunk text). Filters narrow to some sources; one source is a row-id range FTS5 can skip by.
 */

import type { Db } from "../../db/open.ts";
import { isAscii } from "../../text.ts";
import type { EngineDeps } from "../engine-deps.ts";
import { type SourceFilter, sourceConditions } from "../source-filter.ts";
import { evenly, MAX_TRIGRAMS, quote, substringsAnd, trigramsOf } from "./query.ts";

export const CANDIDATES = 50;
/**
 * Of those, the chunks read line by line, with the chunks around them, for the hits (at least
 * twice the hits asked for). Most of a search's time is that line work; on the retrieval sets
 * (bench/retrieval) 8 to 12 find exactly the same answers.
 */
export const LINE_RANKED = 10;
/** Past this many matching chunks, ranking costs more than it tells: the newest matches win. */
const COMMON = 1000;
/** Identifier candidates (trigram matches) up to which each is checked by id. */
const FEW_CANDIDATES = 64;
/** Matches ranked by bm25 at most (the newest). */
const RANKED = 200;

/**
 * Conditions on the sources table `s` (`and`, with `params`), and the same as an EXISTS clause for
 * a chunk `c` (`sql`, with `sqlParams`). With one source, `range` is its chunks' row ids
 * (contiguous: a blob's chunks are inserted in one transaction), which lets FTS5 skip every other
 * source instead of testing each match; with that source alone, the range is the whole condition.
 */
export type Filter = { and: string; sql: string; params: string[]; sqlParams: string[]; range: [number, number] | null };

export function filterSql(deps: EngineDeps, f: SourceFilter): Filter {
  const { conds, params } = sourceConditions(f);
  const and = conds.map((c) => ` AND ${c}`).join("");
  const sql = conds.length > 0 ? ` AND EXISTS (SELECT 1 FROM sources s WHERE s.blob_id = c.blob_id${and})` : "";
  const ids = f.source ? sourceRange(deps.db, f.source) : null;
  // One source and nothing else: the range holds its chunks and no other text's, so the check per
  // chunk (`sql`, with `sqlParams`) would say what the range says.
  const alone = ids !== null && conds.length === 1;
  return { and, sql: alone ? "" : sql, params, sqlParams: alone ? [] : params, range: ids };
}

/**
 * The chunk ids of a source's text, remembered by its handle: a text's chunks are written with it
 * and deleted with it (once no source uses it), so while the source is there they stay what they
 * were. Finding them again costs two seeks in the chunk index on every search of that source.
 */
const ranges = new WeakMap<Db, Map<string, { blob: number; range: [number, number] | null }>>();
/** Handles remembered per database at most (then forgotten all at once). */
const MAX_RANGES = 1000;

function sourceRange(db: Db, handle: string): [number, number] | null {
  const blob = db.query<{ blob_id: number }, [string]>("SELECT blob_id FROM sources WHERE handle = ?").get(handle)?.blob_id;
  if (blob === undefined) return null;
  const known = ranges.get(db) ?? new Map<string, { blob: number; range: [number, number] | null }>();
  ranges.set(db, known);
  const seen = known.get(handle);
  if (seen && seen.blob === blob) return seen.range;
  // The first and the last chunk by ordinal: a text's chunks are inserted in order, so their ids
  // rise with it, and two seeks in the (blob_id, ordinal) index find what min and max of every id would.
  const r = db
    .query<{ lo: number | null; hi: number | null }, [number]>(
      `SELECT (SELECT id FROM chunks WHERE blob_id = ?1 ORDER BY ordinal LIMIT 1) AS lo,
        (SELECT id FROM chunks WHERE blob_id = ?1 ORDER BY ordinal DESC LIMIT 1) AS hi`,
    )
    .get(blob);
  const range: [number, number] | null = r && r.lo !== null && r.hi !== null ? [r.lo, r.hi] : null;
  if (known.size >= MAX_RANGES) known.clear();
  known.set(handle, { blob, range });
  return range;
}

function rangeSql(table: string, f: Filter): { sql: string; params: number[] } {
  return f.range ? { sql: ` AND ${table}.rowid BETWEEN ? AND ?`, params: f.range } : { sql: "", params: [] };
}

/**
 * Chunks matching an FTS5 word query, best bm25 first. bm25 reads every match's positions, so
 * past RANKED matches only the newest RANKED are ranked (a rowid bound FTS5 skips by), and past
 * COMMON the newest win outright.
 */
export function wordHits(deps: EngineDeps, match: string | null, f: Filter): number[] {
  if (!match) return [];
  const r = rangeSql("chunks_words", f);
  const newest = deps.db
    .query<{ rowid: number }, (string | number)[]>(
      `SELECT rowid FROM chunks_words WHERE chunks_words MATCH ?${r.sql} ORDER BY rowid DESC LIMIT ?`,
    )
    .all(match, ...r.params, CANDIDATES);
  if (newest.length === 0) return [];
  // How many match (up to COMMON), counted in the index's own order: FTS5 walks a query's lists
  // backwards at a higher cost per match, and only the newest CANDIDATES are ever returned.
  const n =
    newest.length < CANDIDATES
      ? newest.length
      : (deps.db
          .query<{ n: number }, (string | number)[]>(
            `SELECT count(*) AS n FROM (SELECT 1 FROM chunks_words WHERE chunks_words MATCH ?${r.sql} LIMIT ?)`,
          )
          .get(match, ...r.params, COMMON)?.n ?? newest.length);
  // One match, and no source condition to check: nothing to rank.
  if ((n === 1 || n >= COMMON) && !f.sql) return newest.map((x) => x.rowid);
  const order = n >= COMMON ? "chunks_words.rowid DESC" : "bm25(chunks_words, 4.0, 1.0, 2.0)";
  // The floor is bound, not written into the statement: one statement, prepared once.
  const bound =
    n > RANKED
      ? deps.db
          .query<{ rowid: number }, (string | number)[]>(
            `SELECT rowid FROM chunks_words WHERE chunks_words MATCH ?${r.sql} ORDER BY rowid DESC LIMIT 1 OFFSET ?`,
          )
          .get(match, ...r.params, RANKED - 1)
      : null;
  const floor = bound ? [bound.rowid] : [];
  // The join to chunks is only needed to filter by source conditions.
  const from = f.sql ? "chunks_words JOIN chunks c ON c.id = chunks_words.rowid" : "chunks_words";
  return deps.db
    .query<{ id: number }, (string | number)[]>(
      `SELECT chunks_words.rowid AS id FROM ${from}
       WHERE chunks_words MATCH ?${r.sql}${floor.length > 0 ? " AND chunks_words.rowid >= ?" : ""}${f.sql} ORDER BY ${order} LIMIT ?`,
    )
    .all(match, ...r.params, ...floor, ...f.sqlParams, CANDIDATES)
    .map((row) => row.id);
}

/**
 * Chunks holding every identifier substring (and, when given, matching a word query too):
 * candidates from the trigram index, each verified on the chunk's text. The index has no
 * positions to rank by: the newest text first, and within a text its first occurrence first.
 */
export function identHits(deps: EngineDeps, idents: string[], f: Filter, words: string | null = null): number[] {
  const match = substringsAnd(idents);
  if (!match) return [];
  const ascii = idents.filter(isAscii);
  const check = ascii.map(() => " AND instr(lower(c.content), ?) > 0").join("");
  const also = words ? " AND c.id IN (SELECT rowid FROM chunks_words WHERE chunks_words MATCH ?)" : "";
  const r = rangeSql("chunk_idents", f);
  // A rare identifier: its few candidates are read from the index in its own order (cheaper than
  // walking it backwards), then checked by id, the words each by id too (not every chunk they match).
  const candidatesOf = (m: string) =>
    deps.db
      .query<{ rowid: number }, (string | number)[]>(`SELECT rowid FROM chunk_idents WHERE chunk_idents MATCH ?${r.sql} LIMIT ?`)
      .all(m, ...r.params, FEW_CANDIDATES + 1);
  const rare = rareGrams(deps.db, idents);
  const fewOfRare = rare ? candidatesOf(rare) : null;
  const few = fewOfRare && fewOfRare.length <= FEW_CANDIDATES ? fewOfRare : (fewOfInnerWords(deps.db, idents, f) ?? candidatesOf(match));
  if (few.length === 0) return [];
  // Newest matches first, found by walking the index backwards (no sort of every match), then
  // within a text its first occurrence first. The word and source conditions come before the
  // text's check: they are cheaper than reading (and lower-casing) a chunk's text.
  const rows =
    few.length <= FEW_CANDIDATES
      ? deps.db
          .query<{ id: number; blob: number }, (string | number)[]>(
            `SELECT c.id AS id, c.blob_id AS blob FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))${
              words ? " AND EXISTS (SELECT 1 FROM chunks_words WHERE chunks_words MATCH ? AND chunks_words.rowid = c.id)" : ""
            }${f.sql}${check} ORDER BY c.id DESC LIMIT ?`,
          )
          .all(JSON.stringify(few.map((x) => x.rowid)), ...(words ? [words] : []), ...f.sqlParams, ...ascii, CANDIDATES)
      : deps.db
          .query<{ id: number; blob: number }, (string | number)[]>(
            `SELECT c.id AS id, c.blob_id AS blob FROM chunk_idents JOIN chunks c ON c.id = chunk_idents.rowid
       WHERE chunk_idents MATCH ?${r.sql}${also}${f.sql}${check} ORDER BY chunk_idents.rowid DESC LIMIT ?`,
          )
          .all(match, ...r.params, ...(words ? [words] : []), ...f.sqlParams, ...ascii, CANDIDATES);
  return rows.sort((a, b) => b.blob - a.blob || a.id - b.id).map((row) => row.id);
}

/**
 * Trigram lookups AND every trigram of an identifier (up to MAX_TRIGRAMS), and FTS5 reads each
 * trigram's whole list to do it: a rare identifier made of common trigrams (`Name_3f9a...`) costs
 * a millisecond. When the text's check by id (`instr`) implies every trigram, the rarest one or
 * two trigrams give the same chunks: an identifier of ASCII characters with one that is not a
 * letter, and none that splits or trims a token (idents.ts), is only inside identifier-like tokens
 * of a text, which the trigram index holds whole. How many chunks hold a trigram is asked once
 * (up to FEW_CANDIDATES + 1) and remembered; a count gone stale costs time, never a different
 * answer (the rare trigrams' candidates are used only when they are all of them).
 */
const counts = new WeakMap<Db, Map<string, number>>();
/** Trigram counts remembered per database at most (then forgotten all at once). */
const MAX_COUNTS = 50_000;
const TOKEN_EDGE = /[\s"'`()[\]{}<>,;]|^[.:=!?*#]|[.:=!?*]$/;
/** Trigrams of hex digits only: in hashes, ids and addresses everywhere, seldom rare (not asked). */
const HEX = /^[0-9a-f]{3}$/;

function verifiable(ident: string): boolean {
  return ident.length >= 4 && isAscii(ident) && /[^a-z]/.test(ident) && ident === ident.toLowerCase() && !TOKEN_EDGE.test(ident);
}

/** The AND of the rarest one or two trigrams of the identifiers, or null when none is rare (or the check would not imply them all). */
function rareGrams(db: Db, idents: string[]): string | null {
  if (!idents.every(verifiable)) return null;
  const known = counts.get(db) ?? new Map<string, number>();
  counts.set(db, known);
  if (known.size >= MAX_COUNTS) known.clear();
  const count = db.query<{ n: number }, [string, number]>(
    "SELECT count(*) AS n FROM (SELECT 1 FROM chunk_idents WHERE chunk_idents MATCH ? LIMIT ?)",
  );
  const rare: { gram: string; n: number }[] = [];
  for (const gram of new Set(idents.flatMap((s) => evenly(trigramsOf(s), MAX_TRIGRAMS)))) {
    if (HEX.test(gram)) continue;
    let n = known.get(gram);
    if (n === undefined) {
      n = count.get(quote(gram), FEW_CANDIDATES + 1)?.n ?? 0;
      known.set(gram, n);
    }
    if (n <= FEW_CANDIDATES) rare.push({ gram, n });
  }
  if (rare.length === 0) return null;
  rare.sort((a, b) => a.n - b.n);
  return rare
    .slice(0, 2)
    .map((x) => quote(x.gram))
    .join(" AND ");
}

/**
 * The words an identifier holds whole wherever it is written: those between two of its
 * separators (`184e` in `f8ab-184e-4707`); its first and last may be the end or the start of a
 * longer token (`xf8ab`, `4707a`). The word index splits text at the same characters (anything
 * but letters and digits), so every chunk holding the identifier holds those words.
 */
function innerWords(ident: string): string[] {
  return ident
    .split(/[^a-z0-9]+/)
    .slice(1, -1)
    .filter((w) => w.length > 0);
}

/**
 * The chunks that may hold identifiers whose trigrams are all common (the pieces of a UUID),
 * from the word index when their inner words are few places: a word's list is short where
 * eight trigrams' lists are long, and ANDing those reads every one of them. The text's check by
 * id implies the trigrams (rareGrams says when), so these candidates give the same chunks.
 * Null when the word index cannot say or names too many.
 */
function fewOfInnerWords(db: Db, idents: string[], f: Filter): { rowid: number }[] | null {
  if (!idents.every(verifiable)) return null;
  const words = [...new Set(idents.flatMap(innerWords))];
  if (words.length === 0) return null;
  const r = rangeSql("chunks_words", f);
  const few = db
    .query<{ rowid: number }, (string | number)[]>(`SELECT rowid FROM chunks_words WHERE chunks_words MATCH ?${r.sql} LIMIT ?`)
    .all(words.map(quote).join(" AND "), ...r.params, FEW_CANDIDATES + 1);
  return few.length <= FEW_CANDIDATES ? few : null;
}

/** Reciprocal rank fusion of ranked id lists (a list may be weighted up). */
export function fuse(lists: { ids: number[]; weight?: number }[]): { id: number; score: number }[] {
  const scores = new Map<number, number>();
  for (const { ids, weight = 1 } of lists)
    for (const [rank, id] of ids.entries()) scores.set(id, (scores.get(id) ?? 0) + weight / (60 + rank + 1));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}
