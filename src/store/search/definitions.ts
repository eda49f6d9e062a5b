/**
 * On long rows (minified CSS and JS), the best place often uses a name the text defines
 * elsewhere: `transition-duration:var(--x-duration)` uses `--x-duration:294ms`,
 * `this.options.sourceType` reads `sourceType:"script"`. The definition holds the value asked
 * about, so for the best places on long rows, each name they use that holds a word of the query
 * is looked up as a key given a literal value (`name:40`, `name="x"`) on the region's long rows,
 * and its first definition becomes a place of its own, ranked right after the place that uses it.
 */
import type { Term } from "./lines.ts";
import { LONG_LINE, lowerRow, type Region, type Scan } from "./scan.ts";
import type { Anchor } from "./score.ts";

/** Places whose names are looked up, best first. */
const USERS = 3;
/** A definition ranks this close below the place that uses it. */
const AFTER_USE = 0.97;
/** Names shorter than this say too little to be looked up. */
const MIN_NAME = 3;

/** A character of a name in CSS or JS: letters, digits, `_`, `$`, `-`. */
const isNameChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c === 45;

/** [at, end) of a row widened to the whole names it cuts into. */
export function nameAround(row: string, at: number, end: number): [number, number] {
  let a = at;
  let b = end;
  while (a > 0 && isNameChar(row.charCodeAt(a - 1))) a--;
  while (b < row.length && isNameChar(row.charCodeAt(b))) b++;
  return [a, b];
}

/** The names in [at, end) of a lower-cased row that hold one of `needles` (each once). */
function namesIn(lower: string, at: number, end: number, needles: string[]): { name: string; at: number }[] {
  const out: { name: string; at: number }[] = [];
  const seen = new Set<string>();
  let i = Math.max(0, at);
  // Start at the beginning of a name the place cuts into.
  while (i > 0 && isNameChar(lower.charCodeAt(i - 1))) i--;
  while (i < end) {
    if (!isNameChar(lower.charCodeAt(i))) {
      i++;
      continue;
    }
    const from = i;
    while (i < lower.length && isNameChar(lower.charCodeAt(i))) i++;
    const name = lower.slice(from, i);
    if (name.length >= MIN_NAME && /[a-z]/.test(name) && !seen.has(name) && needles.some((n) => name.includes(n))) {
      seen.add(name);
      out.push({ name, at: from });
    }
  }
  return out;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Whether a literal value starts at j: a number (`40`, `-1.5`, `294ms`), a string, a colour
 * (`#dc3545`), a minified boolean (`!0`), or a bare word the value ends with (`none;`, `null,`);
 * not another name's value or a call (`var(--x)`, `n(13)`), which says where the value is, not what.
 */
function literalAt(lower: string, j: number): boolean {
  const c = lower.charCodeAt(j);
  if (isDigit(c) || c === 34 || c === 39 || c === 96 || c === 35 || c === 33) return true;
  if ((c === 45 || c === 43 || c === 46) && isDigit(lower.charCodeAt(j + 1))) return true;
  let k = j;
  while (k < lower.length && isNameChar(lower.charCodeAt(k))) k++;
  return k > j && (k === lower.length || ";,})]".includes(lower[k]!));
}

/** What may follow a defined name before its value: `:` or `=`, after a closing quote or not. */
const GIVERS = [":", "=", '":', "':", '"=', "'="];

/** Where `name` is given a literal value on a lower-cased row (`name:40`, `name="x"`, not `name==`, `name://`), from `from` on; -1 when it is not. */
export function definitionOf(lower: string, name: string, from = 0): number {
  let best = -1;
  for (const giver of GIVERS) {
    const needle = name + giver;
    for (let i = lower.indexOf(needle, from); i !== -1 && (best < 0 || i < best); i = lower.indexOf(needle, i + 1)) {
      if (i > 0 && isNameChar(lower.charCodeAt(i - 1))) continue;
      const j = i + needle.length;
      const c = lower[j];
      if (giver.endsWith(":") && (c === "/" || c === ":")) continue;
      if (giver.endsWith("=") && c === "=") continue;
      if (literalAt(lower, j)) {
        best = i;
        break;
      }
    }
  }
  return best;
}

/** Names a place is looked up by, at most. */
const MAX_NAMES = 4;

/** A region of a text with its scan and its places so far (a definition found in it is added to `anchors`). */
export type DefinitionPart = { region: Region; scan: Scan; anchors: Anchor[] };

/** The long rows of a region that hold some term (a definition's name holds a word of the query). */
function longRowsOf(part: DefinitionPart): number[] {
  return part.region.rows.flatMap((row, r) => (row.length > LONG_LINE && part.scan.found[r]!.length > 0 ? [r] : []));
}

/** Where a name is defined: a region, its row and the name's place on it. */
type Found = { part: DefinitionPart; r: number; d: number };

/**
 * The regions of one text and what has been looked up in them: each region's long rows that hold
 * a term, and each name's definition (null: none), found once however many places use it.
 */
export type TextDefinitions = { parts: DefinitionPart[]; longRows: Map<DefinitionPart, number[]>; known: Map<string, Found | null> };

export function textDefinitions(parts: DefinitionPart[]): TextDefinitions {
  return { parts: parts.filter((p) => !p.region.json), longRows: new Map(), known: new Map() };
}

/** The first definition of a name on the long rows of the text's regions, the region `own` first. */
function definitionIn(text: TextDefinitions, name: string, own: DefinitionPart): Found | null {
  const seen = text.known.get(name);
  if (seen !== undefined) return seen;
  let found: Found | null = null;
  for (const part of [own, ...text.parts.filter((p) => p !== own)]) {
    let rows = text.longRows.get(part);
    if (!rows) {
      rows = longRowsOf(part);
      text.longRows.set(part, rows);
    }
    for (const r of rows) {
      const d = definitionOf(lowerRow(part.region, r), name);
      if (d >= 0) {
        found = { part, r, d };
        break;
      }
    }
    if (found) break;
  }
  text.known.set(name, found);
  return found;
}

/**
 * The definitions of the names the best places on long rows of `own` use, as places: looked for
 * on that region's long rows, then on the other regions of the same text (a minified file's one
 * line is many chunks: the definitions are often in another part of it than their uses). A name
 * no region defines is put in `missing` with its best user's score (the caller may read more of
 * the text for it). Not for JSON: its keys name its objects.
 */
export function withDefinitions(text: TextDefinitions, own: DefinitionPart, terms: Term[], missing?: Map<string, number>): void {
  const { region } = own;
  if (region.json) return;
  const { rows } = region;
  const users = own.anchors
    .filter((a) => rows[a.row]!.length > LONG_LINE)
    .sort((a, b) => b.score - a.score)
    .slice(0, USERS);
  if (users.length === 0) return;
  const needles = [...new Set(terms.flatMap((t) => (t.kind === "concept" ? [t.forms[0]!] : t.kind === "ident" ? [t.parts[0]!] : [])))];
  const placed = new Set<Found>();
  for (const use of users) {
    const lower = lowerRow(region, use.row);
    for (const { name, at } of namesIn(lower, use.at, use.end, needles).slice(0, MAX_NAMES)) {
      // The place defines the name itself: nothing to look up.
      if (definitionOf(lower, name, at) === at) continue;
      const found = definitionIn(text, name, own);
      if (!found) {
        if (missing) missing.set(name, Math.max(missing.get(name) ?? 0, use.score));
        continue;
      }
      if (placed.has(found)) continue;
      placed.add(found);
      const { part, r, d } = found;
      const score = use.score * AFTER_USE;
      const there = part.anchors.find((a) => a.row === r && a.at <= d && d < Math.max(a.end, a.at + 1));
      if (there) there.score = Math.max(there.score, score);
      else part.anchors.push({ row: r, at: d, end: d + name.length, score, suppliers: [], record: null, complete: use.complete });
    }
  }
}
