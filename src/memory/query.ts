/**
 * Any text a user or a prompt gives becomes groups of index terms: folded and split exactly as
 * the index splits its text (letters and digits), stop words dropped (stopwords.ts), and each
 * word with its other forms (morphology.ts), stemmed as the index stems. A group matches a text
 * that holds any of its forms. Each term reaches FTS5 only as a double-quoted run of letters and
 * digits, so quotes, operators, column filters, NEAR, parentheses and control characters in the
 * query are just text that never matches.
 */
import { ABBREVIATION_WEIGHT, shortForms } from "./abbreviations.ts";
import { type Form, familyKey, wordForms } from "./morphology.ts";
import { phraseForms } from "./phrases.ts";
import { remembered } from "./remember.ts";
import { SPELLING_WEIGHT, spellingVariants } from "./spelling.ts";
import { foldText, porterStem, wordsOf } from "./stem.ts";
import { isStopWord } from "./stopwords.ts";

/** One query word: the forms a text may hold it in (the word's own first), and its place in the query. */
export type QueryGroup = { group: number; word: string; forms: Form[] };

/**
 * Groups for family keys a text holds (its own words, to look up how often the project says
 * them), each looked up by the word as the text writes it: a family key is a stem ("tsvect" for
 * "tsvector"), and the index would stem it again to something else.
 */
export function keyGroups(text: string, keys: readonly string[]): QueryGroup[] {
  const written = new Map<string, string>();
  for (const w of wordsOf(foldText(text.slice(0, 2000)))) {
    const k = familyKey(w);
    if (!written.has(k)) written.set(k, w);
  }
  return keys.map((word, group) => ({ group, word, forms: wordForms(written.get(word) ?? word) }));
}

const MAX_QUERY_CHARS = 4000;
/** Query words whose runs are shaped into phrases (phrases.ts) at most. */
const MAX_PHRASE_WORDS = 40;

/** The distinct words of a query (a word family once), stop words dropped unless nothing else is left; at most `max`. */
export function queryWords(raw: string, max = 12): string[] {
  const words = wordsOf(foldText(raw.slice(0, MAX_QUERY_CHARS))).filter((w) => w.length <= 64);
  const content = words.filter((w) => !isStopWord(w));
  const chosen = content.length > 0 ? content : words;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of chosen) {
    const key = familyKey(word);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(word);
    if (out.length >= max * 4) break;
  }
  // Longer words and words with digits say more; keep the first `max` of those, in query order.
  return out
    .map((w, i) => ({ w, i, weight: (/\d/.test(w) ? 4 : 0) + Math.min(w.length, 10) }))
    .sort((a, b) => b.weight - a.weight || a.i - b.i)
    .slice(0, max)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.w);
}

/** A word's forms, its other spelling (spelling.ts) and the short forms it may be written as in notes (abbreviations.ts). */
function searchForms(word: string): Form[] {
  // A copy: wordForms' lists are cached and shared.
  const forms = [...wordForms(word)];
  const stems = new Set(forms.map((f) => f.stem));
  // Each other way of writing it counts once, below the forms before it.
  const add = (others: string[], weight: number) => {
    for (const other of others) {
      const stem = porterStem(other);
      if (stems.has(stem)) continue;
      stems.add(stem);
      forms.push({ word: other, stem, weight });
    }
  };
  add(spellingVariants(word), SPELLING_WEIGHT);
  add(shortForms(word), ABBREVIATION_WEIGHT);
  return forms;
}

/**
 * The query's groups: each word with its forms, and the shapes of the runs of words it is in
 * (phrases.ts: initials, fused words, numeronyms) as forms of each word of the run.
 */
export function queryGroups(raw: string, max = 12): QueryGroup[] {
  const groups = queryWords(raw, max).map((word, group) => ({ group, word, forms: searchForms(word) }));
  const byFamily = new Map(groups.map((g) => [familyKey(g.word), g]));
  for (const p of phraseForms(foldText(raw.slice(0, MAX_QUERY_CHARS)), MAX_PHRASE_WORDS)) {
    const stem = porterStem(p.form);
    for (const { word, weight } of p.words) {
      const g = byFamily.get(familyKey(word));
      if (g && !g.forms.some((f) => f.stem === stem)) g.forms.push({ word: p.form, stem, weight });
    }
  }
  return groups;
}

/** A group of the word alone (no other forms): what forget matches. */
export function exactGroups(raw: string, max = 12): QueryGroup[] {
  return queryWords(raw, max).map((word, group) => ({ group, word, forms: [{ word, stem: porterStem(word), weight: 1 }] }));
}

const quoted = (word: string) => `"${word.replace(/[^\p{L}\p{N}]/gu, "")}"`;

/** A group as an FTS5 expression: any of its forms. */
export function ftsGroup(g: QueryGroup): string {
  const words = [...new Set(g.forms.map((f) => quoted(f.word)))].filter((w) => w !== '""');
  return words.length === 1 ? words[0]! : `(${words.join(" OR ")})`;
}

/** A word this long may be two written together (compound-parts.ts). */
const LONG_WORD = 8;

/** A stored text's stems with their counts, and its long words (folded, each stem once, each after a space: a word this long may be two written together, compound-parts.ts). */
export type TextWords = { counts: Map<string, number>; long: string };
const counted = remembered<TextWords>(20_000);

export function textWords(text: string): TextWords {
  return counted(text, () => wordsOfText(text));
}

/**
 * An event's words (its text and the extra words it is indexed by), kept by its id: a long text
 * read again from the database would be hashed whole to find it by its text. What is kept is used
 * only while the event still says the same (a rewrite, or another database's event of that id,
 * is worked out again).
 */
type EventWords = { content: string; terms: string | null; words: TextWords };
const countedEvents = remembered<EventWords, number>(20_000);

export function eventWords(row: { id: number; content: string; terms: string | null }): TextWords {
  const kept = countedEvents(row.id, () => ({ content: row.content, terms: row.terms, words: wordsOfText(indexedText(row)) }));
  return kept.content === row.content && kept.terms === row.terms ? kept.words : wordsOfText(indexedText(row));
}

/** The text an event is scored on: its content and the extra words it is indexed by. */
export const indexedText = (row: { content: string; terms: string | null }) => (row.terms ? `${row.content}\n${row.terms}` : row.content);

function wordsOfText(text: string): TextWords {
  const counts = new Map<string, number>();
  let long = "";
  for (const w of wordsOf(foldText(text))) {
    const s = porterStem(w);
    const n = counts.get(s);
    if (n === undefined) {
      counts.set(s, 1);
      if (w.length >= LONG_WORD) long += ` ${w}`;
    } else counts.set(s, n + 1);
  }
  return { counts, long };
}

/** The stems of a stored text's words (to score a candidate the way the index matched it). Cached: the same rows come back query after query. */
export const stemCounts = (text: string): Map<string, number> => textWords(text).counts;
