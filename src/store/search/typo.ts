/**
 * Typo tolerance: a word with no match is replaced by a word that exists in the store's
 * vocabulary (words as written, lower-cased), within an edit distance of 1 (short words) or 2,
 * preferring the closest and then the most common. Never a prefix fragment of the word: a
 * correction is a whole word, as long as the word or longer. Digits inside a word are kept and
 * its letter runs corrected ("pyhton2" -> "python2").
 *
 * A correction must be a word of the text searched: when the search is narrowed (to one source),
 * the closest word of the whole store that the narrowed text never writes is no correction there
 * (it cannot find anything), and taking it turns a rightly spelt word the text happens not to hold
 * ("overall") into an unrelated word of another output; the next closest word that is in scope
 * is taken instead, or none.
 */
import type { Db } from "../../db/open.ts";
import { quote } from "./query.ts";

const MAX_CANDIDATES = 5_000;
/** Most vocabulary words checked against the searched text's scope, closest first. */
const MAX_SCOPE_CHECKS = 8;

/** The three rows editDistance works in, reused from call to call (a correction compares thousands of words). */
let scratch = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Optimal string alignment distance, giving up past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (scratch[0]!.length < b.length + 1) scratch = scratch.map(() => new Int32Array(2 * (b.length + 1)));
  const prev2 = scratch[0]!.fill(0, 0, b.length + 1);
  let prev = scratch[1]!;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  let cur = scratch[2]!.fill(0, 0, b.length + 1);
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

/** The word is the shorter one with its last letter typed twice. */
const doubledEnd = (word: string, shorter: string) => word.length === shorter.length + 1 && word.at(-1) === shorter.at(-1);

/** The closest vocabulary word to a run of letters that `inScope` accepts, or null. */
function correctLetters(db: Db, word: string, inScope: (w: string) => boolean = () => true): string | null {
  if (word.length < 4) return null;
  const max = word.length <= 5 ? 1 : 2;
  // Candidates share the first two letters, allowing for a typo in them (swapped, or the second missing).
  const prefixes = [...new Set([word.slice(0, 2), word[1]! + word[0]!, word[0]! + word[2]!])];
  const ranges = prefixes.map((p) => [p, `${p}\u{10ffff}`] as const);
  const scan = db.query<{ word: string; docs: number }, [string, string, number, number, number]>(
    "SELECT word, docs FROM vocabulary WHERE word >= ? AND word < ? AND length(word) BETWEEN ? AND ? LIMIT ?",
  );
  const found: { word: string; d: number; docs: number }[] = [];
  for (const [lo, hi] of ranges) {
    for (const c of scan.all(lo, hi, word.length - max, word.length + max, MAX_CANDIDATES)) {
      // Not a prefix of the word (`libicu` of "libicu72"), unless the word only doubles its last letter ("intervall").
      if (c.word === word || (c.word.length < word.length && word.startsWith(c.word) && !doubledEnd(word, c.word))) continue;
      const d = editDistance(word, c.word, max);
      if (d > max) continue;
      found.push({ word: c.word, d, docs: c.docs });
    }
  }
  // The closest, then the most common (a swapped prefix may list a word twice).
  found.sort((a, b) => a.d - b.d || b.docs - a.docs);
  const seen = new Set<string>();
  for (const c of found) {
    if (seen.has(c.word)) continue;
    seen.add(c.word);
    if (seen.size > MAX_SCOPE_CHECKS) break;
    if (inScope(c.word)) return c.word;
  }
  return null;
}

/** Some indexed word starts with it ("libicu" of "libicu72"): a word of the text, not a typo. */
function startsAWord(db: Db, word: string): boolean {
  return (
    db.query<{ one: number }, [string]>("SELECT 1 AS one FROM chunks_words WHERE chunks_words MATCH ? LIMIT 1").get(`${quote(word)}*`) !==
    null
  );
}

/**
 * Whether every word may start an indexed word: false when one of them starts none, so the AND of
 * them all matches nothing. A word that is a word of the text starts one (itself); the others are
 * looked up as prefixes one at a time, before the AND, which expands every prefix at once (a
 * common word's prefix merges thousands of lists: milliseconds, even when a misspelt word beside
 * it starts nothing).
 */
export function mayAllStartWords(db: Db, words: string[], exists = (w: string) => wordExists(db, w)): boolean {
  return words.every((w) => exists(w) || startsAWord(db, w));
}

/**
 * The word with its misspelled letter runs corrected, or null when nothing changed (`exists`:
 * wordExists, perhaps remembered). `inScope` says whether a word is in the text searched; a
 * word of letters only is corrected to such a word (a run inside a word with digits is a part of
 * an indexed word, not one).
 */
export function correctWord(
  db: Db,
  word: string,
  exists = (w: string) => wordExists(db, w),
  inScope: (w: string) => boolean = () => true,
): string | null {
  if (word.length < 4 || exists(word) || startsAWord(db, word)) return null;
  let changed = false;
  const fixed = word.replace(/\p{L}{4,}/gu, (run) => {
    if (run !== word && exists(run)) return run;
    const c = correctLetters(db, run, run === word ? inScope : undefined);
    if (c) changed = true;
    return c ?? run;
  });
  return changed ? fixed : null;
}
