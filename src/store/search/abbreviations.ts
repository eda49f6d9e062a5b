/**
 * The short forms tools print for the words of a question: a word's first letters (`sched` for
 * "scheduler", `arg` for "argument", `dur` for "duration", `Opt` in `OptFunction` for
 * "optimize") and the initials of neighbouring words (`ra` for "read ahead", `GC` in `G1GC` for
 * "garbage collector"). These are the two ways abbreviations are formed in identifiers (clipping
 * and initialisms, as English word-formation describes them), not a list of words: a short form
 * counts only where it is a whole part of an identifier, and less than the word written out.
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

type Initialed = { words: string[]; stop: boolean; short: string[] };

/** Words of at least this many letters give an initial (not "of", "in"). */
const MIN_INITIAL_WORD = 3;

/**
 * Concepts with the initials of each run of two or three neighbouring words added to every word
 * of the run ("read ahead" -> `ra` for both): a place holding the initials answers both words.
 * Not initials that are a stop word or one of the query's own words.
 */
export function withInitials<C extends Initialed>(concepts: C[], isStop: (w: string) => boolean): C[] {
  const plain = (c: C | undefined) =>
    !!c && !c.stop && c.words.length === 1 && LETTERS.test(c.words[0]!) && c.words[0]!.length >= MIN_INITIAL_WORD;
  const own = new Set(concepts.flatMap((c) => c.words));
  const extra = concepts.map(() => new Set<string>());
  for (let i = 0; i < concepts.length; i++) {
    for (let n = 2; n <= 3 && i + n <= concepts.length; n++) {
      const run = concepts.slice(i, i + n);
      if (!run.every(plain)) break;
      const initials = run.map((c) => c.words[0]![0]).join("");
      if (isStop(initials) || own.has(initials)) continue;
      for (let k = i; k < i + n; k++) extra[k]!.add(initials);
    }
  }
  return concepts.map((c, i) => (extra[i]!.size === 0 ? c : { ...c, short: [...c.short, ...extra[i]!] }));
}
