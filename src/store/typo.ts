/** Typo tolerance: a word with no match is replaced by the closest indexed term. */
import type { Db } from "../db/open.ts";
import { stemPrefix } from "./hit-lines.ts";
import { quote } from "./query.ts";

const MAX_CANDIDATES = 50_000;

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
  return db.query<{ one: number }, [string]>("SELECT 1 AS one FROM chunks_words WHERE chunks_words MATCH ? LIMIT 1").get(quote(word)) !== null;
}

/** The closest indexed term to a word that has no match, or null. */
export function correctWord(db: Db, word: string): string | null {
  if (word.length < 4 || /^\d+$/.test(word) || wordExists(db, word)) return null;
  const max = word.length <= 5 ? 1 : 2;
  const first = word[0]!;
  const upper = String.fromCodePoint(first.codePointAt(0)! + 1);
  const rows = db.query<{ term: string; doc: number }, [string, string, number]>(
    "SELECT term, doc FROM chunks_words_vocab WHERE term >= ? AND term < ? LIMIT ?",
  ).all(first, upper, MAX_CANDIDATES);
  const targets = [word, stemPrefix(word)];
  let best: { term: string; d: number; doc: number } | null = null;
  for (const { term, doc } of rows) {
    if (Math.abs(term.length - word.length) > max + 3) continue;
    const d = Math.min(...targets.map((t) => editDistance(t, term, max)));
    if (d > max) continue;
    if (!best || d < best.d || (d === best.d && doc > best.doc)) best = { term, d, doc };
  }
  return best?.term ?? null;
}
