/**
 * Search: every word (stemmed) and identifier first; words as prefixes when nothing matches
 * whole; misspelled words corrected from the store's vocabulary; any word last. Candidate
 * chunks are then read line by line: hits are the places that answer best (identifiers and
 * phrases, then rare words together), shown with the lines around them.
 */

import { fail, type Result } from "../../errors.ts";
import { formatBytes } from "../../units.ts";
import type { EngineDeps } from "../engine-deps.ts";
import type { SourceFilter } from "../source-filter.ts";
import { type Filter, filterSql, fuse, identHits, LINE_RANKED, wordHits } from "./candidates.ts";
import { definitionChunks } from "./definition-lookup.ts";
import { hexWidths } from "./hex-width.ts";
import type { Hit, SourcedWindow } from "./hit.ts";
import { mayHoldAll } from "./infix.ts";
import { NOT_OWN_ANSWER } from "./own-answers.ts";
import {
  type Concept,
  conceptsAnd,
  conceptsOr,
  contentConcepts,
  type ParsedQuery,
  parseQuery,
  prefixWords,
  wordsPrefixAnd,
} from "./query.ts";
import { compounds, corrected, splits, withShortForms } from "./query-variants.ts";
import { type CandidateChunk, type LoadedRegion, loadRegions } from "./regions.ts";
import { renderHits } from "./render.ts";
import { termsFor } from "./score.ts";
import { endsWithLoneNumber } from "./total-row.ts";
import { mayAllStartWords } from "./typo.ts";
import { findWindows, type Scanned } from "./windows.ts";

export type { Hit, HitLine } from "./hit.ts";

export type SearchInput = SourceFilter & {
  query: string;
  limit?: number;
  /** The session that asked (kept in the retrieval log; not a filter: `session` is). */
  askedBy?: string | null;
};
export type SearchMode = "all words" | "word starts" | "short forms" | "typo-tolerant" | "any word" | "no match";

export type SearchAnswer = {
  query: string;
  mode: SearchMode;
  corrections: Record<string, string>;
  hits: Hit[];
  omitted: number;
  text: string;
};

type Found = { mode: SearchMode; ids: number[]; query: ParsedQuery; corrections: Record<string, string> };

/** Concepts of the query that are not one of its identifiers (those are matched whole, as substrings). */
function looseConcepts(q: ParsedQuery): Concept[] {
  return contentConcepts(q).filter((c) => !q.idents.some((i) => c.words.every((w) => i.includes(w))));
}

/** Every concept: identifiers as substrings, the other words and phrases through the word index. */
function exact(deps: EngineDeps, q: ParsedQuery, f: Filter): number[] {
  const all = wordHits(deps, conceptsAnd(contentConcepts(q), q.phrases), f);
  if (q.idents.length === 0) return all;
  const words = conceptsAnd(looseConcepts(q), q.phrases);
  const withIdents = identHits(deps, q.idents, f, words);
  if (withIdents.length === 0) {
    // The identifier is there but not with the other words (they describe it: "signature"), or it is
    // written otherwise (`no_unchecked_indexed_access` for `noUncheckedIndexedAccess`): both kinds of place.
    const alone = all.length === 0 ? [] : identHits(deps, q.idents, f);
    return alone.length === 0 ? all : fuse([{ ids: alone, weight: 2 }, { ids: all }]).map((x) => x.id);
  }
  const ranked = new Set(withIdents);
  const both = fuse([{ ids: withIdents, weight: 2 }, { ids: all.filter((id) => ranked.has(id)) }]).map((x) => x.id);
  if (both.length >= LINE_RANKED || words === null) return both;
  // Fewer than are read line by line: then the other places of the identifiers, without the words
  // that describe them ("default max-connections value" for the `max-connections  151` row).
  return [...both, ...identHits(deps, q.idents, f).filter((id) => !ranked.has(id))];
}

/**
 * All concepts but one, for each: what a query with one wrong or missing word still finds. A list
 * that keeps the query's identifiers counts more: they name what is asked about.
 */
function mostWords(deps: EngineDeps, q: ParsedQuery, f: Filter): number[] {
  const content = contentConcepts(q);
  if (content.length < 3 || content.length > 6) return [];
  // A word typed together that the text writes apart (splits) names something, as an identifier does.
  const loose = new Set(looseConcepts(q).filter((c) => !c.split));
  const lists = content.map((c) => {
    const kept = content.filter((x) => x !== c);
    return { ids: wordHits(deps, conceptsAnd(kept, q.phrases), f), weight: 1 + kept.filter((x) => !loose.has(x)).length };
  });
  // The identifiers the query names, found verbatim without the words around them ("what value
  // did RING_MAX_SLOTS expand to"): they say what is asked about more than any two other words.
  if (q.idents.length > 0) lists.push({ ids: identHits(deps, q.idents, f), weight: 1 + content.length });
  for (const c of content) if (c.split) lists.push({ ids: wordHits(deps, conceptsAnd([c]), f), weight: 1 + content.length });
  return fuse(lists).map((x) => x.id);
}

/**
 * Fewer chunks than are read line by line have every word: the chunks with all words but one
 * follow them. A word the answer's line lacks ("memory" of "total malloced memory" for
 * `STAT total_malloced`) may be what made those few match.
 */
function withMostWords(deps: EngineDeps, q: ParsedQuery, f: Filter, ids: number[]): number[] {
  if (ids.length >= LINE_RANKED) return ids;
  const have = new Set(ids);
  return [...ids, ...mostWords(deps, q, f).filter((id) => !have.has(id))];
}

/** The first stage that finds anything. */
function candidates(deps: EngineDeps, query: ParsedQuery, f: Filter): Found {
  // A hex number as the text writes it (`0x0000000000001917` for "0x1917"), in every stage.
  let q = hexWidths(deps, query, f) ?? query;
  let corrections: Record<string, string> = {};
  let ids = exact(deps, q, f);
  if (ids.length > 0) return { mode: "all words", ids: withMostWords(deps, q, f, ids), query: q, corrections };
  const together = compounds(deps, q);
  if (together) {
    ids = exact(deps, together, f);
    if (ids.length > 0) return { mode: "all words", ids, query: together, corrections };
  }
  if (q.idents.length === 0) {
    const words = contentConcepts(q).flatMap((c) => c.words);
    const prefixes = prefixWords(words);
    // A misspelt word starts no word of the text: then nothing has them all, and the AND is not run.
    ids = prefixes.length > 1 && !mayAllStartWords(deps.db, prefixes) ? [] : wordHits(deps, wordsPrefixAnd(words), f);
    if (ids.length > 0) return { mode: "word starts", ids, query: q, corrections };
    // Inside longer identifiers: "webpmux" in "libwebpmux3".
    const inside = words.filter((w) => w.length >= 4);
    // A word no text holds (a typo) is told by the vocabulary, not by reading every chunk whose trigrams match.
    ids = inside.length === words.length && mayHoldAll(deps.db, inside, f.range) ? identHits(deps, inside, f) : [];
    if (ids.length > 0) return { mode: "word starts", ids, query: { ...q, idents: inside }, corrections };
  }
  ({ q, corrections } = corrected(deps, q, f));
  if (Object.keys(corrections).length > 0) {
    ids = exact(deps, q, f);
    if (ids.length > 0) return { mode: "typo-tolerant", ids, query: q, corrections };
  }
  const apart = splits(deps, q);
  if (apart) {
    ids = exact(deps, apart, f);
    if (ids.length > 0) return { mode: "all words", ids, query: apart, corrections };
    // Past here some words may be missing: a word split into the text's words (splits) is kept split.
    q = apart;
  }
  // Then the short forms of words the text never writes out (those words kept every stage above from matching).
  const short = withShortForms(deps, q, f);
  if (short !== q) {
    ids = exact(deps, short, f);
    if (ids.length > 0) return { mode: "short forms", ids, query: short, corrections };
    q = short;
  }
  ids = mostWords(deps, q, f);
  if (ids.length > 0) return { mode: "any word", ids, query: q, corrections };
  if (q.concepts.length > 1) {
    ids = fuse([
      { ids: wordHits(deps, conceptsOr(contentConcepts(q)), f) },
      ...q.idents.map((s) => ({ ids: identHits(deps, [s], f), weight: 2 })),
    ]).map((x) => x.id);
    if (ids.length > 0) return { mode: "any word", ids, query: q, corrections };
  }
  return { mode: "no match", ids: [], query: q, corrections };
}

/**
 * The ids read line by line, with the last chunk of the one source searched when it has some of
 * the query's words and is not among them: an output's totals and summary come at its end (a
 * test run's counts, a disk usage's grand total, a compiler's error count), under words the
 * chunks before it repeat on every line.
 */
function withEnding(deps: EngineDeps, found: Found, f: Filter, ids: number[]): number[] {
  if (!f.range) return ids;
  const last = f.range[1];
  if (ids.includes(last)) return ids;
  // A count asked for, and the output ends with a lone number (its total, total-row.ts): whatever matched.
  if (found.query.quantity && endsWithNumber(deps, last)) return [...ids, last];
  if (found.mode === "no match" || ids.length === 0) return ids;
  const any = conceptsOr(contentConcepts(found.query));
  const idents = found.query.idents;
  const holds =
    (any !== null && deps.db.query("SELECT 1 FROM chunks_words WHERE chunks_words MATCH ? AND rowid = ?").get(any, last) !== null) ||
    (idents.length > 0 &&
      deps.db
        .query<{ one: number }, [number, ...string[]]>(
          `SELECT 1 AS one FROM chunks WHERE id = ?${idents.map(() => " AND instr(lower(content), ?) > 0").join("")}`,
        )
        .get(last, ...idents) !== null);
  return holds ? [...ids, last] : ids;
}

/**
 * Whether the chunk's last non-blank line is a number and nothing else. Its last bytes are read: the
 * line begins in them, or they are the whole chunk and the chunk begins a line (not the last piece of
 * a line too long for one chunk).
 */
function endsWithNumber(deps: EngineDeps, chunk: number): boolean {
  const row = deps.db
    .query<{ tail: string; startsLine: number }, [number]>(
      `SELECT substr(c.content, -64) AS tail, length(c.content) <= 64 AND NOT EXISTS (
         SELECT 1 FROM chunks p WHERE p.blob_id = c.blob_id AND p.ordinal = c.ordinal - 1 AND p.line_end >= c.line_start
       ) AS startsLine FROM chunks c WHERE c.id = ?`,
    )
    .get(chunk);
  return row !== null && endsWithLoneNumber(row.tail, row.startsLine === 1);
}

/**
 * The first `want` candidate chunks, in their order, with what windows need of them; not those
 * whose text only the store's own answers hold (own-answers.ts). Only as many are looked up as
 * may still be wanted (a search reads the first few).
 */
function loadChunks(deps: EngineDeps, ids: number[], want: number): CandidateChunk[] {
  // One statement whatever the number of ids (prepared once, not per search).
  const sql = `SELECT c.id, c.blob_id, c.ordinal, c.line_start, c.line_end, c.title, b.chunk_count, b.kind,
    b.hash || '@' || b.created_at AS stamp FROM chunks c JOIN blobs b ON b.id = c.blob_id WHERE c.id IN (SELECT value FROM json_each(?))
    AND EXISTS (SELECT 1 FROM sources s WHERE s.blob_id = c.blob_id${NOT_OWN_ANSWER})`;
  const order = new Map(ids.map((id, i) => [id, i]));
  const kept: Omit<CandidateChunk, "rank">[] = [];
  for (let from = 0; from < ids.length && kept.length < want; ) {
    const slice = ids.slice(from, from + want - kept.length);
    from += slice.length;
    kept.push(...deps.db.query<Omit<CandidateChunk, "rank">, [string]>(sql).all(JSON.stringify(slice)));
  }
  // Ranked among the chunks kept.
  return kept.sort((a, b) => order.get(a.id)! - order.get(b.id)!).map((c, rank) => ({ ...c, rank }));
}

export function search(deps: EngineDeps, input: SearchInput): Result<SearchAnswer> {
  const { db, config } = deps;
  const limit = Math.max(1, Math.min(input.limit ?? config.search.limit, 50));
  if (input.source && !db.query("SELECT 1 FROM sources WHERE handle = ?").get(input.source)) {
    return fail(
      "NO_SUCH_SOURCE",
      `No source "${input.source}" in the store (it may have been purged). Search without a source filter, or list the sources.`,
    );
  }
  const parsed = parseQuery(input.query);
  if (parsed.words.length === 0 && parsed.idents.length === 0) {
    return fail(
      "EMPTY_QUERY",
      "The query has no letters or digits to search for. Search with distinctive words from the output, e.g. an error message or an identifier.",
    );
  }
  const f = filterSql(deps, input);
  const found = candidates(deps, parsed, f);
  const kept = loadChunks(deps, found.ids, Math.max(LINE_RANKED, 2 * limit));
  // The searched source's ending (withEnding), when it is added, ranks after the chunks kept.
  const ending = withEnding(
    deps,
    found,
    f,
    kept.map((c) => c.id),
  ).slice(kept.length);
  let chunks = [...kept, ...loadChunks(deps, ending, ending.length).map((c) => ({ ...c, rank: kept.length }))];
  const terms = termsFor(found.query);
  const missing = new Map<string, number>();
  const scanned = new Map<LoadedRegion, Scanned>();
  // The query's words matched whole: a place with all of them in one region outranks places with some in every other.
  const across = found.mode === "all words";
  let windows = findWindows(loadRegions(db, chunks), terms, config.search.maxLinesPerHit, missing, scanned, across);
  if (missing.size > 0) {
    // Names the hits use that no chunk read defines: their definitions' chunks are read too (definition-lookup.ts).
    const floor = windows[Math.min(limit, windows.length) - 1]?.score ?? 0;
    const more = definitionChunks(deps, missing, floor, new Set(chunks.map((c) => c.id)));
    if (more.length > 0) {
      chunks = [...chunks, ...loadChunks(deps, more, more.length).map((c) => ({ ...c, rank: chunks.length }))];
      windows = findWindows(loadRegions(db, chunks), terms, config.search.maxLinesPerHit, undefined, scanned, across);
    }
  }

  // Each text's newest source (that the filter allows), for every text the windows are in, at once.
  const blobs = [...new Set(windows.map((w) => w.chunk.blob_id))];
  const sources = new Map(
    (blobs.length === 0
      ? []
      : db
          .query<{ blob: number; handle: string; tool: string }, (string | number)[]>(
            `SELECT s.blob_id AS blob, s.handle, s.tool, max(s.id) FROM sources s
         WHERE s.blob_id IN (SELECT value FROM json_each(?))${f.and}${NOT_OWN_ANSWER} GROUP BY s.blob_id`,
          )
          .all(JSON.stringify(blobs), ...f.params)
    ).map((s) => [s.blob, s]),
  );
  // Twice the hits asked for: hits whose lines overlap are merged, and the next ones take their place.
  const sourced: SourcedWindow[] = [];
  for (const w of windows) {
    if (sourced.length >= 2 * limit) break;
    const src = sources.get(w.chunk.blob_id);
    if (src) sourced.push({ ...w, sourceId: src.handle, tool: src.tool });
  }
  // Nothing matched the words, yet the output's total was asked for and is shown (withEnding).
  const mode: SearchMode = found.mode === "no match" && sourced.length > 0 ? "any word" : found.mode;
  const summaryRoom = 240;
  const {
    hits,
    omitted: dropped,
    unused,
  } = renderHits(sourced, config.search.maxResponseBytes - summaryRoom, deps.calls, limit, config.search.maxLinesPerHit);
  // Candidate chunks not read line by line hold matches too.
  const omitted = dropped + unused + Math.max(0, windows.length - sourced.length) + Math.max(0, found.ids.length - chunks.length);
  const summary = describe(
    input,
    mode,
    hits.length,
    { cut: dropped, other: omitted - dropped, budget: config.search.maxResponseBytes },
    found.corrections,
  );
  const text = [summary, ...hits.map((h) => h.text)].join("\n");
  deps.retrievals.add({
    kind: "search",
    session: input.askedBy ?? null,
    query: input.query,
    mode,
    hits: hits.length,
    shared: summary,
    parts: hits.map((h) => ({ sourceId: h.sourceId, text: h.text })),
  });
  return { ok: true, query: input.query, mode, corrections: found.corrections, hits, omitted, text };
}

/** What was left out: hits cut by the answer's size limit, and matches past the hits asked for. */
type Omitted = { cut: number; other: number; budget: number };

function describe(input: SearchInput, mode: SearchMode, n: number, omitted: Omitted, corrections: Record<string, string>): string {
  const quoted = JSON.stringify(input.query);
  if (n === 0)
    return `No match for ${quoted}. Try fewer or different words: an exact identifier, error text, or a file name from the output.`;
  const fixes = Object.entries(corrections)
    .map(([a, b]) => `${a} -> ${b}`)
    .join(", ");
  const how =
    mode === "all words"
      ? // Corrected, then a word split into the text's words (splits): all words, as corrected.
        fixes
        ? ` (corrected: ${fixes})`
        : ""
      : mode === "word starts"
        ? " (as the start of longer words)"
        : mode === "short forms"
          ? ` (some words as the short forms tools print, e.g. sched for scheduler${fixes ? `; corrected: ${fixes}` : ""})`
          : mode === "typo-tolerant"
            ? ` (corrected: ${fixes})`
            : ` (no place has every word; showing places with some${fixes ? `; corrected: ${fixes}` : ""})`;
  const narrow = input.source ? "add words to narrow" : "add words or filter by source to narrow";
  const left: string[] = [];
  if (omitted.cut > 0)
    left.push(`${omitted.cut} more did not fit the answer's ${formatBytes(omitted.budget)} limit (search.maxResponseBytes)`);
  if (omitted.other > 0)
    left.push(`${omitted.other} more ${omitted.other === 1 ? "match" : "matches"} ${omitted.cut > 0 ? "past those" : "not shown"}`);
  const rest = left.length > 0 ? ` ${left.join("; ")}: ${narrow}.` : "";
  return `${n} hit${n === 1 ? "" : "s"} for ${quoted}${how}.${rest}`;
}
