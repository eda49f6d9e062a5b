/**
 * The Porter (1980) stemmer, as SQLite's FTS5 `porter` tokenizer applies it: the service needs
 * the index's own terms to read document frequencies from the vocabulary and to score candidate
 * rows exactly as the index matched them. Like SQLite, it works on any token of 3 to 64 UTF-8
 * bytes, and every character but a, e, i, o, u (and y after a consonant) is a consonant
 * (test/memory/stem.test.ts checks it against SQLite on real text).
 */

import { remembered } from "./remember.ts";

const isVowelAt = (w: string, i: number): boolean => {
  const c = w[i];
  if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return true;
  // y is a vowel after a consonant
  return c === "y" && i > 0 && !isVowelAt(w, i - 1);
};

/** m: the number of vowel-consonant sequences in w[0, end). */
function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && !isVowelAt(w, i)) i++;
  while (i < end) {
    while (i < end && isVowelAt(w, i)) i++;
    if (i >= end) break;
    m++;
    while (i < end && !isVowelAt(w, i)) i++;
  }
  return m;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowelAt(w, i)) return true;
  return false;
}

/** Ends in a double consonant. */
function doubleConsonant(w: string, end: number): boolean {
  return end >= 2 && w[end - 1] === w[end - 2] && !isVowelAt(w, end - 1);
}

/** Ends consonant-vowel-consonant, the last not w, x or y. */
function cvc(w: string, end: number): boolean {
  if (end < 3) return false;
  const last = w[end - 1]!;
  return !isVowelAt(w, end - 1) && isVowelAt(w, end - 2) && !isVowelAt(w, end - 3) && last !== "w" && last !== "x" && last !== "y";
}

/** When w ends with `suffix` and the stem before it has measure > min, replace it. */
function swap(w: string, suffix: string, replacement: string, min: number): string | null {
  if (!w.endsWith(suffix)) return null;
  const end = w.length - suffix.length;
  return measure(w, end) > min ? w.slice(0, end) + replacement : w;
}

// As SQLite applies them, a suffix rule needs a non-empty stem before the suffix.
function step1a(w: string): string {
  if (w.length > 4 && w.endsWith("sses")) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("ies")) return w.slice(0, -2);
  if (w.endsWith("ss")) return w;
  if (w.endsWith("s")) return w.slice(0, -1);
  return w;
}

function step1b(w: string): string {
  if (w.length > 3 && w.endsWith("eed")) return measure(w, w.length - 3) > 0 ? w.slice(0, -1) : w;
  let stem: string | null = null;
  if (w.endsWith("ed") && hasVowel(w, w.length - 2)) stem = w.slice(0, -2);
  else if (w.endsWith("ing") && hasVowel(w, w.length - 3)) stem = w.slice(0, -3);
  if (stem === null) return w;
  if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) return `${stem}e`;
  const n = stem.length;
  if (doubleConsonant(stem, n) && !/[lsz]$/.test(stem)) return stem.slice(0, -1);
  if (measure(stem, n) === 1 && cvc(stem, n)) return `${stem}e`;
  return stem;
}

function step1c(w: string): string {
  return w.endsWith("y") && hasVowel(w, w.length - 1) ? `${w.slice(0, -1)}i` : w;
}

const STEP2: [string, string][] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];

const STEP3: [string, string][] = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];

const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
];

/** The longest matching suffix decides; its condition may still leave the word unchanged. */
function table(w: string, rules: [string, string][], min: number): string {
  let best: [string, string] | null = null;
  for (const r of rules) if (w.endsWith(r[0]) && (!best || r[0].length > best[0].length)) best = r;
  return best ? (swap(w, best[0], best[1], min) ?? w) : w;
}

function step4(w: string): string {
  let best: string | null = null;
  for (const s of STEP4) if (w.endsWith(s) && (!best || s.length > best.length)) best = s;
  if (!best) return w;
  const end = w.length - best.length;
  if (best === "ion" && !/[st]$/.test(w.slice(0, end))) return w;
  return measure(w, end) > 1 ? w.slice(0, end) : w;
}

function step5(w: string): string {
  let out = w;
  if (out.endsWith("e")) {
    const end = out.length - 1;
    const m = measure(out, end);
    if (m > 1 || (m === 1 && !cvc(out, end))) out = out.slice(0, end);
  }
  if (measure(out, out.length) > 1 && doubleConsonant(out, out.length) && out.endsWith("l")) out = out.slice(0, -1);
  return out;
}

const keptStems = remembered<string>(100_000);

/** `word` is already folded (see foldText); the result is the index's term. Cached: a project's words repeat. */
export function porterStem(word: string): string {
  return keptStems(word, () => stemOnce(word));
}

function stemOnce(word: string): string {
  // SQLite stems UTF-8 bytes: a non-ASCII character is as many consonants as it has bytes.
  const ascii = !/[^\p{ASCII}]/u.test(word);
  const w = ascii ? word : Buffer.from(word, "utf8").toString("latin1");
  if (w.length < 3 || w.length > 64) return word;
  const stem = step5(step4(table(table(step1c(step1b(step1a(w))), STEP2, 0), STEP3, 0)));
  return ascii ? stem : Buffer.from(stem, "latin1").toString("utf8");
}

/** Case and diacritics folded as unicode61 (remove_diacritics 2) does, before a text is split into words. */
export function foldText(text: string): string {
  // Most text is ASCII: nothing to decompose (normalising costs more than everything else here).
  if (!/[^\p{ASCII}]/u.test(text)) return text.toLowerCase();
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

/** The words of a folded text as unicode61 splits it (letters and digits). */
export function wordsOf(folded: string): string[] {
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}
