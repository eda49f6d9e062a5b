/**
 * The shapes a run of query words may take in a note, where no single word of the query is
 * written: the run's initials, its words fused into one, a long word's numeronym. "fast fourier
 * transform" is "FFT", "dependency injection" "DI", "end to end" "e2e"; "code owners" is
 * "codeowners" and "memory map" "memmap"; "kubernetes" is "k8s".
 *
 * - Initials: the first letters of two to four words in a row (the way English writes an
 *   acronym, the condition Schwartz and Hearst's abbreviation-definition algorithm checks, "A
 *   simple algorithm for identifying abbreviation definitions in biomedical text", PSB 2003). A
 *   connective inside the run gives its letter ("of": o, "proof of concept": poc) or its
 *   homophone digit ("to": 2, "for": 4, as in "peer to peer", p2p).
 * - Fused: two words in a row written as one ("codeowners"), or the first clipped where a
 *   syllable ends (abbreviations.ts) and fused with the second ("memmap").
 * - Numeronym: a long word's first letter, how many letters it leaves out, and its last letter
 *   ("internationalization": i18n, "kubernetes": k8s, "accessibility": a11y).
 *
 * Each shape is a form of every query word it is made of, weighted below the word itself
 * (PHRASE_WEIGHT): a note holding it holds those words, not as surely as if it said them. Nothing
 * here is a list of phrases: the shapes are made from the query's own words, and the index says
 * whether any note holds them.
 */

import { clippings } from "./abbreviations.ts";
import { porterStem } from "./stem.ts";
import { isStopWord } from "./stopwords.ts";

/** How much a phrase's shape counts against the words themselves. */
export const PHRASE_WEIGHT = 0.7;

/** Connectives written inside an initialism, and what they are written as. */
const CONNECTIVES: Record<string, string> = { of: "o", to: "2", for: "4" };
const MAX_RUN = 4;
const MIN_NUMERONYM = 10;
/**
 * Shapes shorter than this are left out: two letters are the initials of too many pairs of words
 * ("pr" is "pull request" in most projects, whatever else a query's two words are).
 */
const MIN_FORM = 3;

/** A shape and the positions (in the query's word list) of the words it stands for. */
export type PhraseForm = { form: string; words: number[] };

const isWord = (w: string) => /^[a-z]{2,}$/.test(w) && !isStopWord(w);

/** A long word's numeronym ("kubernetes": k8s); null for a word shorter than MIN_NUMERONYM letters. */
export function numeronym(word: string): string | null {
  if (word.length < MIN_NUMERONYM || !/^[a-z]+$/.test(word)) return null;
  return `${word[0]}${word.length - 2}${word.at(-1)}`;
}

/**
 * The shapes of the runs in a query's words (folded, in order, stop words kept: they end a run,
 * unless a connective between two words). A shape that is itself a stop word, or one of the
 * query's own words, is left out.
 */
export function phraseForms(words: string[]): PhraseForm[] {
  const out = new Map<string, PhraseForm>();
  const own = new Set(words);
  const add = (form: string, at: number[]) => {
    if (form.length < MIN_FORM || isStopWord(form) || own.has(form) || out.has(form)) return;
    // The index stems what it holds: letters it would stem to another word ("ifs": if, "ads": ad)
    // are that word. A shape with a digit is no word ("e2e" stems to "e2", and no word does).
    if (!/\d/.test(form) && porterStem(form) !== form) return;
    out.set(form, { form, words: at });
  };
  for (let i = 0; i < words.length; i++) {
    if (!isWord(words[i]!)) continue;
    // Initials of the runs starting here: content words, with a connective only between two of them.
    let initials = words[i]![0]!;
    const at = [i];
    for (let j = i + 1; j < words.length && at.length < MAX_RUN; j++) {
      const w = words[j]!;
      const link = CONNECTIVES[w];
      if (link && j + 1 < words.length && isWord(words[j + 1]!)) {
        initials += link + words[j + 1]![0]!;
        j++;
      } else if (isWord(w)) initials += w[0]!;
      else break;
      at.push(j);
      add(initials, [...at]);
    }
    // Two words in a row fused, the first whole or clipped.
    const next = words[i + 1];
    if (next !== undefined && isWord(next)) {
      for (const head of [words[i]!, ...clippings(words[i]!)]) add(head + next, [i, i + 1]);
    }
  }
  for (const [i, w] of words.entries()) {
    const n = isWord(w) ? numeronym(w) : null;
    if (n) add(n, [i]);
  }
  return [...out.values()];
}
