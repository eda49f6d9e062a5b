/**
 * The short forms tools print for the words of a question: a word's first letters (`sched` for
 * "scheduler", `arg` for "argument", `dur` for "duration", `alloc` for "allocation"): clipping,
 * the usual way identifiers abbreviate a word (as English word-formation describes it), not a
 * list of words; and a compound's initials (`ro` for "read-only", `ttl` for "time-to-live"), the
 * way tools abbreviate a term of several words. A short form counts only where it is a whole part of an identifier, less than
 * the word written out, and only for words the searched text never writes out (search.ts).
 */

const LETTERS = /^\p{Ll}+$/u;
/** The shortest clipping looked for, and the longest (tools clip to 3 to 5 letters). */
const MIN_CLIP = 3;
const MAX_CLIP = 5;
/** A clipping leaves at least this many letters off (fewer is an inflection, which stems find). */
const MIN_LEFT = 2;

/** A word's clippings: its first 3 to 5 letters, each at least two letters shorter than the word. */
export function prefixForms(word: string): string[] {
  if (!LETTERS.test(word)) return [];
  const out: string[] = [];
  for (let n = MIN_CLIP; n <= MAX_CLIP && n <= word.length - MIN_LEFT; n++) out.push(word.slice(0, n));
  return out;
}

const VOWELS = /[aeiou]/;
/** A contraction keeps at most this many of the word's later consonants, from the first this many. */
const MAX_KEPT = 3;
const MAX_CONSONANTS = 5;

/**
 * A word's contractions: its first letter, then some of its later consonants in order (`flt` for
 * "float", `msg` for "message", `cfg` for "config", `pkg` for "package"), the other way
 * identifiers shorten a word besides clipping (vowels dropped first, then consonants). Three to
 * four letters, none a clipping (prefixForms has those).
 */
export function contractionForms(word: string): string[] {
  if (!LETTERS.test(word) || word.length < 4) return [];
  // The first few later consonants, a doubled one once (`msg` of "message"): contractions keep the word's start.
  const consonants = [...word.slice(1)].filter((c, i, all) => !VOWELS.test(c) && c !== all[i - 1]).slice(0, MAX_CONSONANTS);
  const out = new Set<string>();
  const pick = (from: number, kept: string) => {
    if (kept.length >= 3) out.add(kept);
    if (kept.length > MAX_KEPT) return;
    for (let i = from; i < consonants.length; i++) pick(i + 1, kept + consonants[i]!);
  };
  pick(0, word[0]!);
  return [...out].filter((s) => s.length <= word.length - MIN_LEFT && !word.startsWith(s));
}

/** A compound's initials are looked for when it has this many words (`ro` of "read-only" to `oom` of "out-of-memory"). */
const MIN_WORDS = 2;
const MAX_WORDS = 4;

/**
 * A compound's initialism: the first letter of each of its words (`ro` for "read-only", `rw` for
 * "read-write", `ttl` for "time-to-live", `eof` for "end-of-file"), as English word-formation
 * forms an initialism. Only of words of letters (a version or a number has none).
 */
export function initialismOf(words: string[]): string[] {
  if (words.length < MIN_WORDS || words.length > MAX_WORDS || !words.every((w) => LETTERS.test(w))) return [];
  return [words.map((w) => w[0]!).join("")];
}
