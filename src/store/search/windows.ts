/**
 * From regions (regions.ts) to hits. The places in a region of rows are scored (score.ts)
 * and grouped into windows: places in one record, or a few lines apart, are one hit. A hit is
 * a place in a text, not a chunk; several places on one long line are several hits.
 */
import { type DefinitionPart, textDefinitions, withDefinitions } from "./definitions.ts";
import type { ObjectNames } from "./json-line.ts";
import type { Term } from "./lines.ts";
import { distinct, sharedPlaces } from "./long-row-repeats.ts";
import type { CandidateChunk, LoadedRegion } from "./regions.ts";
import { LONG_LINE, type Scan, scanRegion } from "./scan.ts";
import { type Anchor, scoreRegion, weighTerms } from "./score.ts";
import { MAX_RECORD } from "./structure.ts";
import { superlativeOf, withExtremeRows } from "./superlatives.ts";
import { withTotalRow } from "./total-row.ts";
import { withUsedNames } from "./used-names.ts";

export type Window = {
  region: LoadedRegion;
  /** The candidate chunk the best place is in. */
  chunk: CandidateChunk;
  /** The places shown, by row of the region, ascending (on a long JSON row, with the fields that name its object). */
  matches: { row: number; at: number; end: number; score: number; names?: ObjectNames }[];
  /** Rows that name the places' records, shown with them. */
  suppliers: number[];
  record: [number, number] | null;
  score: number;
  /** Places of the window left out (shown as "+N more"). */
  more: number;
  /** A place with only some of the query where others have all of it: shown after them, with what bytes they leave. */
  weak?: boolean;
};

/** Places this close belong to one hit (their context would overlap anyway). */
const GAP = 8;
/** Windows per candidate chunk. */
const PER_CHUNK = 2;
const MAX_SUPPLIERS = 6;
/** Places scoring this close to a window's best have as much of the query (a run's other rows, not rows with less). */
const NEAR_BEST = 0.95;
/** A hit spans at most this many rows (a run of near-identical lines, then the next hit). */
const MAX_SPAN = 2 * MAX_RECORD;

function chunkOf(cands: CandidateChunk[], region: LoadedRegion, row: number): CandidateChunk {
  const line = region.first + row;
  return cands.find((c) => line >= c.line_start && line <= c.line_end) ?? cands[0]!;
}

/** Places in one record, or a few rows apart (a long row's stretches only when they overlap), are one group. */
function group(region: LoadedRegion, anchors: Anchor[]): Anchor[][] {
  const groups: Anchor[][] = [];
  for (const a of [...anchors].sort((x, y) => x.row - y.row || x.at - y.at)) {
    const g = groups.at(-1);
    const last = g?.at(-1);
    const sameRecord = last?.record && a.record && last.record[0] === a.record[0] && last.record[1] === a.record[1];
    // Never across a heading: the next section is another record.
    const sameSection = last && region.structure.heading[last.row] === region.structure.heading[a.row];
    const near = last && sameSection && (last.row === a.row ? a.at <= last.end : a.row - last.row <= GAP);
    if (g && (near || sameRecord) && a.row - g[0]!.row <= MAX_SPAN) g.push(a);
    else groups.push([a]);
  }
  return groups;
}

function windowOf(region: LoadedRegion, cands: CandidateChunk[], g: Anchor[], maxLines: number): Window {
  const best = g.reduce((a, b) => (b.score > a.score ? b : a));
  // Other matching rows nearby add a little when the best place lacks some of the query (they may
  // hold the rest); to a place that has it all, rows that repeat it add nothing (a run of
  // near-identical rows is not a better answer than one row that names what was asked).
  const rest = best.complete ? 0 : g.reduce((s, a) => s + (a.row === best.row ? 0 : a.score), 0);
  // Too many places: the best, the first, and the last ones (in a run of attempts the last is the
  // outcome); in a run of near-identical rows, of those that have as much of the query as the best
  // (the rows of a table whose value is the one asked for, not every row of the table).
  let kept = g;
  if (g.length > maxLines) {
    const top = g.filter((a) => a.score >= best.score * NEAR_BEST);
    const pool = top.length >= maxLines ? top : g;
    const tail = pool.slice(-(maxLines - 2));
    const chosen = new Set(top.length < maxLines ? top : []);
    for (const a of [pool[0]!, best, ...tail.reverse()]) if (chosen.size < maxLines) chosen.add(a);
    kept = [...chosen].sort((a, b) => a.row - b.row || a.at - b.at);
  }
  const chunk = chunkOf(cands, region, best.row);
  // One place per row: the best of those on it.
  const byRow = new Map<number, Anchor>();
  for (const a of kept) if (!byRow.has(a.row) || a.score > byRow.get(a.row)!.score) byRow.set(a.row, a);
  return {
    region,
    chunk,
    matches: [...byRow.values()].map((a) => ({
      row: a.row,
      at: a.at,
      end: a.end,
      score: a.score,
      ...(a.names ? { names: a.names } : {}),
    })),
    suppliers: [...new Set([...best.suppliers, ...kept.flatMap((a) => a.suppliers)])].slice(0, MAX_SUPPLIERS),
    record: best.record,
    score: best.score + Math.min(rest * 0.1, best.score * 0.2) - chunk.rank * 1e-3,
    more: g.length - kept.length,
  };
}

/** A region's scan and its places as scored, kept for a second call with the same terms. */
export type Scanned = { scan: Scan; anchors: Anchor[]; scores: Float64Array };

/**
 * The windows worth showing, best first. Names the best places on long rows use that no region
 * read defines go to `missing` (definitions.ts) as `blob name`, with their best user's score.
 * `scanned` keeps the regions' scans and places for a second call with the same terms.
 */
export function findWindows(
  regions: { region: LoadedRegion; candidates: CandidateChunk[] }[],
  terms: Term[],
  maxLines: number,
  missing?: Map<string, number>,
  scanned?: Map<LoadedRegion, Scanned>,
  across = false,
): Window[] {
  const out: Window[] = [];
  const partial: Window[] = [];
  // A second call with the same terms (more chunks read): the regions read before keep their scan
  // and places, and the terms their weights (the new regions are weighed as the first ones were).
  const again = scanned !== undefined && scanned.size > 0;
  const scans = regions.map(({ region }) => scanned?.get(region)?.scan ?? scanRegion(region, terms));
  if (!again) weighTerms(terms, scans);
  const parts: DefinitionPart[] = regions.map(({ region }, k) => {
    const known = scanned?.get(region);
    if (known) {
      // As they were scored: the places found below (definitions, extremes) raise some scores and add places.
      known.anchors.forEach((a, i) => {
        a.score = known.scores[i]!;
      });
      return { region, scan: known.scan, anchors: known.anchors.slice() };
    }
    const anchors = withUsedNames(region, terms, scans[k]!, scoreRegion(region, terms, scans[k]!));
    scanned?.set(region, { scan: scans[k]!, anchors: anchors.slice(), scores: Float64Array.from(anchors, (a) => a.score) });
    return { region, scan: scans[k]!, anchors };
  });
  // A superlative asks for a listing's extreme row (superlatives.ts).
  const extreme = superlativeOf(terms);
  if (extreme)
    for (const [k, { region }] of regions.entries())
      parts[k]!.anchors = withExtremeRows(region, terms, scans[k]!, parts[k]!.anchors, extreme);
  // A count asked for: the lone number ending an output is its total (total-row.ts).
  for (const [k, { region, candidates }] of regions.entries())
    parts[k]!.anchors = withTotalRow(region, candidates, terms, parts[k]!.anchors);
  // Definitions are looked for in every region of the same text (a long line spans many).
  const byText = new Map<number, DefinitionPart[]>();
  for (const [k, { region }] of regions.entries()) byText.set(region.blob, [...(byText.get(region.blob) ?? []), parts[k]!]);
  for (const [blob, same] of byText) {
    const undefinedNames = missing ? new Map<string, number>() : undefined;
    const text = textDefinitions(same);
    for (const part of same) withDefinitions(text, part, terms, undefinedNames);
    for (const [name, score] of undefinedNames ?? []) missing!.set(`${blob} ${name}`, score);
  }
  const shared = sharedPlaces(
    regions.map(({ region }) => region),
    parts,
  );
  // Where some place has every concept, places with only some come after all of them: in its
  // region, and with `across` (every word matched as typed, not as the start of a longer word,
  // which a name merely starting with it also is) in every region read.
  const anyComplete = across && parts.some((p) => p.anchors.some((a) => a.complete));
  for (const [k, { region, candidates }] of regions.entries()) {
    let anchors = parts[k]!.anchors;
    // Where some place has every concept, places with only some are not hits, unless there is room
    // left after every complete one: on a long row, the definition (`--x-duration:294ms`) the
    // complete places use may lack the words that describe it.
    const placed = anchors.length > 0;
    if (anyComplete || anchors.some((a) => a.complete)) {
      // The other places with some of the query come after every complete one anyway: a query
      // word the answer's record lacks ("installed") may be what made the complete ones match.
      const rest = anchors.filter((a) => !a.complete);
      anchors = anchors.filter((a) => a.complete);
      if (rest.length > 0) {
        const top = Math.max(...rest.map((a) => a.score));
        const extra = group(
          region,
          distinct(
            region,
            rest.filter((a) => a.score >= top * 0.5),
            shared,
          ).kept,
        ).map((g) => windowOf(region, candidates, g, maxLines));
        const weak = extra.sort((a, b) => b.score - a.score).slice(0, PER_CHUNK * candidates.length);
        for (const w of weak) if (w.matches.every((m) => region.rows[m.row]!.length <= LONG_LINE)) w.weak = true;
        partial.push(...weak);
      }
    }
    // Every place of the region lacks some of the query that a place of another region has all of: only weak hits.
    if (placed && anchors.length === 0) continue;
    if (anchors.length === 0) {
      // Matched by a title only (a heading, or a JSON record that began in the chunk before).
      for (const c of candidates) {
        const row = Math.max(0, c.line_start - region.first);
        out.push({
          region,
          chunk: c,
          matches: [{ row, at: 0, end: 0, score: 0 }],
          suppliers: [],
          record: null,
          score: -c.rank * 1e-3,
          more: 0,
        });
      }
      continue;
    }
    // Places far weaker than the best one (one common word of several) are noise, not hits.
    const top = Math.max(...anchors.map((a) => a.score));
    const { kept, repeats } = distinct(
      region,
      anchors.filter((a) => a.score >= top * 0.5),
      shared,
    );
    const windows = group(region, kept)
      .map((g) => windowOf(region, candidates, g, maxLines))
      .sort((a, b) => b.score - a.score);
    const shown = windows.slice(0, PER_CHUNK * candidates.length);
    // The next ones fill the slots the hits of every text leave, after them (weak), and are not counted as more.
    const next = windows.slice(shown.length, 2 * shown.length);
    for (const w of next) if (w.matches.every((m) => region.rows[m.row]!.length <= LONG_LINE)) w.weak = true;
    partial.push(...next);
    const hidden = repeats + windows.slice(shown.length + next.length).reduce((n, w) => n + w.matches.length + w.more, 0);
    if (shown[0]) shown[0].more += hidden;
    out.push(...shown);
  }
  return [...out.sort((a, b) => b.score - a.score), ...partial.sort((a, b) => b.score - a.score)];
}
