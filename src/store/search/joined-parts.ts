/**
 * The words of a query a line lacks, found next to another word of it: a short form that is
 * one part of an identifier with another query word (`FLT` of `FLT_EPSILON` for "float
 * epsilon"), a version number right after a name for the word "version" (`Valgrind-3.19.0`), a
 * size in bytes on the line for the word "size" (`7.7kb`). Looked for only next to the
 * occurrences lines.ts found, not along the whole line.
 */
import { isKey, isWordChar, type Occurrence, type Term, wholeToken, wordStart } from "./occurrence.ts";

/** A size in bytes (`7.7kb`, `14 MB`, `9864 kB`, `512 bytes`, `1.2 GiB`). */
const BYTE_SIZE = /(?<![\w.])\d+(?:[.,]\d+)?\s?(?:[kmgt]i?b|bytes?)(?!\w)/;

/** The lengths of the short forms looked for next to another concept (abbreviations.ts makes them 3 to 5 letters long). */
export const MIN_SHORT = 3;
export const MAX_SHORT = 5;

/** A version number (`3.19.0`, `v2.1`, `12.2.0-14`) at the start of the text it is matched on. */
const VERSION_NUMBER = /^v?\d+\.\d+(?:\.\d+)*(?:[-+~][\w.]*\w)?/;

/** Characters that join the parts of one identifier (`FLT_EPSILON`, `ext-suffix`, `cfg.path`). */
const isPartJoiner = (c: number) => c === 95 || c === 45 || c === 46;
/** Characters between a name and its version (`valgrind-3.19.0`, `openapi: 3.0.3`, `node@20.1.0`, `Python 3.11`). */
const isVersionJoiner = (c: number) =>
  isPartJoiner(c) || c === 32 || c === 9 || c === 58 || c === 61 || c === 64 || c === 47 || c === 34 || c === 39;

/**
 * The concepts the line lacks that are found next to another concept's occurrence: a joined
 * short form as the identifier part right before or after it (`FLT` of `FLT_EPSILON`), a version
 * number right after it (`Valgrind-3.19.0`). Looked for only there, not along the whole line.
 */
export function joinedParts(lower: string, camel: string, terms: Term[], joinable: number[], out: Occurrence[]): void {
  // Only the occurrences found before this call are looked next to (what it adds goes after them).
  const n = out.length;
  let shortened = false;
  for (const term of joinable) {
    const t = terms[term]!;
    if (t.joinedShort) shortened = true;
    if (!t.size && !t.version) continue;
    for (let k = 0; k < n; k++) {
      const p = out[k]!;
      if (terms[p.term]!.kind !== "concept" || terms[p.term]!.concept === t.concept) continue;
      if (t.size) {
        const m = BYTE_SIZE.exec(lower);
        if (m) out.push(numberAt(term, m.index, m.index + m[0].length));
        break;
      }
      let j = p.end;
      while (j < lower.length && j - p.end < 3 && isVersionJoiner(lower.charCodeAt(j))) j++;
      const m = j > p.end ? VERSION_NUMBER.exec(lower.slice(j, j + 64)) : null;
      if (m && !isWordChar(lower.charCodeAt(j + m[0].length))) out.push(numberAt(term, j, j + m[0].length));
    }
  }
  if (!shortened) return;
  for (let k = 0; k < n; k++) {
    const p = out[k]!;
    if (terms[p.term]!.kind !== "concept") continue;
    // The part after: past one or two joiners, to the next word end or camelCase edge.
    let a = p.end;
    while (a < lower.length && a - p.end < 2 && isPartJoiner(lower.charCodeAt(a))) a++;
    let b = a;
    if (a > p.end)
      while (b < lower.length && b - a <= MAX_SHORT && isWordChar(lower.charCodeAt(b)) && (b === a || !wordStart(camel, b))) b++;
    // The part before: back over one or two joiners, to its word start.
    let e = p.at;
    while (e > 0 && p.at - e < 2 && isPartJoiner(lower.charCodeAt(e - 1))) e--;
    let d = e;
    if (e < p.at) while (d > 0 && e - d <= MAX_SHORT && isWordChar(lower.charCodeAt(d - 1)) && !wordStart(camel, d)) d--;
    const after = b - a >= MIN_SHORT && b - a <= MAX_SHORT ? lower.slice(a, b) : null;
    const before = e - d >= MIN_SHORT && e - d <= MAX_SHORT && wordStart(camel, d) ? lower.slice(d, e) : null;
    if (!after && !before) continue;
    for (const term of joinable) {
      const forms = terms[term]!.joinedShort;
      if (!forms || terms[p.term]!.concept === terms[term]!.concept) continue;
      if (after && forms.has(after)) out.push(shortAt(lower, term, a, b));
      if (before && forms.has(before)) out.push(shortAt(lower, term, d, e));
    }
  }
}

/** A version number or a size standing for the word that asks for it. */
function numberAt(term: number, at: number, end: number): Occurrence {
  return { term, at, end, whole: false, exact: false, key: false, zero: false, loose: true, joined: true };
}

function shortAt(lower: string, term: number, at: number, end: number): Occurrence {
  return {
    term,
    at,
    end,
    whole: wholeToken(lower, at, end),
    exact: false,
    key: isKey(lower, at, end),
    zero: false,
    loose: true,
    short: true,
    joined: true,
  };
}
