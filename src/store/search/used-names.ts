/**
 * On short rows, the best places often use, in their value, a name the query names and the text
 * defines on a row of its own: `relay_domains = $mydestination` uses `mydestination = a, b`, a
 * help line mentions `innodb_log_file_size` that an options table lists. The row that defines the
 * name (its key is the name, key-name.ts) holds what the name is; it becomes a place of its own,
 * ranked right after the place that uses it (as definitions.ts does on long rows).
 */

import { keyOf } from "./key-name.ts";
import type { Term } from "./lines.ts";
import { isWordChar } from "./occurrence.ts";
import { LONG_LINE, lowerRow, type Region, type Scan } from "./scan.ts";
import type { Anchor } from "./score.ts";

/** Places whose names are looked up, best first. */
const USERS = 3;
/** A definition ranks this close below the place that uses it. */
const AFTER_USE = 0.97;
/** Names shorter than this say too little to be looked up. */
const MIN_NAME = 4;

/** A character of a name: letters, digits, `_`, `-`, `.`. */
const isNameChar = (c: number) => isWordChar(c) || c === 95 || c === 45 || c === 46;

/** The whole name around [at, end) of a lower-cased row, without the dots or dashes it ends with. */
function nameAt(lower: string, at: number, end: number): [number, number] {
  let a = at;
  let b = end;
  while (a > 0 && isNameChar(lower.charCodeAt(a - 1))) a--;
  while (b < lower.length && isNameChar(lower.charCodeAt(b))) b++;
  while (a < b && !isWordChar(lower.charCodeAt(a))) a++;
  while (b > a && !isWordChar(lower.charCodeAt(b - 1))) b--;
  return [a, b];
}

/** The anchors with the rows that define the names the best places on short rows use in their values. */
export function withUsedNames(region: Region, terms: Term[], scan: Scan, anchors: Anchor[]): Anchor[] {
  const { rows } = region;
  // The best few on short rows, best first (equal ones in their order): one pass, no sort of every place.
  const users: Anchor[] = [];
  for (const a of anchors) {
    if (rows[a.row]!.length > LONG_LINE || (users.length === USERS && a.score <= users[USERS - 1]!.score)) continue;
    let k = users.length;
    while (k > 0 && users[k - 1]!.score < a.score) k--;
    users.splice(k, 0, a);
    if (users.length > USERS) users.pop();
  }
  if (users.length === 0) return anchors;
  // Only the names that say what the query is about: its identifiers and its rarest word (a common
  // word of it, `calls`, is some column's or field's name too, and that row is its legend, not an answer).
  const strongest = Math.max(0, ...terms.map((t) => (t.kind === "concept" ? t.weight : 0)));
  const naming = (t: Term) => t.kind === "ident" || (t.kind === "concept" && t.weight >= strongest);
  let out = anchors;
  const placed = new Set<number>();
  const looked = new Set<string>();
  for (const use of users) {
    const lower = lowerRow(region, use.row);
    const key = keyOf(lower);
    for (const o of scan.found[use.row]!) {
      const t = terms[o.term]!;
      // A name the query names as one term: not a word of a longer name, not in the row's own key.
      if (!naming(t) || (key && o.at < key[1])) continue;
      const [a, b] = nameAt(lower, o.at, o.end);
      if (a !== o.at || b !== o.end || b - a < MIN_NAME) continue;
      const name = lower.slice(a, b);
      if (looked.has(name)) continue;
      looked.add(name);
      const { has, n } = scan;
      for (let r = 0; r < n; r++) {
        if (r === use.row || has[o.term * n + r] !== 1) continue;
        const own = lowerRow(region, r);
        const k = keyOf(own);
        if (!k || own.slice(k[0], k[1]) !== name) continue;
        if (!placed.has(r)) {
          placed.add(r);
          const score = use.score * AFTER_USE;
          const there = out.find((x) => x.row === r);
          if (there) {
            if (score > there.score) Object.assign(there, { score, complete: there.complete || use.complete });
          } else {
            if (out === anchors) out = [...anchors];
            out.push({ row: r, at: k[0], end: k[1], score, suppliers: [], record: null, complete: use.complete });
          }
        }
        break;
      }
    }
  }
  return out;
}
