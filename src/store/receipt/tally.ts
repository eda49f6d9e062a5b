/**
 * Lines that state totals and counts: what a tool prints last to say how it went ("9 runs, 2
 * failures, 1 skips", "# fail 8", "6 files changed, 50 insertions(+)", "Total time: 7.94s",
 * "101329 total"), and the few facts a tool states once (its version, a labelled date). General
 * forms, no tool's vocabulary:
 * - a count of a test outcome, the outcome words of the JUnit XML report attributes (tests,
 *   failures, errors, skipped) and of TAP's final comments (pass, fail, skip, todo, cancelled),
 *   matched by stem so "failures", "failed", "fail" and "errored" all count;
 * - a list of at least two counted things ("N word, N word");
 * - a number on a line that says it is a total or a summary, or a labelled count ("Number of
 *   deleted files: 2": English "number of", a label, its number);
 * - the version a tool reports ("version: 3.0.19", "found version \"1.2.13\""), and a labelled date;
 * - the numbered lines under a heading that announces totals ("LEAK SUMMARY:").
 * A line shaped like several others in the same window is a record of a listing, not a summary.
 * A count of a bad outcome (fail, error, cancelled...) that is not zero weighs more than the rest.
 */
import { type Finding, shapeOf } from "./line-score.ts";
import { isBlank, type Line, type TextView } from "./text-view.ts";

/** Lines looked at for totals and counts: the first few and the last. */
const TALLY_HEAD = 20;
const TALLY_TAIL = 60;
/** Lines of one shape in those windows that make them records, not a summary. */
const RECORD_REPEATS = 3;

/** Outcome stems: JUnit attributes and TAP comments, stemmed (Porter-style suffix stripping). */
const BAD = "fail|error|err|broken|cancel|abort|crash|timeout|timed out|violat";
const OTHER = "pass|succe|skip|todo|pend|ignor|xfail|xpass|disabled|flaky|tests?|runs?|assertions?|checks?";
const NUM = "\\d[\\d,.]*";

/** A stem's inflections ("fail" → failed, failures, failing), as a whole word. */
const WORD = (stems: string) => `(?<![\\w/.:-])(?:${stems})[a-z]{0,5}(?![\\w/.-])`;
/** "8 failed", "fail 8", "failures=13", "Failures: 9", "errors: 2" (the count is group 1 or 2). */
const BAD_COUNT = new RegExp(`(?<![\\w.=:-])(${NUM})\\s+${WORD(BAD)}|${WORD(BAD)}(?: count)?\\s*[:=]?\\s*(${NUM})(?![\\w.]|:\\d)`, "gi");
const OTHER_COUNT = new RegExp(`(?<![\\w.=:-])${NUM}\\s+${WORD(OTHER)}|${WORD(OTHER)}\\s*[:=]?\\s*${NUM}(?![\\w.]|:\\d)`, "i");
/** "9 runs, 7 assertions": two counted words in a list. */
const COUNT_LIST = /(?<![\w.-])\d[\d,.]*%? \(?[A-Za-z]\w*\b[^,;\n]{0,24}[,;] +\d[\d,.]*%? \(?[A-Za-z]/;
/** A line that says it is a total or a summary (not a call or an identifier: "total(", "sub_total"). */
const TOTAL = /(?<![\w/.:-])(?:totals?|summary|overall)(?![\w(/.-])/i;
/** "Number of deleted files: 2", "number of snapshots: 56": a count the line names as one (a label, then its number). */
const NUMBER_OF = /(?<![\w/.:-])number of\b[^:=\n]{1,40}[:=]\s*\d/i;
const HAS_DIGIT = /\d/;
/** `<?xml version="1.0"?>` names the XML format's version, not the tool's. */
const XML_DECLARATION = /^\s*<\?xml /;
/** The version a tool reports: the word, then a dotted number (as semantic versioning writes it). */
const VERSION = /(?<![\w/.-])version\b[^\d\n]{0,20}(?<![\w.-])(?:\d+:)?v?\d+\.\d+(?:\.\d+)?/i;

/**
 * A labelled date ("Next Update: Dec  2 22:00:18 2026 GMT", "Not After : ...", "expires: 2027-01-31"):
 * a label, a colon, then a date as RFC 5322 (month name, day) or ISO 8601 (year-month-day) write it.
 */
const DATED =
  /^\s*[A-Za-z][\w .-]{1,30}?\s*:\s*(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s+)?(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2}\b|\d{1,2}\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b|\d{4}-\d\d-\d\d\b)/;

export const TALLY = { bad: 9, count: 3 } as const;

/** What a line's counts are worth: TALLY.bad, TALLY.count, or 0 when it states none (zero failures alone are none). */
export function tallyScore(text: string): number {
  if (!HAS_DIGIT.test(text) || text.length > 300 || XML_DECLARATION.test(text)) return 0;
  for (const m of text.matchAll(BAD_COUNT)) if (Number((m[1] ?? m[2]!).replace(/,/g, "")) > 0) return TALLY.bad;
  if (OTHER_COUNT.test(text) || COUNT_LIST.test(text) || TOTAL.test(text) || NUMBER_OF.test(text) || VERSION.test(text) || DATED.test(text))
    return TALLY.count;
  return 0;
}

/** The lines of the first and last windows that state totals or counts, scored. */
export function tallyFindings(view: TextView): Finding[] {
  const head = view.head().slice(0, TALLY_HEAD);
  const last = head.at(-1)?.line ?? 0;
  const lines = [
    ...head,
    ...view
      .tail()
      .slice(-TALLY_TAIL)
      .filter((t) => t.line > last),
  ];
  // A summary is said once: a line shaped like several others is a record of a listing ("row 7: 0 errors").
  const shapes = new Map<string, number>();
  for (const l of lines) shapes.set(shapeOf(l.text), (shapes.get(shapeOf(l.text)) ?? 0) + 1);
  const found: Finding[] = [];
  const stanza = stanzaLines(lines);
  for (const l of lines) {
    const own = shapes.get(shapeOf(l.text))! >= RECORD_REPEATS ? 0 : tallyScore(l.text);
    const score = Math.max(own, stanza.has(l.line) ? TALLY.count : 0);
    if (score > 0) found.push({ ...l, score });
  }
  return found;
}

/** A heading that announces totals: "LEAK SUMMARY:", "Total issues (by severity):", "Summary"; not a quoted name ("In function ‘total’:"). */
const STANZA_HEADING = /(?<![\w/.'"`‘-])(?:totals?|summary|overall|statistics)(?![\w(/.'"`’-])[^:\n]{0,40}:?\s*$/i;
const MAX_STANZA = 6;

/** Where a line's words start: its indentation, counting a log prefix of non-letters ("==123== ") as indentation. */
function indentOf(text: string): number {
  const m = /^[^\p{L}]*/u.exec(text)!;
  return m[0].length;
}

/**
 * The lines under a heading that announces totals, with a number on them: the lines indented under
 * it, or (when the next line is not indented deeper) the lines up to the next blank one.
 */
function stanzaLines(lines: Line[]): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const heading = lines[i]!;
    // A heading announces the numbers below it; "total 2756" (ls -l) states its own.
    if (!STANZA_HEADING.test(heading.text) || heading.text.length > 80 || /\d/.test(heading.text.replace(/^[^\p{L}]*/u, ""))) continue;
    const indent = indentOf(heading.text);
    const deeper = i + 1 < lines.length && indentOf(lines[i + 1]!.text) > indent;
    for (let j = i + 1; j < lines.length && j <= i + MAX_STANZA; j++) {
      const l = lines[j]!;
      if (l.line !== lines[j - 1]!.line + 1 || isBlank(l.text.replace(/^[^\p{L}]*/u, ""))) break;
      if (deeper && indentOf(l.text) <= indent) break;
      if (/\d/.test(l.text)) out.add(l.line);
    }
  }
  return out;
}
