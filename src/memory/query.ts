/**
 * Any text a user or a prompt gives becomes index terms: folded and split exactly as the index
 * splits its text (letters and digits), stemmed as the index stems. Each term reaches FTS5 only
 * as a double-quoted run of letters and digits, so quotes, operators, column filters, NEAR,
 * parentheses and control characters in the query are just text that never matches.
 */
import { foldText, porterStem, wordsOf } from "./stem.ts";
import { closeWords, relatedWords } from "./synonyms.ts";

/**
 * One word to look up: `group` is the query word it stands for (a synonym shares its group) and
 * `weight` how much it counts (1 for the word and its close synonyms, less for related words).
 */
export type QueryTerm = { word: string; stem: string; group: number; weight: number };

const STOP_WORDS = new Set(
  (
    "a an and are as at be but by for from has have had in into is it its of on or that the this to was were will with " +
    "what where which who whom how why when do does did not no yes i me my we us our you your he she they them their " +
    "there here then than so if can could would should shall may might must please let lets just also again about " +
    "any some all each more most other such only own same too very s t don now ok okay hey hi thanks thank tell " +
    "know want need get got make sure one"
  ).split(" "),
);

const MAX_QUERY_CHARS = 4000;

export function isStopWord(folded: string): boolean {
  return STOP_WORDS.has(folded);
}

/** The distinct terms of a query, stop words dropped unless nothing else is left; at most `max`. */
export function queryTerms(raw: string, max = 12): QueryTerm[] {
  const words = wordsOf(foldText(raw.slice(0, MAX_QUERY_CHARS))).filter((w) => w.length <= 64);
  const content = words.filter((w) => !STOP_WORDS.has(w));
  const chosen = content.length > 0 ? content : words;
  const seen = new Set<string>();
  const out: QueryTerm[] = [];
  for (const word of chosen) {
    const stem = porterStem(word);
    if (seen.has(stem)) continue;
    seen.add(stem);
    out.push({ word, stem, group: out.length, weight: 1 });
    if (out.length >= max * 4) break;
  }
  // Longer words and words with digits say more; keep the first `max` of those.
  return out
    .map((t, i) => ({ t, i, weight: (/\d/.test(t.word) ? 4 : 0) + Math.min(t.word.length, 10) }))
    .sort((a, b) => b.weight - a.weight || a.i - b.i)
    .slice(0, max)
    .sort((a, b) => a.i - b.i)
    .map((x, group) => ({ ...x.t, group }));
}

const RELATED_WEIGHT = 0.5;

/** The terms plus their close synonyms (same weight) and related words (half), each in its word's group. */
export function expandTerms(terms: QueryTerm[]): QueryTerm[] {
  const own = new Set(terms.map((t) => t.stem));
  const seen = new Set<string>();
  const out = [...terms];
  // A word may stand in for several query words (each group needs its own), never for a query word itself.
  const push = (word: string, group: number, weight: number) => {
    const stem = porterStem(word);
    const key = `${group} ${stem}`;
    if (own.has(stem) || seen.has(key)) return;
    seen.add(key);
    out.push({ word, stem, group, weight });
  };
  for (const t of terms) {
    for (const w of closeWords(t.stem)) push(w, t.group, 1);
    for (const w of relatedWords(t.stem)) push(w, t.group, RELATED_WEIGHT);
  }
  return out;
}

/** One term as an FTS5 string: nothing but letters and digits inside the quotes. */
export function ftsTerm(term: QueryTerm): string {
  return `"${term.word.replace(/[^\p{L}\p{N}]/gu, "")}"`;
}

const counted = new Map<string, Map<string, number>>();
const CACHE_TEXTS = 20_000;

/** The stems of a stored text's words (to score a candidate the way the index matched it). Cached: the same rows come back query after query. */
export function stemCounts(text: string): Map<string, number> {
  const cached = counted.get(text);
  if (cached) return cached;
  const counts = new Map<string, number>();
  for (const w of wordsOf(foldText(text))) {
    const s = porterStem(w);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  if (counted.size >= CACHE_TEXTS) counted.clear();
  counted.set(text, counts);
  return counts;
}
