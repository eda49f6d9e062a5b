/**
 * The shapes a run of query words may take in a note, where no single word of the query is
 * written: the run's initials, its words fused into one, a long word's numeronym. "fast fourier
 * transform" is "FFT", "command line argument parser" "clap", "end to end" "e2e"; "code owners" is
 * "codeowners" and "memory map" "memmap"; "kubernetes" is "k8s".
 *
 * - Initials: the first letters of three or four words in a row (the way English writes an
 *   acronym, the condition Schwartz and Hearst's abbreviation-definition algorithm checks, "A
 *   simple algorithm for identifying abbreviation definitions in biomedical text", PSB 2003). A
 *   connective inside the run gives its letter ("of": o, "proof of concept": poc) or its
 *   homophone digit ("to": 2, as in "peer to peer", p2p): two words with one between ("e2e")
 *   are three letters too. Two letters alone are not (MIN_FORM).
 * - Fused: two words in a row written as one ("codeowners"), or the first clipped where a
 *   syllable ends (abbreviations.ts) and fused with the second ("memmap"); a verb and its
 *   particle ("log in": login).
 * - Numeronym: a long word's first letter, how many letters it leaves out, and its last letter
 *   ("internationalization": i18n, "kubernetes": k8s, "accessibility": a11y).
 *
 * Each shape is a form of every query word it is made of, weighted below the word itself by how
 * much of the word it writes: a word written whole in a fused shape FUSED_WEIGHT, a clipped one
 * the weight of a short form (abbreviations.ts), a word written as its initial or as a numeronym
 * INITIAL_WEIGHT. Nothing here is a list of phrases: the shapes are made from the query's own
 * words, and the index says whether any note holds them.
 */

import { ABBREVIATION_WEIGHT, clippings } from "./abbreviations.ts";
import { porterStem, wordsOf } from "./stem.ts";
import { isStopWord } from "./stopwords.ts";

/** How much a word written whole inside a fused shape counts against the word on its own. */
export const FUSED_WEIGHT = 0.9;
/** How much a word written as its initial (or a numeronym) counts against the word itself. */
export const INITIAL_WEIGHT = 0.7;

/**
 * The adverbial particles of English phrasal verbs that fuse with the verb into one word ("log in",
 * login; "sign up", signup; "roll back", rollback; "check out", checkout): the common particles of
 * Quirk et al., A Comprehensive Grammar of the English Language (1985), chapter 16 (multi-word verbs), that such
 * closed compounds are made with.
 */
const PARTICLES: ReadonlySet<string> = new Set(["in", "on", "up", "out", "off", "back", "down", "over"]);
/** Connectives written inside an initialism, and what they are written as. */
const CONNECTIVES: Record<string, string> = { of: "o", to: "2" };
const MAX_RUN = 4;
const MIN_NUMERONYM = 10;
/** Clippings of a word fused with the next at most. */
const MAX_CLIPPINGS = 2;
/**
 * Shapes shorter than this are left out: two letters are the initials of too many pairs of words
 * ("pr" is "pull request" in most projects, whatever else a query's two words are).
 */
const MIN_FORM = 3;

/** A shape, and the words it stands for, each with its weight. */
export type PhraseForm = { form: string; words: { word: string; weight: number }[] };

const isWord = (w: string) => /^[a-z]{2,}$/.test(w) && !isStopWord(w);

/** A long word's numeronym ("kubernetes": k8s); null for a word shorter than MIN_NUMERONYM letters. */
export function numeronym(word: string): string | null {
  if (word.length < MIN_NUMERONYM || !/^[a-z]+$/.test(word)) return null;
  return `${word[0]}${word.length - 2}${word.at(-1)}`;
}

/** What ends a run of words: any mark but a space, a hyphen or an underscore ("end-to-end" is one run, "(exit 7): curl" three). */
const RUN_END = /[^\p{L}\p{N}\s_-]+/u;

/**
 * The shapes of the runs of words in a folded query. A run is words in a row within one clause
 * (no mark between them but a space, a hyphen or an underscore); a stop word ends it, unless it is
 * a connective between two words. A shape that is itself a stop word or one of the query's own
 * words is left out.
 */
export function phraseForms(folded: string, maxWords = 40): PhraseForm[] {
  const out = new Map<string, PhraseForm>();
  const runs = folded.split(RUN_END).map(wordsOf);
  const own = new Set(runs.flat().slice(0, maxWords));
  const add = (form: string, words: PhraseForm["words"], initials = false) => {
    if (form.length < MIN_FORM || isStopWord(form) || own.has(form) || out.has(form)) return;
    // The index stems what it holds: initials it would stem to another word ("ifs": if, "ads": ad)
    // are that word. Initials with a digit are no word ("e2e" stems to "e2", and no word does).
    if (initials && !/\d/.test(form) && porterStem(form) !== form) return;
    out.set(form, { form, words });
  };
  let seen = 0;
  for (const words of runs) {
    if (seen >= maxWords) break;
    seen += words.length;
    for (let i = 0; i < words.length; i++) {
      const first = words[i]!;
      if (!isWord(first)) continue;
      const n = numeronym(first);
      if (n) add(n, [{ word: first, weight: INITIAL_WEIGHT }]);
      // Initials of the runs starting here: content words, with a connective only between two of them.
      let initials = first[0]!;
      const at = [first];
      for (let j = i + 1; j < words.length && at.length < MAX_RUN; j++) {
        const w = words[j]!;
        const link = CONNECTIVES[w];
        const after = words[j + 1];
        if (link && after !== undefined && isWord(after)) {
          initials += link + after[0]!;
          at.push(after);
          j++;
        } else if (isWord(w)) {
          initials += w[0]!;
          at.push(w);
        } else break;
        add(
          initials,
          at.map((word) => ({ word, weight: INITIAL_WEIGHT })),
          true,
        );
      }
      // Two words in a row fused, the first whole or clipped (its shortest clippings: "mem" for memory).
      const next = words[i + 1];
      // A verb and its particle are written as one word as often as two ("log in": login, "set up": setup),
      // the verb in its base form ("backed up": backup, "logged in": login).
      if (next !== undefined && PARTICLES.has(next)) {
        add(first + next, [{ word: first, weight: FUSED_WEIGHT }]);
        add(porterStem(first) + next, [{ word: first, weight: FUSED_WEIGHT }]);
      }
      if (next === undefined || !isWord(next)) continue;
      add(first + next, [
        { word: first, weight: FUSED_WEIGHT },
        { word: next, weight: FUSED_WEIGHT },
      ]);
      for (const head of clippings(first).slice(0, MAX_CLIPPINGS))
        add(head + next, [
          { word: first, weight: ABBREVIATION_WEIGHT },
          { word: next, weight: FUSED_WEIGHT },
        ]);
    }
  }
  return [...out.values()];
}
