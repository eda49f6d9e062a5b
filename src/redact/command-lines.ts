/**
 * Passwords given to commands on their command line, where no `name=` says so: `curl -u user:pw`
 * (`--user`), `sshpass -p pw`, `mysql -ppw`, `docker login -p pw`, `redis-cli -a pw`, and `.netrc`
 * lines (`machine h login u password pw`). A short flag counts only after its command on the same
 * line (`mkdir -p`, `docker run -p 80:80` stay). Context words are remembered as the automaton
 * passes them, so no hit looks backwards further than its own line start.
 */
import { type Detector, indexWithin, isQuote, isSpace } from "./detector.ts";
import { isHarmlessValue } from "./harmless-values.ts";
import { BOUNDARY } from "./keyword-automaton.ts";
import { RANK, type ScanContext } from "./scan-context.ts";

const MAX_VALUE = 512;
const CONTEXT_WORDS = ["curl", "sshpass", "mysql", "mariadb", "docker", "podman", "nerdctl", "login", "redis-cli", "machine"];

/** The argument starting at `at`: a quoted string or a run of non-space characters. */
function argument(ctx: ScanContext, at: number): [number, number] | null {
  const text = ctx.text;
  const lineEnd = ctx.lineEnd(at);
  if (at >= lineEnd) return null;
  const c = text.charCodeAt(at);
  if (isQuote(c)) {
    const close = indexWithin(text, text[at]!, at + 1, Math.min(lineEnd, at + MAX_VALUE));
    if (close === -1) return null;
    return [at + 1, close];
  }
  let end = at;
  while (end < lineEnd && end - at < MAX_VALUE && !isSpace(text.charCodeAt(end)) && text.charCodeAt(end) !== 13) end++;
  return [at, end];
}

function isPassword(value: string): boolean {
  return !isHarmlessValue(value, { cls: "password", quoted: true, numbersAreSecret: true });
}

/** The value after a flag: attached (`-ppw`) or, if allowed, the next argument (`-p pw`). */
function flagValue(ctx: ScanContext, end: number, attached: boolean, separate: boolean): [number, number] | null {
  const text = ctx.text;
  const c = text.charCodeAt(end);
  if (attached && !isSpace(c) && c !== 61 && c !== 10 && c !== 13 && !Number.isNaN(c)) return argument(ctx, end);
  if (c === 61) return argument(ctx, end + 1);
  if (!separate || !isSpace(c)) return null;
  let at = end;
  while (isSpace(text.charCodeAt(at)) && at - end < 8) at++;
  if (text.charCodeAt(at) === 45) return null; // the next flag: no value given (prompts)
  return argument(ctx, at);
}

function redactPassword(ctx: ScanContext, span: [number, number] | null): void {
  if (span && isPassword(ctx.text.slice(span[0], span[1]))) ctx.add(span[0], span[1], "password", RANK.context);
}

/** curl -u user:password: only what follows the first colon is secret. */
function onCurlUser(ctx: ScanContext, end: number, attached: boolean): void {
  const span = flagValue(ctx, end, attached, true);
  if (span === null) return;
  const colon = indexWithin(ctx.text, ":", span[0], span[1]);
  if (colon === -1) return;
  redactPassword(ctx, [colon + 1, span[1]]);
}

const NETRC_WORDS = new Set(["machine", "login", "account", "default"]);

/** Reading backwards from `pos`: spaces, one argument, spaces, then a .netrc keyword (`login bob password`). */
function afterNetrcWord(text: string, lineStart: number, pos: number): boolean {
  let i = pos;
  const floor = Math.max(lineStart, pos - 300);
  const skip = (space: boolean): number => {
    const from = i;
    while (i > floor && isSpace(text.charCodeAt(i - 1)) === space) i--;
    return from - i;
  };
  for (let round = 0; round < 2; round++) {
    if (skip(true) === 0) return false;
    const wordEnd = i;
    if (skip(false) === 0) return false;
    if (NETRC_WORDS.has(text.slice(i, wordEnd)) && (i === lineStart || isSpace(text.charCodeAt(i - 1))))
      return round === 1 || text.slice(i, wordEnd) === "default";
  }
  return false;
}

/** `machine h login u password pw`, or `password pw` alone on a line of a .netrc file. */
function onNetrcPassword(ctx: ScanContext, start: number, end: number): void {
  const text = ctx.text;
  if (!isSpace(text.charCodeAt(end))) return;
  const lineStart = ctx.lineStart(start);
  if (start > lineStart && !isSpace(text.charCodeAt(start - 1))) return;
  // Alone on its line, `password x` is .netrc only right after a `machine` or `login` line.
  const alone = text.slice(lineStart, start).trim() === "";
  if (alone) {
    const machine = Math.max(ctx.seen("machine"), ctx.seen("login"));
    if (machine === -1 || start - machine > 300) return;
  } else if (!afterNetrcWord(text, lineStart, start)) return;
  let at = end;
  while (isSpace(text.charCodeAt(at)) && at - end < 8) at++;
  const span = argument(ctx, at);
  if (span === null) return;
  // After the value the line ends or goes on with .netrc words; anything else is prose ("default password for files").
  let rest = span[1];
  while (rest < ctx.lineEnd(at) && (isSpace(text.charCodeAt(rest)) || text.charCodeAt(rest) === 13)) rest++;
  if (rest !== ctx.lineEnd(at) && !/^(?:machine|login|account|macdef|default)\s/.test(text.slice(rest, rest + 8))) return;
  redactPassword(ctx, span);
}

export const commandLines: Detector = {
  name: "command-lines",
  hints: [...CONTEXT_WORDS, `${BOUNDARY}-u`, "--user", `${BOUNDARY}-p`, `${BOUNDARY}-a`, `${BOUNDARY}password`, `${BOUNDARY}passwd`],
  onHit(ctx, start, end, hint) {
    const text = ctx.text;
    if (CONTEXT_WORDS.includes(hint)) {
      ctx.see(hint, start);
      return;
    }
    if (ctx.covered(start)) return;
    if (hint.endsWith("password") || hint.endsWith("passwd")) {
      onNetrcPassword(ctx, start, end);
      return;
    }
    if (hint === "--user") {
      if (ctx.seenOnLine("curl", start) !== -1) onCurlUser(ctx, end, false);
      return;
    }
    const flag = text[start + 1];
    if (flag === "u" && ctx.seenOnLine("curl", start) !== -1) onCurlUser(ctx, end, true);
    else if (flag === "p") {
      if (ctx.seenOnLine("sshpass", start) !== -1) redactPassword(ctx, flagValue(ctx, end, true, true));
      else if (ctx.seenOnLine("mysql", start) !== -1 || ctx.seenOnLine("mariadb", start) !== -1)
        redactPassword(ctx, flagValue(ctx, end, true, false));
      else if (ctx.seenOnLine("login", start) !== -1 && ["docker", "podman", "nerdctl"].some((w) => ctx.seenOnLine(w, start) !== -1))
        redactPassword(ctx, flagValue(ctx, end, false, true));
    } else if (flag === "a" && ctx.seenOnLine("redis-cli", start) !== -1) redactPassword(ctx, flagValue(ctx, end, true, true));
  },
};
