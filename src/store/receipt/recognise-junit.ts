/**
 * JUnit XML test reports (the format of Ant's JUnit task that pytest, ctest, Maven Surefire, node
 * --test, bun test and most CI tools write): the root element's counts as written, the failing
 * and erroring test cases with their messages, and the skipped ones with their reasons.
 */
import { SCORE } from "./line-score.ts";
import type { Recogniser } from "./recogniser.ts";
import { tallyFindings } from "./tally.ts";

const MAX_CASES = 5000;
const MAX_LISTED = 8;
/**
 * An element's attributes: ">" may stand unescaped inside a quoted value, "<" never may (XML 1.0,
 * AttValue), so a tag's attributes end at the next "<" at the latest: every scan stays linear.
 */
const ATTRS = `((?:[^<>"]|"[^"<]*")*?)`;
/** The first suite element that carries counts (a bare <testsuites> root does not). */
const SUITE = new RegExp(`<(testsuites|testsuite)\\b${ATTRS}\\s*(/?>)`, "g");
const CASE = new RegExp(`<testcase\\b${ATTRS}\\s*(/>|>)`, "g");
const OUTCOME = new RegExp(`<(failure|error|skipped)\\b${ATTRS}\\s*(?:/>|>([^<]{0,400}))`);
/** Attributes the root's counts are read from, as JUnit writes them. */
const COUNTS = ["tests", "failures", "errors", "skipped", "disabled", "assertions", "time", "timestamp"];

function attr(attrs: string, name: string): string | null {
  const m = new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attrs);
  return m ? m[1]! : null;
}

function decode(text: string): string {
  return text
    .replace(/&#10;|&#xA;/gi, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export const junit: Recogniser = {
  kind: "junit-xml",
  detect: (v) => /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[^>]*-->\s*)?<testsuites?\b/.test(v.headText),
  analyze(v) {
    const text = v.text;
    const summary: string[] = [];
    const head = text.slice(0, 64 * 1024);
    let root: RegExpExecArray | null = null;
    SUITE.lastIndex = 0;
    for (let m = SUITE.exec(head); m && !root; m = SUITE.exec(head)) if (attr(m[2]!, "tests") !== null) root = m;
    if (root) {
      const counts = COUNTS.map((n) => [n, attr(root[2]!, n)] as const).filter(([, value]) => value !== null);
      const name = attr(root[2]!, "name");
      summary.push(`<${root[1]}${name ? ` name="${name}"` : ""} ${counts.map(([n, value]) => `${n}="${value}"`).join(" ")}>`);
    }
    const failed: string[] = [];
    const skipped: string[] = [];
    let cases = 0;
    CASE.lastIndex = 0;
    for (let m = CASE.exec(text); m && cases < MAX_CASES; m = CASE.exec(text)) {
      cases++;
      if (m[2] === "/>") continue;
      const end = text.indexOf("</testcase>", CASE.lastIndex);
      const body = text.slice(CASE.lastIndex, end === -1 ? CASE.lastIndex + 4096 : Math.min(end, CASE.lastIndex + 64 * 1024));
      const outcome = OUTCOME.exec(body);
      if (!outcome) continue;
      const who = decode([attr(m[1]!, "classname"), attr(m[1]!, "name")].filter(Boolean).join(" "));
      const why = decode(attr(outcome[2]!, "message") || outcome[3] || attr(outcome[2]!, "type") || "");
      const line = `${who}${why ? `: ${clip(why, 120)}` : ""}`;
      if (outcome[1] === "skipped") skipped.push(line);
      else failed.push(`${outcome[1]}: ${line}`);
    }
    summary.push(`${cases} test cases: ${failed.length} failed or errored, ${skipped.length} skipped`);
    const listed = [...new Set(failed)];
    summary.push(...listed.slice(0, MAX_LISTED).map((f) => `✗ ${f}`));
    if (listed.length > MAX_LISTED) summary.push(`… and ${listed.length - MAX_LISTED} more`);
    summary.push(...skipped.slice(0, 3).map((s) => `skipped: ${s}`));
    // Messages in the body ("E   KeyError") and the totals some runners add as comments at the end.
    const important = [
      ...v
        .scan("Error", /^\s*(?:E\s+)?\w*(?:Error|Exception)\b:? /, 12)
        .hits.map((h) => ({ line: h.line, text: h.text, score: SCORE.errorLine })),
      ...tallyFindings(v),
    ];
    return { summary, important };
  },
};
