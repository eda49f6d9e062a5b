/**
 * Outputs that are listings more than logs: git log, apt-get / apt, dpkg -l. The summary counts
 * what is listed (commits, packages to upgrade or install) and names the first few.
 */
import { type Finding, SCORE } from "./line-score.ts";
import { plural, type Recogniser } from "./recogniser.ts";
import type { Hit, Line, TextView } from "./text-view.ts";

function clip(text: string, max = 110): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Subject of the commit whose "commit <sha>" line is at index `at` of `lines`. */
function subjectAfter(lines: Line[], at: number): string | null {
  for (let i = at + 1; i < Math.min(lines.length, at + 12); i++) {
    if (/^ {4}\S/.test(lines[i]!.text)) return lines[i]!.text.trim();
  }
  return null;
}

const ONELINE = /^[0-9a-f]{7,40} \S/;

/** `git log --oneline`: every one of the first lines is "<short sha> <subject>". */
function isOneline(v: TextView): boolean {
  const lines = v.head().slice(0, 20);
  return lines.length >= 3 && lines.every((l) => ONELINE.test(l.text));
}

function onelineSummary(v: TextView): string[] {
  const n = v.scan(" ", ONELINE, 0).total;
  const newest = v.head()[0]!.text;
  const oldest = v.tail().findLast((l) => ONELINE.test(l.text))?.text;
  return [plural(n, "commit"), `newest: ${clip(newest)}`, ...(oldest && n > 1 ? [`oldest: ${clip(oldest)}`] : [])];
}

export const gitLog: Recogniser = {
  kind: "git-log",
  listing: true,
  detect: (v) => (/^commit [0-9a-f]{40}\b/.test(v.headText) && /^(?:Author|Merge): /m.test(v.headText)) || isOneline(v),
  analyze(v) {
    if (isOneline(v)) return { summary: onelineSummary(v), important: [] };
    const authors = new Set<string>();
    const dates: string[] = [];
    let files = 0;
    let insertions = 0;
    let deletions = 0;
    let stats = 0;
    const n = v.scan("commit ", /^commit [0-9a-f]{40}\b/, 0).total;
    const merges = v.scan("Merge: ", /^Merge: /, 0).total;
    v.scan("Author: ", /^Author: (.*?)(?: <|$)/, 0, ({ m }) => {
      if (authors.size < 1000) authors.add(m[1]!);
    });
    v.scan("Date: ", /^Date: +(.*)$/, 0, ({ m }) => {
      // Keep the first (newest) and the last (oldest) date only.
      if (dates.length === 2) dates[1] = m[1]!;
      else dates.push(m[1]!);
    });
    v.scan(" changed", /^ (\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?/, 0, ({ m }) => {
      stats++;
      files += Number(m[1]);
      insertions += Number(m[2] ?? 0);
      deletions += Number(m[3] ?? 0);
    });
    const summary = [`${plural(n, "commit")}${merges > 0 ? ` (${merges} merges)` : ""} by ${plural(authors.size, "author")}`];
    if (dates.length > 0) summary.push(`newest ${dates[0]}${dates.length > 1 ? `, oldest ${dates.at(-1)}` : ""}`);
    const head = v.head();
    const newest = subjectAfter(
      head,
      head.findIndex((l) => l.text.startsWith("commit ")),
    );
    if (newest) summary.push(`newest: ${clip(newest)}`);
    const tail = [...head, ...v.tail()];
    const lastAt = tail.findLastIndex((l) => /^commit [0-9a-f]{40}/.test(l.text));
    const oldest = lastAt === -1 ? null : subjectAfter(tail, lastAt);
    if (oldest && n > 1) summary.push(`oldest: ${clip(oldest)}`);
    if (stats > 0) summary.push(`${plural(files, "file change")} in all, +${insertions} -${deletions}`);
    return { summary, important: [] };
  },
};

/** The package names listed under an apt header ("The following ... :") on indented lines. */
function aptList(v: TextView, header: Hit): string[] {
  const names: string[] = [];
  for (const l of v.after(header, 400)) {
    if (!/^ {2}\S/.test(l.text)) break;
    names.push(...l.text.trim().split(/\s+/));
  }
  return names;
}

function listLine(label: string, names: string[], max: number): string {
  return `${label} (${names.length}): ${names.slice(0, max).join(" ")}${names.length > max ? " …" : ""}`;
}

export const apt: Recogniser = {
  kind: "apt",
  detect: (v) =>
    /^(?:Reading package lists\.\.\.|WARNING: apt does not have a stable CLI interface)/m.test(v.headText) ||
    /^\d+ upgraded, \d+ newly installed, /m.test(v.tailText) ||
    /^\d+ upgraded, \d+ newly installed, /m.test(v.headText),
  analyze(v) {
    const summary: string[] = [];
    const important: Finding[] = [];
    const verdict = v.scan(" upgraded, ", /^\d+ upgraded, \d+ newly installed, /, 1).hits[0];
    if (verdict) summary.push(verdict.text);
    for (const h of v.scan(
      "The following ",
      /^The following (?:(NEW) packages will be installed|packages will be (upgraded|REMOVED|DOWNGRADED)|held packages will be changed):$/,
      8,
    ).hits) {
      const names = aptList(v, h);
      if (h.m[1]) summary.push(listLine("New", names, 8));
      else if (h.m[2] === "upgraded") summary.push(listLine("Upgraded", names, 12));
      else summary.push(listLine(h.m[2] ? h.m[2].toLowerCase().replace(/^./, (c) => c.toUpperCase()) : "Held changed", names, 12));
    }
    const newest = v.scan(" is already the newest version", /^(\S+) is already the newest version/, 20);
    if (newest.total > 0) summary.push(`Already newest: ${newest.hits.map((h) => h.m[1]).join(", ")}`);
    const errors = [
      ...v.scan("E: ", /^E: /, 20).hits,
      ...v.scan("dpkg: error processing ", /^dpkg: error processing /, 20).hits,
      ...v.scan("Errors were encountered", /^Errors were encountered while processing:$/, 2).hits,
    ].sort((a, b) => a.line - b.line);
    for (const e of errors.slice(0, 3)) summary.push(clip(e.text, 160));
    important.push(...errors.map((e) => ({ line: e.line, text: e.text, score: SCORE.failure })));
    const warnings = v.scan("W: ", /^W: /, 3);
    important.push(...warnings.hits.map((w) => ({ line: w.line, text: w.text, score: SCORE.warning })));
    if (warnings.total > 0) summary.push(plural(warnings.total, "warning (W:)", "warnings (W:)"));
    return { summary, important };
  },
};

const DPKG_STATE: Record<string, string> = { ii: "installed", rc: "removed, config files left", hi: "held", un: "not installed" };

export const dpkg: Recogniser = {
  kind: "dpkg",
  listing: true,
  detect: (v) => /^Desired=Unknown\/Install\/Remove\/Purge\/Hold/m.test(v.headText),
  analyze(v) {
    const states = new Map<string, number>();
    const odd: Hit[] = [];
    // Each package row starts with its state ("ii", "rc", "iU", ...) and two spaces or a flag.
    v.scan("  ", /^([uihrp][ncHUFWtiR ][ R]) +\S/, 0, (hit) => {
      const s = hit.m[1]!.trim();
      states.set(s, (states.get(s) ?? 0) + 1);
      if (s !== "ii" && s !== "un" && odd.length < 20) odd.push(hit);
    });
    const total = [...states.values()].reduce((a, b) => a + b, 0);
    const parts = [...states].sort((a, b) => b[1] - a[1]).map(([s, n]) => `${n} ${s}${DPKG_STATE[s] ? ` (${DPKG_STATE[s]})` : ""}`);
    const summary = [`${plural(total, "package")}: ${parts.join(", ")}`];
    for (const h of odd.slice(0, 5)) summary.push(clip(h.text.replace(/ {2,}/g, " "), 100));
    return { summary, important: odd.map((h) => ({ line: h.line, text: h.text, score: SCORE.cause })) };
  },
};
