/**
 * Initialisms: "GE" written for "great expectations", "PII" for "personally identifiable
 * information". A capitalised short word in one statement and a run of words in another whose
 * first letters spell it are the same name (the run's words in a row, with or without the small
 * words between them: "time to live" and "TTL"). No list of abbreviations: the letters are read
 * from the texts themselves, the way Schwartz and Hearst's algorithm pairs a short form with its
 * long form ("A simple algorithm for identifying abbreviation definitions in biomedical text", PSB 2003).
 */
import { foldText, wordsOf } from "./stem.ts";
import { isStopWord } from "./stopwords.ts";

const INITIALISM = /(?<![\p{L}\p{N}_.-])(\p{Lu}{2,5})s?(?![\p{L}\p{N}_-])/gu;

/** The initialisms a text writes (upper-case words of two to five letters), lower-cased. */
export function initialismsOf(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.slice(0, 2000).matchAll(INITIALISM)) out.add(m[1]!.toLowerCase());
  return [...out];
}

/** Whether a text holds words in a row whose first letters spell the initialism (its small words skipped or not). */
export function spells(text: string, initialism: string): boolean {
  const all = wordsOf(foldText(text.slice(0, 2000))).filter((w) => /^\p{L}/u.test(w));
  const content = all.filter((w) => !isStopWord(w));
  const n = initialism.length;
  for (const words of [content, all]) {
    for (let i = 0; i + n <= words.length; i++) {
      let ok = true;
      for (let j = 0; j < n && ok; j++) ok = words[i + j]![0] === initialism[j] && words[i + j]!.length > 1;
      if (ok) return true;
    }
  }
  return false;
}
