/**
 * How much a line of output says about what went wrong, by what it is: a failure or error line, an
 * error code, a non-zero exit, a stack frame of the project. Words that only contain "error"
 * (http-errors, libgpg-error, errors.ts), passing tests and zero counts ("0 errors") score nothing.
 */
import type { Line } from "./text-view.ts";

export type Finding = Line & { score: number };

/** Scores: what each kind of line is worth in a receipt. */
export const SCORE = {
  exit: 9,
  failure: 8,
  errorLine: 7,
  errorCode: 5,
  failedWord: 4,
  cause: 3,
  frame: 2,
  errorWord: 2,
  logWarning: 2,
  warning: 1,
} as const;

const PASSING = /^\s*(?:[✓✔√]|\(pass\)|PASS\b|ok\b|passed\b|--- PASS|test .* \.\.\. ok$)/;
const ZERO_COUNT =
  /\b(?:0|no|zero) (?:errors?|failures?|failed|failing|problems?|warnings?|vulnerabilities)\b|\b(?:errors?|failures?|failed|failing|warnings?)(?: count)?\s?[:=]\s?0\b/gi;

/** "Error"-like words standing alone: not part of a package name, path, file or identifier. */
const ALONE_BEFORE = "(?<![\\w@/.$-])";
const ALONE_AFTER = "(?![\\w$-]|\\.\\w|/)";

const RULES: [RegExp, number][] = [
  [
    /\b(?:exit(?:ed)?|returned|ended) (?:with )?(?:a non-zero )?(?:exit )?(?:code|status)[: ]+[1-9]\d*|\bcode: [1-9]\d*, signal\b/i,
    SCORE.exit,
  ],
  [/\b(?:Command|Build|Compilation|Installation) failed\b|\bnon-zero (?:exit|code|status)\b/i, SCORE.exit],
  // make: "make: *** [Makefile:12: main.o] Error 1"
  [/\*\*\* .*\bError [1-9]\d*\b/, SCORE.exit],
  // TAP (testanything.org): "not ok 6 - name" is a failed test point.
  [/^\s*(?:FAIL(?:ED)?|ERROR|FATAL|PANIC)\b|^\s*(?:[✗✕×✖]|\(fail\))\s|--- FAIL\b|^\s*not ok \d/, SCORE.failure],
  [/Traceback \(most recent call last\)|\bpanicked at\b|^panic: |Segmentation fault|core dumped|\bout of memory\b/, SCORE.failure],
  [new RegExp(`${ALONE_BEFORE}(?:[A-Z]\\w*)?(?:Error|Exception)(?: \\[\\w+\\])?: `), SCORE.errorLine],
  [new RegExp(`${ALONE_BEFORE}(?:error|fatal)(?:\\[\\w+\\])?(?::|\\s+TS\\d+)`, "i"), SCORE.errorLine],
  [
    /\b(?:ENOENT|EACCES|EPERM|EEXIST|ENOTDIR|EISDIR|EADDRINUSE|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|ENOSPC|EMFILE|ENOMEM|EPIPE|ELIFECYCLE|ERESOLVE|EINTEGRITY|E40[134]|ERR_[A-Z_]{3,}|TS\d{4,5}|E\d{4})\b/,
    SCORE.errorCode,
  ],
  [new RegExp(`${ALONE_BEFORE}(?:failed|failure|failures|failing|fails)${ALONE_AFTER}`, "i"), SCORE.failedWord],
  [
    /\b(?:cannot|can't|could not|couldn't|unable to|not found|no such file|permission denied|refused|timed out|unreachable|undefined reference|unresolved|violat(?:ed|es|ions?))\b/i,
    SCORE.cause,
  ],
  [new RegExp(`${ALONE_BEFORE}(?:errors?|exception|fatal)${ALONE_AFTER}`, "i"), SCORE.errorWord],
  // A log record at the WARN level (the upper-case level names of syslog, log4j and Python's logging).
  [/(?<![\w.-])(?:WARN|WARNING)(?![\w-])/, SCORE.logWarning],
  [new RegExp(`${ALONE_BEFORE}warn(?:ing)?s?${ALONE_AFTER}`, "i"), SCORE.warning],
  // A compiler's diagnostic in the GNU format ("file:line:column: message", GNU Coding Standards,
  // "Formatting Error Messages") without a severity word is an error (go vet, go build); notes are not.
  [/^\S+:\d+:\d+: (?!note\b|info\b|remark\b)\S/i, SCORE.cause],
];

/** A stack frame in the project's own code (not node internals, node_modules or the stdlib). */
const PROJECT_FRAME =
  /^\s+at (?:.* \()?(?!node:|internal\/|<anonymous>)(?![^)]*node_modules)[^\s()]+:\d+(?::\d+)?\)?$|^\s+File "(?![^"]*(?:site-packages|\/lib\/python))[^"]+", line \d+|^\s+at \.\/\S+:\d+:\d+$/;

/**
 * Pre-filters for a whole-text scan: lines that may score. Small alternations each, because the
 * regex engine searches two-word alternations fast and longer ones several times slower.
 */
export const CANDIDATES: RegExp[] = [
  /error|fail/gi,
  /fatal|panic/gi,
  /exception|traceback/gi,
  /cannot|can't/gi,
  /not found|no such/gi,
  /couldn't|could not/gi,
  /unable to|timed out/gi,
  /denied|refused/gi,
  /violat/gi,
  /WARN/g,
  /exit|code: [1-9]/gi,
  /segmentation|core dumped/gi,
  /killed|out of memory/gi,
  /\bE(?:NOENT|ACCES|PERM|EXIST|CONN|ADDR|TIMEDOUT|NOTFOUND|AI_AGAIN|NOSPC|MFILE|NOMEM|PIPE|LIFECYCLE|RESOLVE|INTEGRITY|RR_)/g,
  /[✗✕×✖]/g,
  /not ok \d/g,
  /:\d+:\d+: /g,
];

export function scoreLine(text: string): number {
  if (PASSING.test(text)) return 0;
  const t = text.includes("0") || /\bno\b/i.test(text) ? text.replace(ZERO_COUNT, "") : text;
  for (const [re, score] of RULES) if (re.test(t)) return score;
  if (PROJECT_FRAME.test(t)) return SCORE.frame;
  return 0;
}

/** Where on the line the words that make it score start (0 when none do): a long line is shown from there. */
export function salientAt(text: string): number {
  if (PASSING.test(text)) return 0;
  const t = text.includes("0") || /\bno\b/i.test(text) ? text.replace(ZERO_COUNT, "") : text;
  for (const [re] of RULES) {
    const m = re.exec(t);
    if (m) return Math.max(0, text.indexOf(m[0]));
  }
  return 0;
}

export function isProjectFrame(text: string): boolean {
  return PROJECT_FRAME.test(text);
}

/**
 * What a line says once its numbers, addresses and spacing are set aside: lines of the same shape
 * ("error: '2 subtests failed'" and "error: '3 subtests failed'") repeat one another in a receipt.
 * A number after a colon stays: it is where ("lib.rs:8:57"), and places are worth telling apart.
 */
export function shapeOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/0x[0-9a-f]+|(?<![:\d])\d+/g, "#")
    .replace(/\s+/g, " ")
    .trim();
}

/** The first finding of each shape, in order. */
export function distinct(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const shape = shapeOf(f.text);
    if (seen.has(shape)) return false;
    seen.add(shape);
    return true;
  });
}

/**
 * The best `max` findings, at most one per line: higher scores first; within a score, either the
 * earliest lines (a tool's first error is usually the cause) or spread over the text (first, last,
 * middle...) so a few picks cover a long log.
 */
export function pick(findings: Finding[], max: number, order: "first" | "spread" = "first"): Finding[] {
  const byLine = new Map<number, Finding>();
  for (const f of findings) {
    const seen = byLine.get(f.line);
    if (!seen || seen.score < f.score) byLine.set(f.line, f);
  }
  const sorted = distinct([...byLine.values()].sort((a, b) => b.score - a.score || a.line - b.line));
  if (order === "first") return sorted.slice(0, max);
  const out: Finding[] = [];
  for (let i = 0; i < sorted.length && out.length < max; ) {
    let j = i;
    while (j < sorted.length && sorted[j]!.score === sorted[i]!.score) j++;
    for (const k of spread(j - i)) {
      if (out.length >= max) break;
      out.push(sorted[i + k]!);
    }
    i = j;
  }
  return out;
}

/** Indices 0..n-1 ordered first, last, middle, quarters... so a few picks cover the range. */
function spread(n: number): number[] {
  if (n <= 2) return [...Array(n).keys()];
  const order = [0, n - 1];
  const seen = new Set(order);
  for (let parts = 2; order.length < n && parts <= 64; parts *= 2) {
    for (let k = 1; k < parts; k += 2) {
      const i = Math.round((k * (n - 1)) / parts);
      if (!seen.has(i)) {
        seen.add(i);
        order.push(i);
      }
    }
  }
  for (let i = 0; i < n; i++) if (!seen.has(i)) order.push(i);
  return order;
}
