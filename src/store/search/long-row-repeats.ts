/**
 * Places on long rows that repeat one another: minified code writes the same use
 * (`transition-duration:var(--x)`) in rule after rule, and a long line is read as several regions
 * (one per run of chunks read). Of the places that show the same text on one line, in any region,
 * only the best is a place; the others are counted as repeats.
 */
import { type DefinitionPart, nameAround } from "./definitions.ts";
import { LONG_LINE, type Region } from "./scan.ts";
import type { Anchor } from "./score.ts";

/** A region as read from a text: which text (blob) and the line number of its first row. */
export type PlacedRegion = Region & { blob: number; first: number };

/** A place on a long row as the text it shows: its line, and its text widened to the whole names it cuts into. */
function placeKey(region: PlacedRegion, a: Anchor): string | null {
  const row = region.rows[a.row]!;
  if (row.length <= LONG_LINE || a.end <= a.at) return null;
  return `${region.blob}:${region.first + a.row}:${row.slice(...nameAround(row, a.at, a.end)).toLowerCase()}`;
}

/** The best place of each text shown on long rows, and each place's text (worked out once). */
export type SharedPlaces = { best: Map<string, Anchor>; keys: Map<Anchor, string | null> };

function keyOf(shared: SharedPlaces, region: PlacedRegion, a: Anchor): string | null {
  let key = shared.keys.get(a);
  if (key === undefined) {
    key = placeKey(region, a);
    shared.keys.set(a, key);
  }
  return key;
}

/**
 * Of the places on long rows that show the same text, in every region read (a minified line is
 * many chunks, each read as a region of its own), the best one: the others are repeats.
 */
export function sharedPlaces(regions: PlacedRegion[], parts: DefinitionPart[]): SharedPlaces {
  const shared: SharedPlaces = { best: new Map(), keys: new Map() };
  for (const [k, region] of regions.entries()) {
    const anchors = parts[k]!.anchors;
    // Only places their own region keeps (findWindows drops those far weaker than its best).
    const top = anchors.reduce((m, a) => Math.max(m, a.score), 0);
    for (const a of anchors) {
      if (a.score < top * 0.5) continue;
      const key = keyOf(shared, region, a);
      if (key === null) continue;
      const b = shared.best.get(key);
      if (!b || a.score > b.score) shared.best.set(key, a);
    }
  }
  return shared;
}

/**
 * Places on long rows that show the same text as a better one (minified code repeating
 * `transition-duration:var(--x)`, in this region or another of the same line) are not places of
 * their own: only counted, so the hits go to other text (the definition they all use, a
 * different record). The text is the place's with the names it cuts into whole: `u.zero=` and
 * `u.zeroHash=` are two places of "zero".
 */
export function distinct(region: PlacedRegion, anchors: Anchor[], shared: SharedPlaces): { kept: Anchor[]; repeats: number } {
  const seen = new Set<string>();
  const kept: Anchor[] = [];
  let repeats = 0;
  for (const a of [...anchors].sort((x, y) => y.score - x.score)) {
    const key = keyOf(shared, region, a);
    if (key === null) {
      kept.push(a);
      continue;
    }
    const best = shared.best.get(key);
    if (seen.has(key) || (best !== undefined && best !== a && best.score >= a.score)) repeats++;
    else {
      seen.add(key);
      kept.push(a);
    }
  }
  return { kept, repeats };
}
