/**
 * The preview for outputs no recogniser knows: lines that look like failures, scored by what they
 * are, from a bounded scan of the whole text plus the tail window (where tools print their verdict);
 * an error's labelled continuation line; and the lines that state totals and counts (tally.ts).
 */
import { CANDIDATES, type Finding, pick, SCORE, scoreLine } from "./line-score.ts";
import { tallyFindings } from "./tally.ts";
import type { Hit, Line, TextView } from "./text-view.ts";

/** Candidate lines kept per pre-filter; enough for any real log, bounded for a pathological one. */
const MAX_CANDIDATES = 2000;
/** Error lines whose next line is looked at for a labelled continuation. */
const MAX_CONTINUED = 40;
/**
 * A continuation that says why: a capitalised label and a colon, as PostgreSQL's DETAIL: / HINT:,
 * Java's "Caused by:" and many tools' "Reason:" / "Details:" write it.
 */
const CONTINUATION = /^\s*[A-Z][A-Za-z]+(?: [a-z]+)?:\s+\S/;

export function genericFindings(view: TextView, max: number): Finding[] {
  const lines = new Map<number, Line | Hit>();
  for (const re of CANDIDATES) {
    for (const hit of view.scan(new RegExp(re.source, re.flags), null, MAX_CANDIDATES, undefined, MAX_CANDIDATES).hits)
      lines.set(hit.line, hit);
  }
  const tail = view.tail();
  for (const l of tail) lines.set(l.line, l);
  const found: Finding[] = [];
  for (const [line, l] of lines) {
    const score = scoreLine(l.text);
    if (score > 1) found.push({ line, text: l.text, score });
  }
  // An error's labelled continuation ("DETAIL:  Key (id)=(7) already exists."): why it failed.
  for (const e of found.filter((f) => f.score >= SCORE.errorLine).slice(0, MAX_CONTINUED)) {
    const at = lines.get(e.line)!;
    const next = "offset" in at ? view.after(at, 1)[0] : tail.find((t) => t.line === e.line + 1);
    if (next && CONTINUATION.test(next.text) && scoreLine(next.text) <= 1) found.push({ ...next, score: SCORE.cause });
  }
  // Totals and counts: where tools say how it went, the last lines (and the first few).
  found.push(...tallyFindings(view));
  return pick(found, max, "spread");
}
