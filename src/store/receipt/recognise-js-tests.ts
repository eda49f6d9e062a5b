/**
 * JavaScript test runners: mocha (spec reporter), jest, vitest and bun test. Each says how many
 * tests failed and which, and points at the first error line of each failure.
 */
import { type Finding, isProjectFrame, SCORE } from "./line-score.ts";
import { failedList, type Recogniser, squeeze } from "./recogniser.ts";
import type { Hit, Line, TextView } from "./text-view.ts";

const MAX_FAILURES = 200;
/** Failures whose details are read for their error line. */
const MAX_DETAILS = 40;

/** The first non-blank line among `lines`, as an error finding, plus the first project frame. */
function errorAfter(lines: Line[], skip: (text: string) => boolean = () => false): Finding[] {
  const out: Finding[] = [];
  const first = lines.find((l) => l.text.trim() !== "" && !skip(l.text));
  if (first) out.push({ ...first, score: SCORE.errorLine });
  const frame = lines.find((l) => isProjectFrame(l.text));
  if (frame) out.push({ ...frame, score: SCORE.frame });
  return out;
}

/** Hits of several (needle, line) pairs, in text order. */
function linesOf(v: TextView, pairs: [string, RegExp][], max: number): Hit[] {
  return pairs.flatMap(([needle, re]) => v.scan(needle, re, max).hits).sort((a, b) => a.line - b.line);
}

export const mocha: Recogniser = {
  kind: "mocha",
  detect: (v) => /^ {2}\d+ (?:passing|failing) ?(?:\(|$)/m.test(v.tailText) || /^ {2}\d+ passing \(/m.test(v.headText),
  analyze(v) {
    const counts = linesOf(
      v,
      [
        ["passing", /^ {2}\d+ passing\b/],
        ["failing", /^ {2}\d+ failing\b/],
        ["pending", /^ {2}\d+ pending\b/],
      ],
      4,
    );
    const failingAt = counts.find((c) => / failing/.test(c.text))?.line ?? Number.POSITIVE_INFINITY;
    const summary = [counts.map((c) => c.text.trim()).join(", ")].filter(Boolean);
    const marks = v.scan(") ", /^ {2,}\d+\) \S/, MAX_FAILURES * 2).hits;
    // The spec list names each failure by its title ("  1) title"); the details after "N failing"
    // repeat it under the suite path ("  1) suite" ... "title:"), then the error.
    const listed = marks.filter((h) => h.line < failingAt).map((h) => h.text.trim().replace(/^\d+\) /, ""));
    const details = marks.filter((h) => h.line > failingAt && /^ {2}\d+\) /.test(h.text));
    const important: Finding[] = [];
    const names: string[] = [];
    for (const d of details.slice(0, MAX_DETAILS)) {
      const next = v.after(d, 12);
      const titleEnd = next.findIndex((l) => l.text.trimEnd().endsWith(":"));
      if (titleEnd === -1) continue;
      names.push(next[titleEnd]!.text.trim().replace(/:$/, ""));
      important.push(...errorAfter(next.slice(titleEnd + 1)));
    }
    summary.push(...failedList(listed.length > 0 ? listed : names));
    return { summary, important };
  },
};

export const jest: Recogniser = {
  kind: "jest",
  detect: (v) => /^Tests: +.*\d+ total$/m.test(v.tailText) || (/^(?:PASS|FAIL) \S+\.\w+/m.test(v.headText) && /^Tests: /m.test(v.tailText)),
  analyze(v) {
    const summary = linesOf(
      v,
      [
        ["Tests: ", /^Tests: /],
        ["Test Suites: ", /^Test Suites: /],
      ],
      2,
    )
      .map((h) => squeeze(h.text))
      .reverse();
    const files = v.scan("FAIL ", /^FAIL \S+/, 20);
    if (files.total > 0)
      summary.push(
        `${files.hits
          .slice(0, 4)
          .map((h) => h.text.trim())
          .join(", ")}${files.total > 4 ? `, … (${files.total})` : ""}`,
      );
    const bullets = v.scan("● ", /^ {2}● (?!Console$)\S/, MAX_FAILURES).hits;
    const important: Finding[] = [];
    for (const b of bullets.slice(0, MAX_DETAILS)) {
      const next = v.after(b, 40);
      const end = next.findIndex((l) => /^ {2}● /.test(l.text));
      important.push(...errorAfter(end === -1 ? next : next.slice(0, end)));
    }
    summary.push(...failedList(bullets.map((b) => b.text.trim().slice(2))));
    return { summary, important };
  },
};

export const vitest: Recogniser = {
  kind: "vitest",
  detect: (v) => /^ +Test Files +\d+ /m.test(v.tailText) || /^ RUN +v\d+\.\d+/m.test(v.headText),
  analyze(v) {
    const summary = linesOf(
      v,
      [
        ["Test Files ", /^ +Test Files +\d/],
        ["Tests ", /^ +Tests +\d/],
      ],
      2,
    ).map((h) => squeeze(h.text));
    const fails = v.scan(" FAIL ", /^ FAIL +\S/, MAX_FAILURES).hits;
    const important: Finding[] = [];
    for (const f of fails.slice(0, MAX_DETAILS)) important.push(...errorAfter(v.after(f, 12), (t) => /^\s*[⎯-]+/.test(t)));
    summary.push(...failedList(fails.map((f) => f.text.replace(/^ FAIL +/, "").trim())));
    return { summary, important };
  },
};

export const bunTest: Recogniser = {
  kind: "bun-test",
  detect: (v) => /^bun test v\d/m.test(v.headText) || (/^\(fail\) /m.test(v.tailText) && /^ \d+ fail$/m.test(v.tailText)),
  analyze(v) {
    const counts = linesOf(
      v,
      [
        [" pass", /^ \d+ pass$/],
        [" fail", /^ \d+ fail$/],
        [" skip", /^ \d+ skip$/],
        [" todo", /^ \d+ todo$/],
        ["Ran ", /^Ran \d+ tests? across /],
      ],
      2,
    ).map((h) => h.text.trim());
    const summary = counts.length > 0 ? [counts.join(", ")] : [];
    const fails = v.scan("(fail) ", /^\(fail\) /, MAX_FAILURES).hits;
    summary.push(...failedList(fails.map((f) => f.text.slice(7).replace(/ \[[\d.]+m?s\]$/, ""))));
    // Bun prints the error before the (fail) line: "error: expect(...)" or "TypeError: ...".
    const errors = v.scan("rror: ", /^(?:error: |[A-Z]\w*Error: )/, MAX_DETAILS).hits;
    const important: Finding[] = errors.map((e) => ({ line: e.line, text: e.text, score: SCORE.errorLine }));
    return { summary, important };
  },
};
