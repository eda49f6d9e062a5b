/**
 * The name a row defines: the key of a `name: value`, `name = value`, `"name": value` row, or the
 * first column of an aligned `name<TAB>value` / `name   value` row. A row whose key is nothing but
 * the query's terms (`bytes_used` for "bytes used") defines what was asked about; a row whose key
 * merely holds them (`backup_bytes_used`) names something else, and a row that only mentions them
 * in its value uses the name.
 */
import { isWordChar, type Occurrence, type Term } from "./occurrence.ts";

/** What may lead a key on its row: indentation, an option's dashes, a quote, a variable's sigil. */
const isLead = (c: number) => c === 32 || c === 9 || c === 45 || c === 34 || c === 39 || c === 36 || c === 64;
/** What may stand inside a key between its words: `_` `-` `.`. */
const isInner = (c: number) => c === 95 || c === 45 || c === 46;
/** Quotes and brackets that close a key before its `:` or `=`. */
const isCloser = (c: number) => c === 34 || c === 39 || c === 96 || c === 41 || c === 93;

/** [start, end) of the key a lower-cased row defines, or null when the row is not a `key value` row. */
export function keyOf(lower: string): [number, number] | null {
  let i = 0;
  while (i < lower.length && isLead(lower.charCodeAt(i))) i++;
  let j = i;
  while (j < lower.length && (isWordChar(lower.charCodeAt(j)) || isInner(lower.charCodeAt(j)))) j++;
  // A key ends with a word character (`name.` is a sentence's word, `name-` a range).
  while (j > i && !isWordChar(lower.charCodeAt(j - 1))) j--;
  if (j === i) return null;
  let k = j;
  while (k < lower.length && isCloser(lower.charCodeAt(k))) k++;
  const gap = k;
  while (k < lower.length && (lower.charCodeAt(k) === 32 || lower.charCodeAt(k) === 9)) k++;
  if (k >= lower.length) return null;
  const c = lower[k];
  const next = lower[k + 1];
  if (c === ":" && next !== "/" && next !== ":") return [i, j];
  if (c === "=" && next !== "=") return [i, j];
  // An aligned column: a tab or at least two spaces between the name and its value.
  const space = lower.slice(gap, k);
  return gap === j && (space.includes("\t") || space.length >= 2) ? [i, j] : null;
}

/**
 * Whether every letter and digit of the row's key is inside one of the occurrences (the key is the
 * query's terms and nothing else) and the key is a name of several words (`bytes_used`,
 * `innodb-buffer-pool-size`): a one-word key (`tuples:`) is a field every record repeats, not a name.
 */
export function keyIsTerms(lower: string, place: Occurrence[], terms: Term[]): boolean {
  // The key's first term is a key occurrence (the row's first word, or before `:`/`=`): most rows have none.
  if (!place.some((o) => o.key)) return false;
  const key = keyOf(lower);
  if (!key) return false;
  const [from, to] = key;
  const inKey = place.filter((o) => o.at < to && o.end > from);
  if (inKey.length === 0) return false;
  const words = new Set<number>();
  for (const o of inKey) {
    const t = terms[o.term]!;
    if (t.kind !== "concept" || t.parts.length > 1) words.add(-1 - o.term);
    words.add(o.term);
  }
  if (words.size < 2) return false;
  for (let p = from; p < to; p++) {
    if (!isWordChar(lower.charCodeAt(p))) continue;
    if (!inKey.some((o) => o.at <= p && p < o.end)) return false;
  }
  return true;
}
