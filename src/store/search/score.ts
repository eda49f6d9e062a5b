/**
 * How well each place in the candidate text answers the query. A place is a line, or a stretch
 * of a long line (minified code, one-line JSON: each stretch holding the terms is its own place).
 * A term counts fully on the place itself (more as a whole token or a key), less on the lines
 * that name its records (an owner, a block's first line, a table's header, a section heading),
 * less again elsewhere in its record, so the line that holds the rare terms, inside the record
 * whose name holds the rest, wins over lines that merely mention them. Rare terms weigh more,
 * every concept covered counts before how rare they are, and concepts written next to each
 * other (`border-radius-lg`, `"boto3", "version"`) count again.
 */
import { contractionForms, prefixForms } from "./abbreviations.ts";
import { type ObjectNames, objectNames } from "./json-line.ts";
import { keyIsTerms } from "./key-name.ts";
import { adjacentPairs, makeTerm, type Occurrence, type Term } from "./lines.ts";
import { contentConcepts, isStopWord, type ParsedQuery } from "./query.ts";
import { LONG_LINE, lowerRow, type Region, type Scan } from "./scan.ts";
import { headersOf, recordOf } from "./structure.ts";

/** A place on a long line: terms at most this far apart belong together. */
const STRETCH_SPAN = 160;
/** Places looked at on one long line. */
const MAX_PLACES = 300;

const LEVEL_HEADER = 0.8;
const LEVEL_RECORD = 0.5;
const LEVEL_SAME_LINE = 0.3;
/** Rows of a record a term is looked for in when it is too long to show whole (draft.ts grows a hit that far too). */
const REACH = 120;
/** What a count next to a query word adds to a place when the query asks how many. */
const COUNTED = 1.3;
/** What a place is worth more when its record's first row holds what the query names. */
const OWNED = 1.3;
/** What a place is worth more when the row's key is the query's terms and nothing else (key-name.ts): the row defines what was asked about. */
const DEFINES = 1.3;
/** The words that ask for a version number. */
const VERSION_WORDS = new Set(["version", "versions"]);
/** The words that ask for a size in bytes. */
const SIZE_WORDS = new Set(["size", "sizes"]);
/** What each repeat of a term on a row, as a whole token, adds to its place (a tie-break: far less than any other difference). */
const REPEATED = 0.02;
const MAX_REPEATS = 2;
/** What an occurrence that starts a token (not whole: `errno@@GLIBC`) is worth, between a piece of a longer name (1) and a whole token. */
const HEAD = 1.25;

export type Anchor = {
  row: number;
  /** Where on the row the place starts and ends (a long row's stretch; else the strongest term). */
  at: number;
  end: number;
  score: number;
  /** Rows that hold the terms this row lacks (its record's name, a header), shown with it. */
  suppliers: number[];
  /** The record the row is in, when it is worth showing whole. */
  record: [number, number] | null;
  /** Every concept of the query is on the place, or on a line that names its record. */
  complete: boolean;
  /** On a long JSON row: what names the place's object (its fields to show, its key path), read when it is shown. */
  names?: ObjectNames;
};

/** The query's terms: its concepts, identifiers verbatim, and phrases (quoted, or the whole query). Weighed by `weighTerms`. */
export function termsFor(q: ParsedQuery): Term[] {
  const concepts = contentConcepts(q);
  // A short form counts only next to another word of the query: with one word, there is none.
  const joins = concepts.length > 1;
  const terms = concepts.map((c, i) =>
    makeTerm("concept", c.words, c.number, i, 1, c.short, joins && c.words.length === 1 && !c.number ? shortFormsOf(c.words[0]!) : []),
  );
  if (q.quantity) for (const t of terms) t.count = true;
  // The thing counted: a single word of the query.
  if (q.counted) for (const t of terms) if (t.parts.length === 1 && t.parts[0] === q.counted) t.countedThing = true;
  // "version" asks for a version number: one next to another word of the query says it (lines.ts).
  if (terms.length > 1) for (const t of terms) if (t.parts.length === 1 && VERSION_WORDS.has(t.parts[0]!)) t.version = true;
  // "size" asks for a size in bytes: one on a line with another word of the query says it (lines.ts).
  if (terms.length > 1) for (const t of terms) if (t.parts.length === 1 && SIZE_WORDS.has(t.parts[0]!)) t.size = true;
  for (const s of q.idents) terms.push(makeTerm("ident", [s], false, -1));
  const phrases = q.phrases.map((p) => p.text);
  // The query as typed, when it has several words: on one line it is the best answer there is.
  if (q.whole.includes(" ") && q.whole.length >= 6) phrases.push(q.whole);
  for (const p of new Set(phrases)) terms.push(makeTerm("phrase", [p], false, -1));
  return terms;
}

/** A word's clippings and contractions (abbreviations.ts), but for stop words. */
function shortFormsOf(word: string): string[] {
  return [...prefixForms(word), ...contractionForms(word)].filter((s) => !isStopWord(s));
}

/**
 * Weights from how rare each concept is among the rows looked at (inverse document frequency
 * over lines); identifiers and phrases weigh more than any concept.
 */
export function weighTerms(terms: Term[], scans: Scan[]): void {
  const n = Math.max(
    1,
    scans.reduce((s, x) => s + x.n, 0),
  );
  terms.forEach((t, i) => {
    if (t.kind !== "concept") return;
    let df = 0;
    for (const x of scans) for (let r = 0; r < x.n; r++) df += x.has[i * x.n + r]!;
    t.weight = Math.log(1 + n / (1 + df));
  });
  const concepts = terms.filter((t) => t.kind === "concept");
  const strongest = Math.max(1, ...concepts.map((t) => t.weight));
  const all = concepts.reduce((s, t) => s + t.weight, 0);
  for (const t of terms) {
    if (t.kind === "ident") t.weight = 2 * strongest;
    if (t.kind === "phrase") t.weight = 2 * strongest + all;
  }
}

/**
 * What an occurrence is worth: more as a whole token, written as in the query, as a key, near
 * the line's start (where a row's name is); a zero before it says there is none.
 */
const quality = (o: Occurrence) =>
  // A short form joined to another word of the query in one identifier says the word nearly as well as the word.
  (o.loose ? (o.joined ? 0.8 : 0.6) : 1) *
  (o.whole ? 1.5 : o.head ? HEAD : 1) *
  (o.exact ? 1.15 : 1) *
  (o.key ? 1.4 : 1) *
  (o.zero ? 0.25 : 1) *
  (o.leaf ? 1.1 : 1) *
  (1 + 0.2 * Math.max(0, 1 - o.at / 80));

/**
 * The places of a long row: around each occurrence of the term it holds fewest of, the nearest
 * occurrence of every other term (within a stretch), so a place is the tightest group of terms.
 */
function stretches(found: Occurrence[], terms: number, named?: (o: Occurrence) => Occurrence[]): Occurrence[][] {
  const byTerm: Occurrence[][] = Array.from({ length: terms }, () => []);
  for (const o of found) byTerm[o.term]!.push(o);
  for (const list of byTerm) list.sort((a, b) => a.at - b.at);
  const present = byTerm.filter((l) => l.length > 0).sort((a, b) => a.length - b.length);
  const longest = new Map(present.map((l) => [l, l.reduce((m, p) => Math.max(m, p.end - p.at), 0)]));
  const seen = new Set<string>();
  const out: Occurrence[][] = [];
  // Around each occurrence of the rarest term; on a JSON row, when it is in the name of an object,
  // around the other terms in that object too (the name may be kilobytes from them).
  const rarest = present[0]!;
  const seeds = new Set(rarest.slice(0, MAX_PLACES));
  if (named) for (const o of rarest) for (const x of named(o)) if (seeds.size < MAX_PLACES) seeds.add(x);
  for (const o of seeds) {
    const own = byTerm[o.term]!;
    const place = [o];
    for (const list of present) {
      if (list === own) continue;
      let best: Occurrence | null = null;
      let bestD = Number.POSITIVE_INFINITY;
      // The list is sorted by start (ends need not be: a loose match is longer): skip to the
      // first occurrence that could end within a stretch before o, stop a stretch after it.
      const from = o.at - STRETCH_SPAN - longest.get(list)!;
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid]!.at < from) lo = mid + 1;
        else hi = mid;
      }
      for (let k = lo; k < list.length && list[k]!.at <= o.end + STRETCH_SPAN; k++) {
        const p = list[k]!;
        const d = p.at >= o.at ? p.at - o.end : o.at - p.end;
        if (d <= STRETCH_SPAN && d < bestD) [best, bestD] = [p, d];
      }
      if (best) place.push(best);
    }
    place.sort((a, b) => a.at - b.at);
    const key = place.map((p) => `${p.term}@${p.at}`).join(",");
    if (!seen.has(key)) {
      seen.add(key);
      out.push(place);
    }
  }
  return out;
}

/** The places of a region, with their scores. */
export function scoreRegion(region: Region, terms: Term[], scan: Scan): Anchor[] {
  const { rows, structure } = region;
  const { found, has, n } = scan;
  const concepts = terms.flatMap((t, i) => (t.kind === "concept" ? [i] : []));
  const strongest = Math.max(1, ...concepts.map((i) => terms[i]!.weight));
  // Concepts and identifiers count where they are; only concepts count towards covering the query.
  const leveled = terms.flatMap((t, i) => (t.kind === "phrase" ? [] : [i]));
  const bestOn = (t: number, k: number) => found[k]!.reduce((q, o) => (o.term === t ? Math.max(q, quality(o)) : q), 0);
  const out: Anchor[] = [];
  // Each place's level and supplier per term, in arrays reused from place to place (reset for each).
  const level = new Float64Array(terms.length);
  const supplier = new Int32Array(terms.length);
  // The query's rarest concept and its identifiers: what it is about.
  const named = terms.flatMap((t, i) => (t.kind === "ident" || (t.kind === "concept" && t.weight >= strongest) ? [i] : []));
  const naming = new Uint8Array(terms.length);
  for (const t of named) naming[t] = 1;
  // Per naming term, the nearest rows holding it, built when a long record first asks.
  const nearest: ({ above: Int32Array; below: Int32Array } | undefined)[] = new Array(terms.length);
  /** Whether row `head` holds one of `named` as a whole token, and is not row r's only place for it. */
  const ownsTerm = (head: number, r: number) =>
    named.some(
      (t) => has[t * n + head] === 1 && found[head]!.some((o) => o.term === t && o.whole) && (head !== r || structure.childEnd[r]! > r),
    );
  for (let r = 0; r < n; r++) {
    const occ = found[r]!;
    if (occ.length === 0) continue;
    const long = rows[r]!.length > LONG_LINE;
    const names = long ? objectNames(rows[r]!, r > 0 || region.firstRowWhole, r === 0 ? region.title : "", occ, terms.length) : null;
    const places = long ? stretches(occ, terms.length, names?.named) : [occ];
    // The rows naming the row's records, looked for only when a place lacks a term.
    let headers: number[] | null = null;
    const record = recordOf(structure, r);
    // A term elsewhere in a longer record still says which record the row is of (a field of a
    // 70-field object, the object's name far above it); such a record is only not shown whole.
    // Only a term that names something (an identifier, the query's rarest word) says so from afar.
    // Unless the row's owner bounds it (an object, an indented block), a long block or section
    // holds several records one after another, each named before its lines: only the rows above
    // count, the nearer the more (the row's own record's name, not the next one's).
    const reach = record ? null : recordOf(structure, r, REACH);
    const reachOwned = reach !== null && structure.owner[r]! >= 0 && reach[0] === structure.owner[r];
    for (const place of places) {
      level.fill(0);
      supplier.fill(-1);
      for (const o of place) level[o.term] = Math.max(level[o.term]!, quality(o));
      const top = place.reduce((a, b) => (terms[b.term]!.weight * quality(b) > terms[a.term]!.weight * quality(a) ? b : a));
      // On a long JSON row, the object the place is in: its own fields name it, the rest of it is its record.
      const named = names?.at(top.at);
      for (const t of leveled) {
        if (level[t]! > 0) continue;
        if (named) {
          const q = named.level(t);
          if (q) {
            level[t] = LEVEL_HEADER * Math.min(1.5, quality(q));
            named.use(q);
            continue;
          }
          if (named.inRecord(t)) {
            level[t] = LEVEL_RECORD;
            continue;
          }
        }
        headers ??= headersOf(structure, r, rows);
        const h = headers.find((k) => has[t * n + k] === 1);
        if (h !== undefined) {
          level[t] = LEVEL_HEADER * Math.min(1.5, bestOn(t, h));
          supplier[t] = h;
          continue;
        }
        if (reach && naming[t]) {
          let near = nearest[t];
          if (!near) {
            near = nearestRows(has, n, t);
            nearest[t] = near;
          }
          const up = r > 0 ? near.above[r - 1]! : -1;
          const a = up >= reach[0] ? up : -1;
          const down = reachOwned && r + 1 < n ? near.below[r + 1]! : -1;
          const b = down >= 0 && down <= reach[1] ? down : -1;
          // The nearer, the one above when as near.
          const k = a < 0 ? b : b < 0 || r - a <= b - r ? a : b;
          if (k >= 0) {
            level[t] = LEVEL_RECORD * (1 - (0.5 * Math.abs(k - r)) / REACH);
            supplier[t] = k;
            continue;
          }
        }
        if (record) {
          let nearest = -1;
          for (let k = record[0]; k <= record[1]; k++) {
            if (k !== r && has[t * n + k] === 1 && (nearest < 0 || Math.abs(k - r) < Math.abs(nearest - r))) nearest = k;
          }
          if (nearest >= 0) {
            level[t] = LEVEL_RECORD;
            supplier[t] = nearest;
            continue;
          }
        }
        if (long && has[t * n + r] === 1) level[t] = LEVEL_SAME_LINE;
      }
      // A count of the thing asked about ("errors=9" for "how many errors in the test run")
      // answers the question: the query's other words say where to count, and the text searched
      // is where. They count as said by the record the place is in. The thing written as asked
      // (the plural a count takes: `check 10:` numbers one check, `4 checks` counts them), as a
      // token of its own.
      if (place.some((o) => o.counted && o.exact && terms[o.term]!.countedThing && startsToken(lowerRow(region, r), o.at)))
        for (const t of concepts) if (level[t] === 0) level[t] = LEVEL_RECORD;
      let score = 0;
      let covered = 0;
      let complete = true;
      let whole = true;
      for (let i = 0; i < terms.length; i++) {
        const t = terms[i]!;
        score += t.weight * level[i]!;
        if (t.kind === "concept") {
          covered += Math.min(1, level[i]!);
          if (level[i] === 0) complete = false;
          if (level[i]! < LEVEL_HEADER * 0.9) whole = false;
        }
      }
      if (concepts.length > 1) score += strongest * covered * (complete ? 2 : 1);
      // Pairs are of two different concepts: none with fewer.
      if (concepts.length > 1) score += strongest * 0.5 * adjacentPairs(lowerRow(region, r), place, terms);
      // The query asks how many: a place that writes a count next to one of its words says it.
      if (place.some((o) => o.counted)) score *= COUNTED;
      // The record's own name holds what the query names (`Name: urllib3` over the stanza's
      // `Version:`): its lines answer, more than another record's lines that mention it.
      if (record && !region.json && ownsTerm(record[0], r)) score *= OWNED;
      // The row's key is what the query names, not a longer name that holds it (`bytes_used`, not `backup_bytes_used`).
      if (!long && keyIsTerms(lowerRow(region, r), place, terms)) score *= DEFINES;
      // Near-identical rows tie: the row that writes a term of the query again as a whole token or
      // entry (`/usr/libexec/sudo … /usr/bin/sudo`, not `… /usr/sbin/sudo_logsrvd`) is more about it.
      if (!long) score *= 1 + REPEATED * Math.min(MAX_REPEATS, boundedRepeats(lowerRow(region, r), occ));
      // In JSON, the shallower of equal matches is the more canonical one (a top-level dependency
      // before the same package nested under another).
      if (region.json) score *= 1 + 1 / (2 + Math.max(0, structure.indent[r]!) / 2);
      // The rows that supply a term, each once, in the order of the terms.
      const suppliers: number[] = [];
      for (let i = 0; i < terms.length; i++) {
        const k = supplier[i]!;
        if (k >= 0 && !suppliers.includes(k)) suppliers.push(k);
      }
      const anchor: Anchor = {
        complete: whole,
        row: r,
        at: long ? place[0]!.at : top.at,
        end: long ? place.at(-1)!.end : top.end,
        score,
        suppliers,
        record,
      };
      if (named) anchor.names = named;
      out.push(anchor);
    }
  }
  return out;
}

const isNameChar = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || c === 95;

/**
 * How many occurrences on a row are a whole token or a path's last part, and a whole name there
 * (no letter, digit or `_` right before or after it: `/usr/bin/sudo`, not `sudo_logsrvd`), of a
 * term already found so on it.
 */
function boundedRepeats(lower: string, occ: Occurrence[]): number {
  let n = 0;
  let seen = 0;
  for (const o of occ) {
    if (o.term >= 31 || !o.exact || !(o.whole || o.leaf) || isNameChar(lower.charCodeAt(o.at - 1)) || isNameChar(lower.charCodeAt(o.end)))
      continue;
    const bit = 1 << o.term;
    if (seen & bit) n++;
    else seen |= bit;
  }
  return n;
}

/**
 * Whether the word at `at` starts a token of its own (after a space, an opening bracket or quote,
 * a comma, a `#`): `errors=9`, `# tests 75`, not the end of a path or qualified name
 * (`test_runner/test:796:25`, where the number is a line).
 */
function startsToken(lower: string, at: number): boolean {
  if (at === 0) return true;
  const c = lower.charCodeAt(at - 1);
  return c === 32 || c === 9 || c === 40 || c === 91 || c === 123 || c === 34 || c === 39 || c === 44 || c === 35 || c === 59;
}

/** For each row, the nearest row at or above it (`above`) and at or below it (`below`) holding term t; -1 when none. */
function nearestRows(has: Uint8Array, n: number, t: number): { above: Int32Array; below: Int32Array } {
  const above = new Int32Array(n);
  const below = new Int32Array(n);
  let last = -1;
  for (let k = 0; k < n; k++) {
    if (has[t * n + k] === 1) last = k;
    above[k] = last;
  }
  let next = -1;
  for (let k = n - 1; k >= 0; k--) {
    if (has[t * n + k] === 1) next = k;
    below[k] = next;
  }
  return { above, below };
}
