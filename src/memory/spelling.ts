/**
 * A word in the other of English's two spellings, so "behavior" finds "behaviour", "serialize"
 * "serialise", "canceled" "cancelled". No word list: the regular patterns in which British and
 * American spelling differ, as the standard accounts list them (Wikipedia, "American and British
 * English spelling differences": -our/-or, -re/-er, -ce/-se, -ise/-ize and -isation/-ization,
 * -yse/-yze, -ogue/-og, and l doubled before a suffix), applied both ways to the word itself.
 * What a rule makes of a word it does not fit ("parser" as "parsre") is no word: no note holds
 * it. Words shorter than MIN_WORD letters are left alone ("hour", "four", "size", "acre" fit a
 * pattern by chance, and are not spelled otherwise).
 */

import { isStopWord } from "./stopwords.ts";

/** How much a word in its other spelling counts against the word as written: the same word, written otherwise. */
export const SPELLING_WEIGHT = 0.9;

const MIN_WORD = 5;

/** [pattern, replacement] pairs, each applied at the end of a word (the -l- rule before a suffix). */
const RULES: [RegExp, string][] = [
  [/our(s|ed|ing|ite|ites|able)?$/, "or$1"],
  [/or(s|ed|ing|ite|ites|able)?$/, "our$1"],
  [/([^aeiou])re(s|d)?$/, "$1er$2"],
  [/([^aeiou])er(s|ed)?$/, "$1re$2"],
  [/ence(s)?$/, "ense$1"],
  [/ense(s)?$/, "ence$1"],
  [/is(e|es|ed|ing|er|ers|ation|ations)$/, "iz$1"],
  [/iz(e|es|ed|ing|er|ers|ation|ations)$/, "is$1"],
  [/ys(e|es|ed|ing|er|ers)$/, "yz$1"],
  [/yz(e|es|ed|ing|er|ers)$/, "ys$1"],
  [/ogue(s)?$/, "og$1"],
  [/([^o])og(s)?$/, "$1ogue$2"],
  // Only after a syllable or more ("cancelled", "modelling"): "filled" is not "filed".
  [/^(.{3,}[aeiou])ll(ed|ing|er|ers)$/, "$1l$2"],
  [/^(.{3,}[aeiou])l(ed|ing|er|ers)$/, "$1ll$2"],
];

/** The word's spellings in the other variety of English (none for a word shorter than MIN_WORD letters or not all letters). */
export function spellingVariants(word: string): string[] {
  if (word.length < MIN_WORD || !/^[a-z]+$/.test(word)) return [];
  const out = new Set<string>();
  for (const [pattern, replacement] of RULES) {
    if (!pattern.test(word)) continue;
    const other = word.replace(pattern, replacement);
    if (other !== word && !isStopWord(other)) out.add(other);
  }
  return [...out];
}
