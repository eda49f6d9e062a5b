/**
 * The short forms a long word may be written as in notes: "msg" and "msgs" for messages, "cfg"
 * for config, "pkg" for package, "rev" for revision, "conf" for configuration, "prod" for
 * production. No list of abbreviations: the two ways English clips a word, generated from the
 * word itself.
 *
 * - Truncation (a clipping): the word's first three to six letters, stopping at a syllable's edge
 *   (a consonant before a vowel: "dev|elopment", "rev|ision", "conf|iguration"), so "settings"
 *   does not yield "set", nor "database" "data".
 * - Contraction: the first letter, one or two of the consonants in between and the last consonant
 *   of the word's base (its plural -s and silent -e dropped), as in "m-s-g", "c-f-g", "p-k-g",
 *   "m-g-r", "f-m-t". Made only of consonants after the first letter, such a token is rarely an
 *   English word of its own.
 *
 * The short form's letters occur in order in the long form, beginning with its first letter: the
 * condition Schwartz and Hearst's abbreviation-definition algorithm checks ("A simple algorithm
 * for identifying abbreviation definitions in biomedical text", PSB 2003). A short form counts a
 * little less than the word itself (ABBREVIATION_WEIGHT). A stop word is not a short form.
 */

import { isStopWord } from "./stopwords.ts";

export const ABBREVIATION_WEIGHT = 0.6;

const VOWEL = /[aeiouy]/;
const MIN_WORD = 6;
const MAX_FORMS = 10;

/** The word without a plural -s and a silent -e: what its last consonant is read from. */
function base(word: string): string {
  let w = word;
  if (w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

function truncations(word: string): string[] {
  const out: string[] = [];
  if (word.length < MIN_WORD) return out;
  for (let n = 3; n <= Math.min(6, word.length - 2); n++) {
    const cut = word.slice(0, n);
    // Only at a syllable's edge (a consonant, then a vowel): "conf|iguration", not "data|base".
    if (!VOWEL.test(cut) || VOWEL.test(word[n - 1]!) || !VOWEL.test(word[n]!)) continue;
    out.push(cut);
  }
  return out;
}

function contractions(word: string): string[] {
  const first = word[0]!;
  if (VOWEL.test(first)) return [];
  const b = base(word);
  const last = b.at(-1)!;
  if (VOWEL.test(last) || b.length < 4) return [];
  const middle = [...b.slice(1, -1)].filter((c) => !VOWEL.test(c));
  const out = new Set<string>();
  for (let i = 0; i < middle.length; i++) {
    out.add(first + middle[i] + last);
    for (let j = i + 1; j < middle.length; j++) out.add(first + middle[i] + middle[j] + last);
  }
  // A form with its plural: "msgs" for "messages".
  if (word.endsWith("s") && b !== word) for (const f of [...out]) out.add(`${f}s`);
  return [...out];
}

/** A word's clippings (its first letters, cut at a syllable's edge: "mem" for "memory"), shortest first; none for a word shorter than MIN_WORD letters. */
export function clippings(word: string): string[] {
  return /^[a-z]+$/.test(word) ? truncations(word).filter((f) => !isStopWord(f)) : [];
}

/** The short forms of a word (none for a word shorter than MIN_WORD letters or holding a digit), at most MAX_FORMS. */
export function shortForms(word: string): string[] {
  if (word.length < MIN_WORD || !/^[a-z]+$/.test(word)) return [];
  // A stop word is never a clipping ("per" for "period", "any" for "anything"): it is that word.
  const forms = [...truncations(word), ...contractions(word)].filter((f) => f !== word && !isStopWord(f));
  return [...new Set(forms)].slice(0, MAX_FORMS);
}
