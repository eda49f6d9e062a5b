/**
 * Type checkers and linters: tsc (plain and --pretty) and eslint's default (stylish) format.
 * They say how many errors, of which codes or rules, in which files, and show the first of each.
 */
import { formatCount } from "../../units.ts";
import { type Finding, SCORE } from "./line-score.ts";
import { plural, type Recogniser, squeeze } from "./recogniser.ts";
import type { Hit, TextView } from "./text-view.ts";

/** "a ×3, b ×2" for the `max` most frequent keys. */
function topCounts(counts: Map<string, number>, max: number): string {
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const shown = sorted.slice(0, max).map(([k, n]) => `${k} ×${n}`);
  return sorted.length > max ? `${shown.join(", ")}, … (${sorted.length} in all)` : shown.join(", ");
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

// "file(12,5): error TS2322: ..." (plain) or "file:12:5 - error TS2322: ..." (--pretty).
const TSC_LINE = /^([^\s(][^(]*?)(?:\(\d+,\d+\):|:\d+:\d+ -) error (TS\d+): (.*)$/;
const TSC_HINT = /^[^\s(][^(\n]*?(?:\(\d+,\d+\):|:\d+:\d+ -) error TS\d+: /m;
/** "error" then " TS1234", possibly with colour codes between (--pretty). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes start with ESC on purpose
const TSC_NEEDLE = /error(?:\x1b\[[\d;]*m)* TS\d/g;
/** Error lines read for their code and file; past it, errors are only counted. */
const MAX_PARSED = 20_000;
/** Rows of tsc's "Errors  Files" table read at most. */
const MAX_TABLE_ROWS = 5000;

/** Diagnostics whose message names what is missing: the summary lists the names. */
const MISSING: Record<string, [RegExp, string]> = {
  TS2307: [/Cannot find module '([^']+)'/, "Cannot find module"],
  TS2688: [/Cannot find type definition file for '([^']+)'/, "Cannot find type definition file for"],
};

export const tsc: Recogniser = {
  kind: "tsc",
  detect: (v) => TSC_HINT.test(v.headText) || TSC_HINT.test(v.tailText),
  analyze(v) {
    const codes = new Map<string, number>();
    const files = new Map<string, number>();
    const missing = new Map<string, Set<string>>();
    const firstOfCode = new Map<string, Finding>();
    // Every error line is counted; the first MAX_PARSED are read for their code and file.
    const counted = v.scan(TSC_NEEDLE, null, 0).total;
    const { hits, total: parsed } = v.scan(
      TSC_NEEDLE,
      TSC_LINE,
      1,
      ({ m, line, text }) => {
        const [, file, code, message] = m as unknown as [string, string, string, string];
        bump(codes, code);
        bump(files, file);
        const want = MISSING[code]?.[0].exec(message);
        if (want) missing.set(code, (missing.get(code) ?? new Set()).add(`'${want[1]}'`));
        if (!firstOfCode.has(code)) firstOfCode.set(code, { line, text, score: SCORE.errorLine });
      },
      MAX_PARSED,
    );
    const partial = parsed < counted ? ` (in the first ${formatCount(parsed)})` : "";
    const found = v.scan("Found ", /^Found \d+ errors?\b/, 1).hits[0];
    const summary = [
      found
        ? found.text.trim()
        : `${plural(counted, "error")} in ${partial ? "at least " : ""}${plural(files.size, "file")} (counted "error TS" lines).`,
    ];
    if (codes.size > 0) summary.push(`Codes${partial}: ${topCounts(codes, 5)}`);
    // tsc --pretty ends with its own "Errors  Files" table: trust it over our count.
    const table = new Map<string, number>();
    if (found) {
      for (const l of v.after(found, MAX_TABLE_ROWS)) {
        const row = /^ +(\d+) {2}(\S+?)(?::\d+)?$/.exec(l.text);
        if (row) table.set(row[2]!, Number(row[1]));
      }
    }
    const byFile = [...(table.size > 0 ? table : files)].sort((a, b) => b[1] - a[1]).slice(0, 3);
    if (byFile.length > 0)
      summary.push(`Errors  Files${table.size > 0 ? "" : partial}: ${byFile.map(([f, n]) => `${n}  ${f}`).join(", ")}`);
    for (const [code, names] of missing) {
      summary.push(
        `${code} ×${codes.get(code)}${partial}: ${MISSING[code]![1]} ${[...names].slice(0, 6).join(", ")}${names.size > 6 ? ", …" : ""}`,
      );
    }
    const important = [...firstOfCode.values()];
    if (hits[0]) important.push({ line: hits[0].line, text: hits[0].text, score: SCORE.failure });
    return { summary, important };
  },
};

// "  12:5  error  'x' is not defined  no-undef" under a line naming the file.
const ESLINT_PROBLEM = /^[ \t]+\d+:\d+[ \t]+(error|warning)[ \t]+.*?[ \t]{2,}(\S+)[ \t]*$/;
const ESLINT_TOTAL = /^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)$/m;

export const eslint: Recogniser = {
  kind: "eslint",
  detect: (v) => ESLINT_TOTAL.test(v.tailText) || /^[ \t]+\d+:\d+[ \t]+(?:error|warning)[ \t]+\S.*[ \t]{2}[\w@/-]+$/m.test(v.headText),
  analyze(v: TextView) {
    const rules = new Map<string, number>();
    const files = new Map<string, number>();
    const firstOfRule = new Map<string, Finding>();
    let file = "";
    let lastLine = -1;
    let errors = 0;
    let warnings = 0;
    const visit = (hit: Hit) => {
      // The first problem of a block sits right under the file's line.
      if (hit.line !== lastLine + 1) file = v.before(hit)?.text.trim() ?? "";
      lastLine = hit.line;
      const isError = hit.m[1] === "error";
      if (isError) errors++;
      else warnings++;
      const rule = hit.m[2]!;
      bump(rules, isError ? rule : `${rule} (warning)`);
      if (file) bump(files, file);
      if (!firstOfRule.has(rule))
        firstOfRule.set(rule, { line: hit.line, text: squeeze(hit.text), score: isError ? SCORE.errorLine : SCORE.warning });
    };
    v.scan(/ (?:error|warning) /g, ESLINT_PROBLEM, 0, visit);
    const total = v.scan("✖ ", new RegExp(ESLINT_TOTAL.source), 1).hits[0];
    const summary = [total ? total.text.trim() : `${plural(errors, "error")}, ${plural(warnings, "warning")}`];
    if (rules.size > 0) summary.push(`Rules: ${topCounts(rules, 6)}`);
    if (files.size > 0) summary.push(`Files: ${topCounts(files, 3)}`);
    return { summary, important: [...firstOfRule.values()] };
  },
};
