/**
 * Package managers: npm (plain and --verbose, npm 6 "ERR!" too), pnpm and yarn. They say which
 * package's script failed, the command, its exit code, and the lines that give the cause.
 */
import { type Finding, SCORE, scoreLine } from "./line-score.ts";
import { plural, type Recogniser, squeeze } from "./recogniser.ts";
import type { Line, TextView } from "./text-view.ts";

const MAX_CAUSES = 6;

/** "…/node_modules/.pnpm/x@1/node_modules/@scope/name" -> "@scope/name". */
export function packageOfPath(path: string): string {
  const m = /node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\/?$/.exec(path);
  return m ? m[1]! : path;
}

/** The path from "node_modules/" on, which reads the same on every machine. */
function shortPath(path: string): string {
  const i = path.indexOf("node_modules/");
  return i === -1 ? path : path.slice(i);
}

function clip(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Lines in an error block that say why: scored, never above the lines that say what failed. */
function causes(hits: Line[], strip: RegExp, skip: RegExp): Finding[] {
  const out: Finding[] = [];
  for (const h of hits) {
    const rest = h.text.replace(strip, "");
    if (skip.test(rest)) continue;
    const score = Math.min(scoreLine(rest), SCORE.errorLine);
    if (score >= SCORE.cause) out.push({ line: h.line, text: h.text, score });
  }
  return out.sort((a, b) => b.score - a.score || a.line - b.line).slice(0, MAX_CAUSES);
}

const NPM_BLOCK_SKIP = /^(?:code|path|command|errno|syscall|A complete log|gyp (?:verb|info)|gyp ERR! stack +at |\s*at )/;

function npmAnalyze(v: TextView) {
  const summary: string[] = [];
  const important: Finding[] = [];
  // --verbose: "npm info run <pkg@ver> <event> <path> <command>", then "... { code: N, signal: S }".
  const commands = new Map<string, { path: string; command: string }>();
  for (const h of v.scan("npm info run ", /^npm info run (\S+) (\w+) (?!\{)(\S+) (.*)$/, 2000).hits) {
    commands.set(`${h.m[1]} ${h.m[2]}`, { path: h.m[3]!, command: h.m[4]! });
  }
  const failedRuns = v.scan("npm info run ", /^npm info run (\S+) (\w+) \{ code: ([1-9]\d*), signal: (\S+) \}$/, 10).hits;
  for (const f of failedRuns.slice(0, 3)) {
    const run = commands.get(`${f.m[1]} ${f.m[2]}`);
    summary.push(`Failed: ${f.m[1]} ${f.m[2]} script${run ? ` (${shortPath(run.path)})` : ""}, code: ${f.m[3]}, signal: ${f.m[4]}`);
    if (run) summary.push(`Command: ${clip(run.command)}`);
    important.push({ line: f.line, text: f.text, score: SCORE.exit });
  }
  // The error block: "npm error code 1" / "npm error path ..." / "npm error command sh -c ..." (npm 7+), "npm ERR!" (npm 6).
  const block = [...v.scan("npm error ", /^npm error /, 4000).hits, ...v.scan("npm ERR! ", /^npm ERR! /, 4000).hits].sort(
    (a, b) => a.line - b.line,
  );
  const field = (name: string) => block.find((h) => new RegExp(`^npm (?:error|ERR!) ${name} `).test(h.text));
  const code = field("code");
  const path = field("path");
  const command = block.find((h) => /^npm (?:error|ERR!) command (?!failed$)/.test(h.text));
  const failedAt = block.find((h) => /^npm ERR! Failed at the \S+ \w+ script/.test(h.text));
  if (failedRuns.length === 0 && (path || failedAt)) {
    const what = failedAt ? failedAt.text.replace(/^npm ERR! /, "") : `Failed: ${packageOfPath(path!.text.replace(/^npm \S+ path /, ""))}`;
    summary.push(`${what}${path ? ` (${shortPath(path.text.replace(/^npm \S+ path /, ""))})` : ""}`);
    if (command) summary.push(`Command: ${clip(command.text.replace(/^npm \S+ command (?:sh -c )?/, ""))}`);
  }
  if (code) {
    const c = code.text.replace(/^npm \S+ code /, "");
    if (!/^\d+$/.test(c)) summary.push(`npm error code ${c}`);
    else if (failedRuns.length === 0) summary.push(`npm error code ${c} (the script's exit code)`);
    important.push({ line: code.line, text: code.text, score: SCORE.errorCode });
  }
  for (const h of [path, command]) if (h) important.push({ line: h.line, text: h.text, score: SCORE.errorCode });
  const why = causes(block, /^npm (?:error|ERR!) /, NPM_BLOCK_SKIP);
  if (!code && why[0]) summary.push(clip(why[0].text.replace(/^npm (?:error|ERR!) /, "")));
  important.push(...why);
  const exit = v.scan("npm verbose exit ", /^npm verbose exit (\d+)$/, 1).hits[0];
  if (exit) summary.push(`npm exit code ${exit.m[1]}`);
  const done = [
    ...v.scan(/added|up to date/g, /^(?:added|removed|changed|up to date) /, 2).hits,
    ...v.scan("vulnerabilit", /^(?:found \d+|\d+ \w*\s?)vulnerabilit/, 2).hits,
  ];
  summary.push(...done.map((h) => h.text));
  const deprecated = v.scan("npm warn deprecated ", /^npm warn deprecated (\S+)/, 3);
  if (deprecated.total > 0)
    summary.push(
      `${plural(deprecated.total, "deprecation warning")}: ${deprecated.hits.map((h) => h.m[1]).join(", ")}${deprecated.total > 3 ? ", …" : ""}`,
    );
  return { summary, important };
}

export const npm: Recogniser = {
  kind: "npm",
  detect: (v) =>
    (v.headText.match(/^npm (?:verbose|info|http|warn|notice|error|ERR!) /gm)?.length ?? 0) >= 3 ||
    /^npm (?:error|ERR!) /m.test(v.tailText) ||
    /^(?:added|removed|changed|up to date)\b.*\bpackages?\b/m.test(v.tailText),
  analyze: npmAnalyze,
};

export const pnpm: Recogniser = {
  kind: "pnpm",
  detect: (v) =>
    /^(?:Progress: resolved \d+|Packages: [+-]\d+|Lockfile is up to date|Already up to date)/m.test(v.headText) ||
    /(?:^|[^\S\n])(?:ELIFECYCLE|ERR_PNPM_[A-Z_]+)[^\S\n]/m.test(v.tailText),
  analyze(v) {
    const summary: string[] = [];
    const important: Finding[] = [];
    const commands = new Map<string, string>();
    for (const h of v.scan("$ ", /^(\S*node_modules\/\S+) (\w+)\$ (.*)$/, 500).hits) commands.set(`${h.m[1]} ${h.m[2]}`, h.m[3]!);
    for (const f of v.scan(": Failed", /^(\S*node_modules\/\S+) (\w+): Failed$/, 10).hits.slice(0, 3)) {
      summary.push(`Failed: ${packageOfPath(f.m[1]!)} ${f.m[2]} script (${shortPath(f.m[1]!)})`);
      const command = commands.get(`${f.m[1]} ${f.m[2]}`);
      if (command) summary.push(`Command: ${clip(command)}`);
      important.push({ line: f.line, text: f.text, score: SCORE.failure });
    }
    // pnpm pads its error codes with thin spaces (U+2009).
    const verdicts = [...v.scan("ELIFECYCLE", /^\s?ELIFECYCLE\s/, 2).hits, ...v.scan("ERR_PNPM_", /^\s?ERR_PNPM_[A-Z_]+\s/, 2).hits];
    for (const h of verdicts) {
      summary.push(squeeze(h.text));
      important.push({ line: h.line, text: h.text, score: SCORE.exit });
    }
    important.push(...causes(v.scan("node_modules/", /^\S*node_modules\/\S+ \w+: (?!Failed$)/, 2000).hits, /^\S+ \w+: /, /^$/));
    summary.push(...[...v.scan("Packages: ", /^Packages: [+-]\d+/, 1).hits, ...v.scan("Done in ", /^Done in /, 1).hits].map((h) => h.text));
    return { summary, important };
  },
};

export const yarn: Recogniser = {
  kind: "yarn",
  detect: (v) =>
    /^yarn (?:install|add|run|upgrade|remove) v\d|^\[\d\/\d\] (?:Resolving|Fetching|Linking|Building)|^➤ YN\d{4}: /m.test(v.headText) ||
    /^info Visit https:\/\/yarnpkg\.com/m.test(v.tailText),
  analyze(v) {
    const summary: string[] = [];
    const important: Finding[] = [];
    const errors = [
      ...v.scan("error ", /^error /, 40).hits,
      ...v.scan("➤ YN", /^➤ YN\d{4}: .*(?:exit code \d+|[Ff]ailed|[Ee]rror)/, 40).hits,
    ].sort((a, b) => a.line - b.line);
    for (const e of errors.slice(0, 3)) {
      const script = /^error (.*node_modules\/\S+): Command failed\.$/.exec(e.text);
      if (script) {
        const next = v.after(e, 6);
        const exit = next.find((l) => /^Exit code: \d+$/.test(l.text));
        summary.push(`Failed: ${packageOfPath(script[1]!)} (${shortPath(script[1]!)})${exit ? `, ${exit.text}` : ""}`);
        const command = next.find((l) => /^Command: /.test(l.text));
        if (command) summary.push(clip(command.text));
      } else summary.push(clip(e.text));
      important.push({ line: e.line, text: e.text, score: SCORE.failure });
    }
    const output = v.scan("Output:", /^Output:$/, 1).hits[0];
    if (output) important.push(...causes(v.after(output, 40), /^/, /^$/));
    const warnings = v.scan("warning ", /^warning /, 0).total;
    if (warnings > 0) summary.push(plural(warnings, "warning"));
    summary.push(...[...v.scan("success ", /^success /, 1).hits, ...v.scan("Done in ", /^Done in /, 1).hits].map((h) => h.text));
    return { summary, important };
  },
};
