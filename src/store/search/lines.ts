/**
 * Where the query's terms occur on a line. A concept (a word, or an identifier's words) is
 * found at the start of a word, camelCase edges included, with its words apart or together
 * (`max retry count`, `max_retry_count`, `--max-retry-count`, `maxRetryCount`), its last word in
 * any inflection; a number only whole; a long word also inside a longer token (weaker). Identifiers
 * are also found verbatim, and phrases as
 * typed. Each occurrence says whether it is a whole token, a key (`Homepage:`, `"version":`,
 * `--bs-primary:`, the line's first word) and whether a zero stands before it ("0 failed").
 */

import { joinedParts, MAX_SHORT, MIN_SHORT } from "./joined-parts.ts";
import { isDigit, isKey, isSpace, isWordChar, type Occurrence, type Term, type TermKind, wholeToken, wordStart } from "./occurrence.ts";

export type { Occurrence, Term, TermKind } from "./occurrence.ts";

const SUFFIXES = [
  "ations",
  "ation",
  "ings",
  "ing",
  "ions",
  "ion",
  "ency",
  "ancy",
  "ence",
  "ance",
  "ies",
  "ied",
  "ers",
  "er",
  "ed",
  "es",
  "ly",
  "s",
];

const VOWEL = /[aeiouy]/;
/** Porter's measure of a stem: how many vowel-consonant sequences it has ("execut" 2, "fil" 1). */
function measure(stem: string): number {
  let m = 0;
  for (let i = 1; i < stem.length; i++) if (VOWEL.test(stem[i - 1]!) && !VOWEL.test(stem[i]!)) m++;
  return m;
}

/**
 * A crude stem so "failing" finds "failed": the prefix that porter would roughly keep, and as
 * porter does, a final e off a long enough stem ("execute" finds "execution", "file" stays).
 */
export function stemPrefix(word: string): string {
  if (/\d/.test(word)) return word;
  for (const suffix of SUFFIXES) {
    if (word.length - suffix.length >= 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  if (word.length >= 6 && word.endsWith("e") && measure(word.slice(0, -1)) > 1) return word.slice(0, -1);
  return word;
}

/** A term of the query; its weight is set once the lines it is found on are counted. */
export function makeTerm(
  kind: TermKind,
  parts: string[],
  number: boolean,
  concept: number,
  weight = 1,
  short: string[] = [],
  joinedShort: string[] = [],
): Term {
  const forms = kind === "concept" && !number ? [...parts.slice(0, -1), stemPrefix(parts.at(-1)!)] : parts;
  // A clipping the stem already finds (or longer) is no other form.
  const other = (s: string) => !s.startsWith(forms[0]!);
  const joined = joinedShort.filter((s) => other(s) && !short.includes(s) && s.length >= MIN_SHORT && s.length <= MAX_SHORT);
  // Every field set here, so every term has one shape (the scan reads terms in its innermost loops).
  return {
    kind,
    parts,
    forms,
    number,
    weight,
    concept,
    count: false,
    countedThing: false,
    short: short.filter(other),
    joinedShort: joined.length > 0 ? new Set(joined) : undefined,
    version: false,
    size: false,
  };
}

/** Where `needle` starts a word in `lower` (not inside another word), or -1. */
export function findWordStart(lower: string, needle: string, from = 0, orig = lower): number {
  for (let i = lower.indexOf(needle, from); i !== -1; i = lower.indexOf(needle, i + 1)) {
    if (wordStart(orig, i)) return i;
  }
  return -1;
}

/** Characters that may stand between the words of one identifier: `max-retry`, `node-gyp@3.8.0`. */
const isJoiner = (c: number) =>
  c === 45 || c === 95 || c === 46 || c === 32 || c === 64 || c === 47 || c === 58 || c === 40 || c === 91 || c === 35;

/** Whether a word is digits alone (`^\d+$`). */
function allDigits(word: string): boolean {
  if (word.length === 0) return false;
  for (let k = 0; k < word.length; k++) if (!isDigit(word.charCodeAt(k))) return false;
  return true;
}

/** The end of a concept whose first word starts at i, or -1 when its other words do not follow. */
function conceptEnd(lower: string, orig: string, t: Term, i: number): number {
  let end = i;
  for (let k = 0; k < t.parts.length; k++) {
    const part = t.forms[k]!;
    if (k > 0) {
      let j = end;
      while (j < lower.length && j - end < 2 && isJoiner(lower.charCodeAt(j))) j++;
      // Written together counts too: `maxRetryCount`, and `ccflags` for "cc flags".
      if (!lower.startsWith(part, j)) return -1;
      end = j;
    }
    end += part.length;
    // Numbers are whole: "1" is not the start of "10", nor of "1.5".
    if (allDigits(part) && (isDigit(lower.charCodeAt(end)) || (lower[end] === "." && isDigit(lower.charCodeAt(end + 1))))) return -1;
  }
  // The rest of the last word ("failed" for the stem "fail"), but not past a camelCase edge.
  while (end < lower.length && isWordChar(lower.charCodeAt(end)) && !wordStart(orig, end)) end++;
  return end;
}

function numberBefore(lower: string, i: number): boolean {
  const p = lower.charCodeAt(i - 1);
  return isDigit(p) || (lower[i - 1] === "." && isDigit(lower.charCodeAt(i - 2)));
}

/** A concept's words each at a word start somewhere on the line: where the first and the last of them are, or null. */
function looseConcept(lower: string, camel: string, t: Term): { at: number; end: number } | null {
  let at = Number.POSITIVE_INFINITY;
  let end = 0;
  for (const form of t.forms) {
    if (form.length < 2 && !t.number) return null;
    const i = findWordStart(lower, form, 0, camel);
    if (i < 0) return null;
    at = Math.min(at, i);
    end = Math.max(end, i + form.length);
  }
  return { at, end };
}

/** Spaces a count may stand before its word: a column of counts aligned before a column of names (`5     E501 line too long`). */
const COLUMN_GAP = 8;

/** A count right before [at, end) ("92 implicit rules", "4 tests") or as its value (`errorCount: 5`, `"total":12`). */
function countedAt(lower: string, at: number, end: number): boolean {
  let i = at - 1;
  while (i >= 0 && at - i <= COLUMN_GAP && (lower.charCodeAt(i) === 32 || lower.charCodeAt(i) === 9)) i--;
  if (i < at - 1 && isDigit(lower.charCodeAt(i))) return true;
  let j = end;
  while (j < lower.length && j - end < 4 && /[\s"':=]/.test(lower[j]!)) j++;
  return j > end && isDigit(lower.charCodeAt(j));
}

/** How far around an occurrence its path is read (a minified line is one token thousands of characters long). */
const PATH_REACH = 256;

/** [at, end) is in the last part of a path-like token: a `/` before it in the token, none after it. */
function inLeaf(lower: string, at: number, end: number): boolean {
  const stop = Math.min(lower.length, end + PATH_REACH);
  let j = end;
  while (j < stop && !isSpace(lower.charCodeAt(j))) {
    if (lower.charCodeAt(j) === 47) return false;
    j++;
  }
  if (j === stop && stop < lower.length) return false;
  const from = Math.max(0, at - PATH_REACH);
  for (let i = at - 1; i >= from && !isSpace(lower.charCodeAt(i)); i--) if (lower.charCodeAt(i) === 47) return true;
  return false;
}

/** Where `s` is a whole part of an identifier on the line (a word start before it, a word's end or a camelCase edge after it), added to `out`; how many. */
function shortForms(lower: string, camel: string, s: string, term: number, out: Occurrence[], max: number): number {
  let n = 0;
  for (let i = lower.indexOf(s); i !== -1 && n < max; i = lower.indexOf(s, i + 1)) {
    const end = i + s.length;
    if (!wordStart(camel, i) || (end < lower.length && isWordChar(lower.charCodeAt(end)) && !wordStart(camel, end))) continue;
    out.push({
      term,
      at: i,
      end,
      whole: wholeToken(lower, i, end),
      exact: false,
      key: isKey(lower, i, end),
      zero: false,
      loose: true,
      short: true,
    });
    n++;
  }
  return n;
}

/** A query word this long is also found inside a longer token. */
const INSIDE_MIN = 5;

/** "0 failed", "0 ignored", "no errors": the word is there to say there is none. */
const ZERO_BEFORE = /(?:^|[^\w.])(?:0|no|zero) $/;

/**
 * ZERO_BEFORE on the few characters before i: it can only match text ending in `0 ` or `o `, so
 * that is looked at first (most words have neither before them), and the pattern run only then.
 */
function zeroBefore(lower: string, i: number): boolean {
  if (i < 2 || lower.charCodeAt(i - 1) !== 32) return false;
  const c = lower.charCodeAt(i - 2);
  return (c === 48 || c === 111) && ZERO_BEFORE.test(lower.slice(Math.max(0, i - 6), i));
}

/**
 * Every occurrence of every term on the line, by position; at most `max` per term (a long
 * line has many).
 */
export function occurrences(orig: string, lower: string, terms: Term[], max: number): Occurrence[] {
  const out: Occurrence[] = [];
  const camel = lower.length === orig.length ? orig : lower;
  /** Concepts found only next to another one (a joined short form, a version number), when the line lacks them. */
  let joinable: number[] | null = null;
  terms.forEach((t, term) => {
    let n = 0;
    if (t.kind === "concept") {
      const first = t.forms[0]!;
      for (let i = lower.indexOf(first); i !== -1 && n < max; i = lower.indexOf(first, i + 1)) {
        if (!wordStart(camel, i) || (t.number && numberBefore(lower, i))) continue;
        const end = conceptEnd(lower, camel, t, i);
        if (end < 0) continue;
        const last = t.parts.at(-1)!;
        const whole = wholeToken(lower, i, end);
        const o: Occurrence = {
          term,
          at: i,
          end,
          whole,
          exact: lower.startsWith(last, end - last.length),
          key: isKey(lower, i, end),
          zero: zeroBefore(lower, i),
          head: !whole && isSpace(lower.charCodeAt(i - 1)),
        };
        if (inLeaf(lower, i, end)) o.leaf = true;
        if (t.count && countedAt(lower, i, end)) o.counted = true;
        out.push(o);
        n++;
      }
      if (n === 0 && t.parts.length > 1) {
        const loose = looseConcept(lower, camel, t);
        if (loose) out.push({ term, ...loose, whole: false, exact: false, key: false, zero: false, loose: true });
      }
      // A short form as a whole part of an identifier (`"sched":`, `OptFunction`), when the word is not on the line.
      if (n === 0) for (const s of t.short) n += shortForms(lower, camel, s, term, out, max - n);
      if (n === 0 && (t.joinedShort || t.version || t.size)) {
        if (joinable) joinable.push(term);
        else joinable = [term];
      }
      // A long word inside a longer token ("jemalloc" in `libjemalloc.so.2`), when it starts no word on the line.
      if (n === 0 && t.parts.length === 1 && !t.number && first.length >= INSIDE_MIN) {
        const i = lower.indexOf(t.parts[0]!);
        if (i >= 0)
          out.push({ term, at: i, end: i + t.parts[0]!.length, whole: false, exact: false, key: false, zero: false, loose: true });
      }
    } else {
      const needle = t.parts[0]!;
      for (let i = lower.indexOf(needle); i !== -1 && n < max; i = lower.indexOf(needle, i + 1)) {
        const end = i + needle.length;
        out.push({
          term,
          at: i,
          end,
          whole: t.kind === "ident" && wholeToken(lower, i, end),
          exact: true,
          key: isKey(lower, i, end),
          zero: false,
        });
        n++;
      }
    }
  });
  if (joinable) joinedParts(lower, camel, terms, joinable, out);
  return out;
}

/**
 * Pairs of different concepts written next to each other (at most 4 characters of punctuation
 * apart), either order; a pair whose second half is a key counts twice (`--bs-border-radius-lg:`
 * defines what `var(--bs-border-radius-lg)` uses).
 */
export function adjacentPairs(lower: string, found: Occurrence[], terms: Term[]): number {
  const sorted = found.filter((o) => terms[o.term]!.kind === "concept").sort((a, b) => a.at - b.at);
  const pairs = new Map<string, number>();
  for (let k = 0; k + 1 < sorted.length; k++) {
    const a = sorted[k]!;
    for (let m = k + 1; m < sorted.length && sorted[m]!.at <= a.end + 4; m++) {
      const b = sorted[m]!;
      if (b.term === a.term || b.at < a.end || /[\p{L}\p{N}]/u.test(lower.slice(a.end, b.at))) continue;
      const ca = terms[a.term]!.concept;
      const cb = terms[b.term]!.concept;
      const key = ca < cb ? `${ca},${cb}` : `${cb},${ca}`;
      pairs.set(key, Math.max(pairs.get(key) ?? 0, b.key ? 2 : 1));
    }
  }
  let n = 0;
  for (const v of pairs.values()) n += v;
  return n;
}
