/** Typo tolerance: a word with no match is replaced by the closest indexed term. */
import type { Db } from "../db/open.ts";
import { stemPrefix } from "./hit-lines.ts";
import { quote } from "./query.ts";

const MAX_CANDIDATES = 5_000;

/** Optimal string alignment distance, giving up past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const prev2 = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    for (let j = 0; j <= b.length; j++) prev2[j] = prev[j]!;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

export function wordExists(db: Db, word: string): boolean {
  return (
    db.query<{ one: number }, [string]>("SELECT 1 AS one FROM chunks_words WHERE chunks_words MATCH ? LIMIT 1").get(quote(word)) !== null
  );
}

/**
 * How far an indexed term (a porter stem, so often a prefix of the word: "deploy" for
 * "deployment") is from the query word: the plain edit distance, or, for a stem, the distance
 * to the word's start plus a half, so whole-word matches win ties.
 */
function distance(term: string, word: string, max: number): number {
  let d = Math.min(editDistance(term, word, max), editDistance(term, stemPrefix(word), max));
  const extra = word.length - term.length;
  if (term.length >= 4 && extra >= 1 && extra <= 4) d = Math.min(d, editDistance(term, word.slice(0, term.length), max) + 0.5);
  return d;
}

/** The closest indexed term to a word that has no match, or null. */
export function correctWord(db: Db, word: string): string | null {
  if (word.length < 4 || /\d/.test(word) || wordExists(db, word)) return null;
  const max = word.length <= 5 ? 1 : 2;
  // Candidates share the first two letters, allowing for a typo in them (swapped, or the second missing).
  const prefixes = [...new Set([word.slice(0, 2), word[1]! + word[0]!, word[0]! + word[2]!])];
  const range = db.query<{ term: string; doc: number }, [string, string, number]>(
    "SELECT term, doc FROM chunks_words_vocab WHERE term >= ? AND term < ? AND term NOT GLOB '*[0-9]*' LIMIT ?",
  );
  let best: { term: string; d: number; doc: number } | null = null;
  for (const prefix of prefixes) {
    const upper = prefix.slice(0, -1) + String.fromCodePoint(prefix.codePointAt(prefix.length - 1)! + 1);
    for (const { term, doc } of range.all(prefix, upper, MAX_CANDIDATES)) {
      if (/\d/.test(term) || Math.abs(term.length - word.length) > max + 4) continue;
      const d = distance(term, word, max);
      if (d > max) continue;
      if (
        !best ||
        d < best.d ||
        (d === best.d && (term.length > best.term.length || (term.length === best.term.length && doc > best.doc)))
      ) {
        best = { term, d, doc };
      }
    }
  }
  return best?.term ?? null;
}
