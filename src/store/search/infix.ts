/**
 * Whether words can be inside some indexed text, asked of the vocabulary: the quick "no" for a
 * word that is nowhere (misspelt, or absent), before the identifier index hands over thousands
 * of chunks whose trigrams match and each is read to find that none holds the word.
 *
 * The vocabulary holds every indexed chunk's letter runs, lower-cased, a run longer than
 * VOCABULARY_PIECE letters cut into pieces of that many (index-prep.ts). A word of ASCII letters
 * inside a chunk's text (ASCII case-insensitively, as identHits checks it) lies inside one letter
 * run: inside one of its pieces, or across the end of a full piece. So when no vocabulary word
 * holds it and no full-length word ends with the start of it, no indexed chunk holds it.
 */
import type { Db } from "../../db/open.ts";
import { VOCABULARY_PIECE } from "../index-prep.ts";
import { substringsAnd } from "./query.ts";

const LETTERS = /^[a-z]+$/;
/** Up to this many chunks whose trigrams match are read as quickly as the vocabulary is scanned. */
const FEW = 256;

/** False only when no indexed text can hold `word`; true when it may (or the vocabulary cannot tell). */
export function inVocabulary(db: Db, word: string): boolean {
  if (!LETTERS.test(word) || word.length > VOCABULARY_PIECE) return true;
  // Across a piece's end: the word's first k letters end a full piece, for some k < its length.
  const across = Array.from({ length: word.length - 1 }, (_, k) => `substr(word, ${VOCABULARY_PIECE - k}) = ?`);
  const sql =
    across.length > 0
      ? `SELECT 1 AS one FROM vocabulary WHERE instr(word, ?) > 0 OR (length(word) = ${VOCABULARY_PIECE} AND (${across.join(" OR ")})) LIMIT 1`
      : "SELECT 1 AS one FROM vocabulary WHERE instr(word, ?) > 0 LIMIT 1";
  const starts = Array.from({ length: word.length - 1 }, (_, k) => word.slice(0, k + 1));
  return db.query<{ one: number }, string[]>(sql).get(word, ...starts) !== null;
}

/**
 * False only when no indexed chunk can hold every word (identHits would find nothing). The
 * vocabulary is asked only when many chunks would be read to find out (`range`: the chunks
 * searched, when one source is).
 */
export function mayHoldAll(db: Db, words: string[], range: [number, number] | null = null): boolean {
  const match = substringsAnd(words);
  if (!match) return true;
  const within = range ? " AND rowid BETWEEN ? AND ?" : "";
  const candidates = db
    .query<{ n: number }, (string | number)[]>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM chunk_idents WHERE chunk_idents MATCH ?${within} LIMIT ?)`,
    )
    .get(match, ...(range ?? []), FEW);
  return (candidates?.n ?? 0) < FEW || words.every((w) => inVocabulary(db, w));
}
