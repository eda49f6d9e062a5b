/**
 * "How many errors in total": a tool asked to count prints the total as a lone number on its
 * output's last line (`flake8 --count`, `codespell --count`, `pydocstyle --count`, `grep -c`,
 * `wc -l <`), under no word at all, so no query word can find it. When the query asks how many
 * and the region holds the end of the text, a last line that is a number and nothing else (decimal,
 * or a hex offset: `hexdump`'s last line is the length) becomes
 * a place, worth half the region's best (the least a place may score and still be a hit), so it
 * joins the hits without passing a place that writes the count next to the query's words.
 */
import type { Term } from "./lines.ts";
import type { CandidateChunk, LoadedRegion } from "./regions.ts";
import type { Anchor } from "./score.ts";

/** A number and nothing else: decimal, or hex of at least 4 digits (an offset: `hexdump`'s last line is the length). */
const LONE_NUMBER = /^\s*(?:\d+|(?:0x)?(?=[0-9a-f]*\d)[0-9a-f]{4,})\s*$/i;

/**
 * Whether a text's last non-blank line is a lone number. `startsLine`: the text begins a line; when
 * it is only the end of a longer text, its last line must begin in it (after a line break it holds),
 * else what it holds may be the end of a longer line (`sha256 <64 hex digits>`).
 */
export function endsWithLoneNumber(text: string, startsLine = true): boolean {
  const end = text.trimEnd();
  const nl = end.lastIndexOf("\n");
  return (nl >= 0 || startsLine) && LONE_NUMBER.test(end.slice(nl + 1));
}

/** A region with no place of its own: what the total's place scores. */
const ALONE = 1;

/** Whether the query asks how many (query.ts marks every concept of such a query). */
const asksCount = (terms: Term[]) => terms.some((t) => t.count);

/** The text's last non-blank row when the region ends the text and it is a lone number, else -1. */
function totalRow(region: LoadedRegion, candidates: CandidateChunk[]): number {
  const last = region.chunks.at(-1);
  const count = candidates[0]?.chunk_count;
  // The last chunk read whole (a candidate: a neighbour gives only its first lines).
  if (!last || last.ordinal !== count || !candidates.some((c) => c.ordinal === count)) return -1;
  let r = region.rows.length - 1;
  while (r >= 0 && region.rows[r]!.trim() === "") r--;
  return r >= 0 && LONE_NUMBER.test(region.rows[r]!) ? r : -1;
}

/** The anchors with the text's total as a place of its own, when the query asks how many and the region ends with one. */
export function withTotalRow(region: LoadedRegion, candidates: CandidateChunk[], terms: Term[], anchors: Anchor[]): Anchor[] {
  if (!asksCount(terms)) return anchors;
  const r = totalRow(region, candidates);
  if (r < 0 || anchors.some((a) => a.row === r)) return anchors;
  const top = anchors.reduce((m, a) => Math.max(m, a.score), 0);
  const row = region.rows[r]!;
  const at = row.search(/\S/);
  return [
    ...anchors,
    { row: r, at, end: row.trimEnd().length, score: top > 0 ? top * 0.5 : ALONE, suppliers: [], record: null, complete: false },
  ];
}
