/**
 * The records of a stretch of output, from its layout alone: blocks between blank lines (a
 * package stanza, an error report), indentation (a line owns the more-indented lines under it:
 * a traceback's frames, a JSON or YAML object, a table row's second line), headings (a line
 * framed or led by a run of `=`, `_`, `-`, `#` ...: a test report's sections, a patch's files).
 * A prefix nearly every line starts with (`==4242==`, a process name) is set aside first, so a
 * line holding only it counts as blank. Columns aligned to the right are not nesting. A rule
 * row (`---`) between records counts as blank too; one under a table's column names makes them
 * the header of the rows below.
 */

export type Structure = {
  /** Indentation of each row after the shared prefix; -1 for a blank row. */
  indent: Int32Array;
  /** First and last row of each row's block between blank rows. */
  paraStart: Int32Array;
  paraEnd: Int32Array;
  /** Whether the block really starts at paraStart (a blank row or the text's start is before it). */
  paraWhole: Uint8Array;
  /** The nearest row above, in the same block, that is less indented (-1: none). */
  owner: Int32Array;
  /** The last row of the lines each row owns (itself when it owns none). */
  childEnd: Int32Array;
  /** The nearest heading at or above each row (-1: none), and where its section ends. */
  heading: Int32Array;
  sectionEnd: Int32Array;
  /**
   * Where the labelled record each row starts ends, or -1 (labelRecords): a line at the margin
   * after a blank line, ending with a colon, that starts as another such line does.
   */
  labelEnd: Int32Array;
  /** Whether each row is a rule under a table's column names (0: not asked yet, 1: no, 2: yes), filled as headersOf asks. */
  underline?: Int8Array;
};

/** A record larger than this is not shown whole: only around its matches, with its head. */
export const MAX_RECORD = 40;

const HEADING = /^(?:[=_\-*#~+@]{2,}\s+\S|\S.*?\s[=_\-*#~]{3,}\s*$)/;
/** Characters a heading starts or ends with (a cheap test before the pattern): `= _ - * # ~ + @`. */
const isRuleChar = (c: number) => c === 61 || c === 95 || c === 45 || c === 42 || c === 35 || c === 126 || c === 43 || c === 64;

/** Whether a character is white space as `\s` in a pattern reads it (and as `trim` does). */
export function isSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The run of non-space characters a row starts with (`^\S+`), or "" when it starts with space or is empty. */
function firstToken(row: string): string {
  let end = 0;
  while (end < row.length && !isSpace(row.charCodeAt(end))) end++;
  return row.slice(0, end);
}

/** Whether row starts with `token` as its whole first token (`^\S+` is `token`). */
function startsWithToken(row: string, token: string): boolean {
  return row.startsWith(token) && (row.length === token.length || isSpace(row.charCodeAt(token.length)));
}

/**
 * The first token most rows start with, when at least 60% of the non-blank rows do (a shared
 * prefix). Such a token is most of the rows' first tokens, so it is the one a majority vote
 * leaves (Boyer-Moore), counted again to know; no token is cut out of a row but the vote's.
 */
function sharedPrefix(rows: string[]): string {
  let nonBlank = 0;
  let best = "";
  let votes = 0;
  const step = Math.max(1, Math.floor(rows.length / 200));
  for (let r = 0; r < rows.length; r += step) {
    const row = rows[r]!;
    if (row.length === 0 || isSpace(row.charCodeAt(0))) continue;
    nonBlank++;
    if (votes > 0 && startsWithToken(row, best)) votes++;
    else if (votes > 0) votes--;
    else {
      best = firstToken(row);
      votes = 1;
    }
  }
  if (nonBlank < 3) return "";
  let n = 0;
  for (let r = 0; r < rows.length; r += step) if (startsWithToken(rows[r]!, best)) n++;
  return n >= 0.6 * nonBlank && n >= 3 && best.length <= 40 ? best : "";
}

const isDigit = (c: number) => c >= 48 && c <= 57;
/** The characters a number goes on with after its first digit: digits and `.,:%`. */
const inNumber = (c: number) => isDigit(c) || c === 46 || c === 44 || c === 58 || c === 37;

/** Where a row's first token ends, when it is a number (`  42`, `3.5%`, `1,024`: `[+-]?\d[\d.,:%]*`): -1 when it is not. */
function numberEnd(body: string, indent: number): number {
  let i = indent;
  const sign = body.charCodeAt(i);
  if (sign === 43 || sign === 45) i++;
  if (!isDigit(body.charCodeAt(i))) return -1;
  i++;
  while (i < body.length && body.charCodeAt(i) > 32) {
    if (!inNumber(body.charCodeAt(i))) return -1;
    i++;
  }
  return i;
}

/** Column where the second token of a row starts (-1 when it has one token). */
function secondColumn(body: string, indent: number): number {
  let i = indent;
  while (i < body.length && body.charCodeAt(i) > 32) i++;
  while (i < body.length && (body.charCodeAt(i) === 32 || body.charCodeAt(i) === 9)) i++;
  return i < body.length ? i : -1;
}

/** Tab stops every this many columns, as terminals and `expand` set them. */
const TAB = 8;

/** The column a row's first non-space character is at (`i` characters in), a tab moving to the next tab stop. */
function columnOf(body: string, i: number): number {
  let col = 0;
  for (let k = 0; k < i; k++) col = body.charCodeAt(k) === 9 ? col - (col % TAB) + TAB : col + 1;
  return col;
}

/** A record's label line is at most this long. */
const MAX_LABEL = 200;

/**
 * Labelled records: a line at the margin after a blank line (or at the text's start), ending with
 * a colon, whose first token (a word) starts another such line, heads the lines after it, blank
 * lines and all, up to the next such line with that token, the last one to the end of the rows
 * read (`Disassembly of <code object f>:`, then its blocks of instructions, each after a blank
 * line, to `Disassembly of <code object g>:`). Each row's record end, or -1.
 */
function labelRecords(rows: string[], bodyOf: (r: number) => string, indent: Int32Array, lead: Int32Array): Int32Array {
  const n = rows.length;
  const end = new Int32Array(n).fill(-1);
  const byToken = new Map<string, number[]>();
  for (let r = 0; r < n; r++) {
    if (indent[r] !== 0 || (r > 0 && indent[r - 1]! >= 0)) continue;
    const body = bodyOf(r);
    if (body.length > MAX_LABEL || body.trimEnd().at(-1) !== ":") continue;
    const token = firstToken(body.slice(lead[r]!));
    if (!/^\p{L}/u.test(token)) continue;
    const list = byToken.get(token);
    if (list) list.push(r);
    else byToken.set(token, [r]);
  }
  for (const list of byToken.values()) {
    if (list.length < 2) continue;
    list.forEach((r, i) => {
      let last = (list[i + 1] ?? n) - 1;
      while (last > r && indent[last]! < 0) last--;
      end[r] = last;
    });
  }
  return end;
}

/** Work arrays of structureOf that do not outlive a call, kept for the next (grown as needed). */
let scratch = new Int32Array(0);
const NOT_YET = -2;

export function structureOf(rows: string[], startsText: boolean): Structure {
  const n = rows.length;
  const prefix = sharedPrefix(rows);
  /** A row without the shared prefix (and the space after it). */
  const bodyOf = (r: number) => {
    const row = rows[r]!;
    return prefix && row.startsWith(prefix) && (row.length === prefix.length || row.charCodeAt(prefix.length) <= 32)
      ? row.slice(prefix.length + 1)
      : row;
  };
  const indent = new Int32Array(n);
  /** Where each row's first non-space character is, in characters (indent is in columns). */
  const lead = new Int32Array(n);
  const isHeading = new Uint8Array(n);
  if (scratch.length < 5 * n) scratch = new Int32Array(Math.max(5 * n, 2 * scratch.length));
  // Where each row's second token starts and its leading number ends (secondColumn, numberEnd):
  // asked only of a row more indented than the one it would nest under, and of that one.
  const col2 = scratch.subarray(0, n).fill(NOT_YET);
  const numEnd = scratch.subarray(n, 2 * n);
  const columnsOf = (r: number) => {
    if (col2[r] !== NOT_YET) return;
    const body = bodyOf(r);
    col2[r] = secondColumn(body, lead[r]!);
    numEnd[r] = numberEnd(body, lead[r]!);
  };
  for (let r = 0; r < n; r++) {
    const body = bodyOf(r);
    let i = 0;
    while (i < body.length && body.charCodeAt(i) <= 32) i++;
    let last = body.length - 1;
    while (last >= i && body.charCodeAt(last) <= 32) last--;
    const blank = i >= body.length;
    lead[r] = i;
    indent[r] = blank ? -1 : columnOf(body, i);
    const ruled = !blank && (isRuleChar(body.charCodeAt(i)) || isRuleChar(body.charCodeAt(last)));
    isHeading[r] = ruled && body.length < 400 && HEADING.test(body.slice(i)) ? 1 : 0;
  }
  // A row of rule characters alone, not indented under the row above, and much wider or narrower
  // than it, separates records (`---` between two packages' stanzas): it ends a block as a blank
  // row does. One about as wide as the row above underlines it (a table's column names, a
  // title): headersOf finds it. One indented under a row is the row's (a TAP report's `  ---`).
  for (let r = 1; r < n; r++)
    if (indent[r]! >= 0 && indent[r]! <= Math.max(0, indent[r - 1]!) && isRule(rows[r]!) && !underlines(rows, r)) indent[r] = -1;
  const paraStart = new Int32Array(n);
  const paraEnd = new Int32Array(n);
  const paraWhole = new Uint8Array(n);
  const owner = new Int32Array(n).fill(-1);
  const childEnd = new Int32Array(n);
  const heading = new Int32Array(n).fill(-1);
  const sectionEnd = new Int32Array(n).fill(n - 1);

  // Blocks between blank rows, and nesting by indentation inside each block.
  let start = 0;
  // The rows open above (a stack of `depth`): each row, the level it nests at (lowered for a
  // right-aligned column), and where it really starts.
  const stackRow = scratch.subarray(2 * n, 3 * n);
  const stackLevel = scratch.subarray(3 * n, 4 * n);
  const stackReal = scratch.subarray(4 * n, 5 * n);
  let depth = 0;
  const closeAll = (end: number) => {
    for (let k = 0; k < depth; k++) childEnd[stackRow[k]!] = end;
    depth = 0;
  };
  let lastNonBlank = -1;
  /** Rows start..end-1 are one block. */
  const endBlock = (end: number) => {
    for (let k = start; k < end; k++) {
      paraStart[k] = start;
      paraEnd[k] = Math.max(start, lastNonBlank);
      paraWhole[k] = start > 0 || startsText ? 1 : 0;
    }
  };
  for (let r = 0; r <= n; r++) {
    if (r === n || indent[r]! < 0) {
      // A blank row ends the block, not the nesting: a more-indented row after it still belongs
      // to the row above (an error's message with an empty line in it, a description's second paragraph).
      if (r === n) closeAll(lastNonBlank);
      endBlock(r);
      if (r < n) {
        paraStart[r] = r;
        paraEnd[r] = r;
        childEnd[r] = r;
      }
      start = r + 1;
      continue;
    }
    // Right-aligned columns (`   size_t Name` over `     bool Name`, `    1 root` under `12577 root`) are siblings, not children.
    let level = indent[r]!;
    if (depth > 0 && level > stackLevel[depth - 1]!) {
      const prev = stackRow[depth - 1]!;
      columnsOf(r);
      columnsOf(prev);
      const aligned = (col2[r]! >= 0 && col2[r] === col2[prev]) || (numEnd[r]! >= 0 && numEnd[r] === numEnd[prev]);
      if (aligned) level = stackLevel[depth - 1]!;
    }
    // A row starting where a right-aligned one does is its sibling too (a table's rows under its header).
    while (depth > 0 && (stackLevel[depth - 1]! >= level || stackReal[depth - 1] === indent[r]))
      childEnd[stackRow[--depth]!] = lastNonBlank;
    owner[r] = depth > 0 ? stackRow[depth - 1]! : -1;
    stackRow[depth] = r;
    stackLevel[depth] = level;
    stackReal[depth] = indent[r]!;
    depth++;
    lastNonBlank = r;
  }
  // Sections: from a heading to the next one.
  let current = -1;
  for (let r = 0; r < n; r++) {
    if (isHeading[r]) {
      if (current >= 0) sectionEnd[current] = r - 1;
      current = r;
    }
    heading[r] = current;
  }
  for (let r = 0; r < n; r++) if (heading[r]! >= 0) sectionEnd[r] = sectionEnd[heading[r]!]!;
  const labelEnd = labelRecords(rows, bodyOf, indent, lead);
  return { indent, paraStart, paraEnd, paraWhole, owner, childEnd, heading, sectionEnd, labelEnd };
}

/**
 * The records holding row r, smallest first: the lines it owns, its siblings under its owner,
 * its section, its block; those of a single row or longer than `max` rows left out.
 */
export function recordsOf(s: Structure, r: number, max = MAX_RECORD): [number, number][] {
  const options: [number, number][] = [];
  if (s.childEnd[r]! > r) options.push([r, s.childEnd[r]!]);
  const o = s.owner[r]!;
  if (o >= 0) options.push([o, s.childEnd[o]!]);
  const h = s.heading[r]!;
  if (h >= 0) options.push([h, s.sectionEnd[r]!]);
  if (s.paraWhole[r]) options.push([s.paraStart[r]!, s.paraEnd[r]!]);
  return options.filter(([a, b]) => b - a + 1 >= 2 && b - a + 1 <= max).sort((x, y) => x[1] - x[0] - (y[1] - y[0]));
}

/** The smallest record holding row r that is worth showing whole (null when none is). */
export function recordOf(s: Structure, r: number, max = MAX_RECORD): [number, number] | null {
  // recordsOf's first, without building the list: the smallest, the first of equal ones.
  // A label line's record is what it labels, when that is worth showing whole.
  const label = s.labelEnd[r]!;
  if (label > r && label - r + 1 <= max) return [r, label];
  let best: [number, number] | null = null;
  const consider = (a: number, b: number) => {
    const size = b - a + 1;
    if (size >= 2 && size <= max && (!best || size < best[1] - best[0] + 1)) best = [a, b];
  };
  if (s.childEnd[r]! > r) consider(r, s.childEnd[r]!);
  const o = s.owner[r]!;
  if (o >= 0) consider(o, s.childEnd[o]!);
  const h = s.heading[r]!;
  if (h >= 0) consider(h, s.sectionEnd[r]!);
  if (s.paraWhole[r]) consider(s.paraStart[r]!, s.paraEnd[r]!);
  return best;
}

/**
 * The rows that name the records row r is in: its owners up the indentation, the first row of
 * its block (and of its siblings: a table's header), its section's heading. Nearest first.
 */
export function headersOf(s: Structure, r: number, rows: string[]): number[] {
  const out: number[] = [];
  const add = (k: number) => {
    if (k >= 0 && k !== r && k < rows.length && s.indent[k]! >= 0 && rows[k]!.length <= 400 && !out.includes(k)) out.push(k);
  };
  for (let o = s.owner[r]!, depth = 0; o >= 0 && depth < 6; o = s.owner[o]!, depth++) add(o);
  const o = s.owner[r]!;
  // The first of its siblings, and what that one owns (a header split over two lines).
  // A table's header is in the row's own block, not in one before a blank line: when its owner is
  // above that block, the block's first row.
  const block = s.paraWhole[r] ? s.paraStart[r]! : -1;
  const first = o >= 0 && o + 1 >= s.paraStart[r]! ? o + 1 : block;
  if (first >= 0 && first < r) {
    add(first);
    if (s.childEnd[first]! > first && s.childEnd[first]! < r && s.childEnd[first]! - first <= 2)
      for (let k = first + 1; k <= s.childEnd[first]!; k++) add(k);
    // A title over the columns' names (`Sections:` over `Idx Name Size`): the row under it too.
    else if (first + 1 < r && s.owner[first + 1] === s.owner[first] && rows[first]!.trimEnd().endsWith(":")) add(first + 1);
  }
  add(s.heading[r]!);
  // A table's column names over a rule (`Event Type  Count` over `=====`, `status  n` over
  // `------  --`): the nearest such rule above the row, in its block.
  // Asked of the same rows for every row below them: each answer is kept with the structure.
  if (!s.underline) s.underline = new Int8Array(rows.length);
  const underline = s.underline;
  for (let k = r - 1; k > 0 && k >= r - HEADER_REACH && s.indent[k]! >= 0; k--) {
    if (underline[k] === 0) underline[k] = isRule(rows[k]!) && underlines(rows, k) ? 2 : 1;
    if (underline[k] === 2) {
      add(k - 1);
      break;
    }
  }
  return out;
}

/** Rows above a table's row its column names are looked for in. */
const HEADER_REACH = 2 * MAX_RECORD;

/** Whether rule row r underlines the row above it: that one is not blank, not a rule, and about as wide. */
function underlines(rows: string[], r: number): boolean {
  const above = rows[r - 1]!.trim().length;
  return above > 0 && Math.abs(rows[r]!.trim().length - above) <= Math.max(3, above / 4) && !isRule(rows[r - 1]!);
}

/** A row of only rule characters and spaces (`=====`, `---- ------`, `+----+----+`), at least three of them. */
export function isRule(row: string): boolean {
  let marks = 0;
  for (let i = 0; i < row.length; i++) {
    const c = row.charCodeAt(i);
    if (c === 61 || c === 45 || c === 95 || c === 43 || c === 124 || c === 126 || c === 42) marks++;
    else if (!isSpace(c)) return false;
  }
  return marks >= 3;
}
