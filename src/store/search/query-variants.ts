/**
 * The query as the text may have written it, tried by search when the query as typed finds
 * nothing or too little: misspelled words corrected from the store's vocabulary, neighbouring
 * words the text writes as one word, one word the text writes as several, short forms of words
 * the text never writes out.
 */

import type { EngineDeps } from "../engine-deps.ts";
import { initialismOf, prefixForms } from "./abbreviations.ts";
import { type Filter, identHits } from "./candidates.ts";
import { type Concept, conceptOf, contentConcepts, isStopWord, type ParsedQuery, quote, substringsAnd } from "./query.ts";
import { correctWord, wordExists } from "./typo.ts";
import { splitWord } from "./word-split.ts";

/**
 * The query with misspelled words corrected from the vocabulary (an identifier's words together,
 * else one by one), each to a word of the text searched (`f`'s range, when it has one): a word
 * or a part of an identifier there.
 */
export function corrected(deps: EngineDeps, q: ParsedQuery, f: Filter): { q: ParsedQuery; corrections: Record<string, string> } {
  const corrections: Record<string, string> = {};
  const known = new Map<string, boolean>();
  const exists = (w: string) => known.get(w) ?? known.set(w, wordExists(deps.db, w)).get(w)!;
  const has = f.range
    ? deps.db.query<{ one: number }, [string, number, number]>(
        "SELECT 1 AS one FROM chunks_words WHERE chunks_words MATCH ? AND rowid BETWEEN ? AND ? LIMIT 1",
      )
    : null;
  const grams = f.range
    ? deps.db.query<{ one: number }, [string, number, number]>(
        "SELECT 1 AS one FROM chunk_idents WHERE chunk_idents MATCH ? AND rowid BETWEEN ? AND ? LIMIT 1",
      )
    : null;
  // A word of the text, or inside one of its identifiers (`jemalloc` in `libjemalloc.so.2`): its
  // trigrams first (one lookup), the text read only where they all are.
  const inside = (w: string) => {
    const m = substringsAnd([w]);
    return !!m && !!f.range && grams!.get(m, f.range[0], f.range[1]) !== null && identHits(deps, [w], f).length > 0;
  };
  const inScope = (w: string) => !has || !f.range || has.get(quote(w), f.range[0], f.range[1]) !== null || inside(w);
  const concepts = contentConcepts(q).map((c) => {
    // Written together only when its words are not each in the text (`nopt.js` is two known words, not a typo of "notes").
    const apart = c.words.every(exists);
    const whole = c.words.length > 1 && /^\p{L}+$/u.test(c.joined) && !apart ? correctWord(deps.db, c.joined, exists, inScope) : null;
    if (whole) {
      corrections[c.joined] = whole;
      return conceptOf([whole]);
    }
    const words = c.words.map((w) => {
      const fixed = correctWord(deps.db, w, exists, inScope);
      if (fixed) corrections[w] = fixed;
      return fixed ?? w;
    });
    return conceptOf(words);
  });
  if (Object.keys(corrections).length === 0) return { q, corrections };
  const fix = (s: string) => Object.entries(corrections).reduce((t, [a, b]) => t.split(a).join(b), s);
  return {
    corrections,
    q: {
      ...q,
      words: q.words.map((w) => corrections[w] ?? w),
      phrases: q.phrases.map((p) => ({ words: p.words.map((w) => corrections[w] ?? w), text: fix(p.text) })),
      idents: q.idents.map(fix),
      whole: fix(q.whole),
      concepts,
    },
  };
}

/** Most neighbouring words of a query looked up as one word of the text. */
const MAX_COMPOUND = 4;

/**
 * The query with neighbouring words that the text writes together as one word ("cc flags" for
 * `ccflags`, "server alive interval" for `serveraliveinterval`) as one concept, the longest run
 * first, or null when none is in the vocabulary.
 */
export function compounds(deps: EngineDeps, q: ParsedQuery): ParsedQuery | null {
  const known = deps.db.query<{ one: number }, [string]>("SELECT 1 AS one FROM vocabulary WHERE word = ?");
  const single = (c: Concept | undefined): c is Concept => !!c && !c.stop && c.words.length === 1 && /^\p{L}+$/u.test(c.joined);
  const out: Concept[] = [];
  let joined = false;
  for (let i = 0; i < q.concepts.length; i++) {
    let run = 0;
    if (single(q.concepts[i])) {
      let n = 1;
      while (n < MAX_COMPOUND && single(q.concepts[i + n])) n++;
      for (; n >= 2 && run === 0; n--) {
        const words = q.concepts.slice(i, i + n).map((c) => c.joined);
        if (known.get(words.join(""))) run = n;
      }
    }
    if (run >= 2) {
      out.push(conceptOf(q.concepts.slice(i, i + run).map((c) => c.joined)));
      joined = true;
      i += run - 1;
    } else out.push(q.concepts[i]!);
  }
  return joined ? { ...q, concepts: out } : null;
}

/**
 * The query with each word no text holds that is the text's words run together ("growthfactor"
 * for `growth_factor`, word-split.ts) as a concept of those words, or null when there is none.
 */
export function splits(deps: EngineDeps, q: ParsedQuery): ParsedQuery | null {
  const known = new Map<string, boolean>();
  const exists = (w: string) => known.get(w) ?? known.set(w, wordExists(deps.db, w)).get(w)!;
  let split = false;
  const concepts = q.concepts.map((c) => {
    if (c.stop || c.number || c.words.length !== 1 || c.short.length > 0 || exists(c.joined)) return c;
    const parts = splitWord(c.joined, exists);
    if (!parts) return c;
    split = true;
    // One run as typed: the words are looked for next to each other or together, not anywhere in a chunk.
    return { ...conceptOf(parts, [c.joined]), split: true };
  });
  return split ? { ...q, concepts } : null;
}

/**
 * The query with the short forms (abbreviations.ts) of the words the searched text never writes
 * out: a tool that prints `sched` does not print "scheduler", and where the text has the word, a
 * clipping of it (`java` of "javadoc") is more often another word. Asked after typo correction, so
 * a misspelt word is not clipped ("opensll" is not `open`). Only beside other words of the query.
 */
export function withShortForms(deps: EngineDeps, q: ParsedQuery, f: Filter): ParsedQuery {
  // One word alone is what the user expects verbatim ("webpmux" is not `webp`): nothing there is no match.
  if (contentConcepts(q).length < 2) return q;
  // A word's clippings; a compound's initials (`ro` for "read-only").
  const forms = q.concepts.map((c) =>
    c.stop ? [] : c.words.length > 1 ? initialismOf(c.words) : prefixForms(c.words[0]!).filter((w) => !isStopWord(w)),
  );
  if (forms.every((x) => x.length === 0)) return q;
  const r = f.range ? " AND rowid BETWEEN ? AND ?" : "";
  const has = deps.db.query<{ one: number }, (string | number)[]>(
    `SELECT 1 AS one FROM chunks_words WHERE chunks_words MATCH ?${r} LIMIT 1`,
  );
  const absent = (w: string) => has.get(quote(w), ...(f.range ?? [])) === null;
  // A compound is written out when its words are next to each other (`read only`, `read-only`) or together (`readonly`).
  const writtenOut = (c: Concept) => (c.words.length === 1 ? !absent(c.words[0]!) : !absent(c.words.join(" ")) || !absent(c.joined));
  const concepts = q.concepts.map((c, i) => (forms[i]!.length > 0 && !writtenOut(c) ? { ...c, short: forms[i]! } : c));
  return { ...q, concepts };
}
