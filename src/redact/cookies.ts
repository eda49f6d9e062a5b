/**
 * Session cookies: in `Cookie:` and `Set-Cookie:` headers, `document.cookie` strings and Netscape
 * cookie files (curl's and browsers' `cookies.txt`: seven tab-separated fields, the last the value),
 * a cookie whose name says session or authentication (`sessionid`, `_gitlab_session`,
 * `__Secure-next-auth.session-token`, `remember_token`) has its value redacted. Other cookies
 * (`theme=dark`, analytics ids) stay.
 */
import type { Detector } from "./detector.ts";
import { RANK, type ScanContext } from "./scan-context.ts";

const MAX_LINE = 8192;
const SESSION_NAME =
  /(?:^|[^a-z])(?:sess|session|sessid|sid|auth|token|jwt|remember|login|identity|connect\.sid)|session|sessid|auth_?token/i;
const PAIR = /(?:^|[;,]\s{0,4}|\s)([!#$%&'*+\-.^_`|~0-9A-Za-z]{1,128})=("?)([^;,\s"]{1,4096})\2/g;

function sessionValue(name: string, value: string): boolean {
  return SESSION_NAME.test(name) && value.length >= 16 && !/^(?:deleted|null|undefined|true|false)$/i.test(value);
}

function onHeader(ctx: ScanContext, end: number): void {
  // One reading per line: `cookie` repeated on a long line costs one scan of it.
  if (end < ((ctx.state.get("cookie.until") as number | undefined) ?? 0)) return;
  const text = ctx.text;
  // Cheap first: `:`, `=` or `)` must follow the word (`getCookie(` and `cookieName` are code).
  let after = end;
  while (after - end < 4 && (text.charCodeAt(after) === 32 || text.charCodeAt(after) === 9)) after++;
  const c = text.charCodeAt(after);
  if (c !== 58 && c !== 61 && c !== 41) return;
  const lineEnd = Math.min(ctx.lineEnd(end), end + MAX_LINE);
  ctx.state.set("cookie.until", lineEnd);
  // `Cookie: a=b`, `Set-Cookie: a=b`, `document.cookie = "a=b"` / `=> "a=b"`.
  const head = /^(?:\s{0,4}:|\s{0,4}=>?|\s{0,4}\)?\s{0,4}=)\s{0,4}["'`]?/.exec(text.slice(end, end + 16));
  if (head === null) return;
  const from = end + head[0].length;
  const line = text.slice(from, lineEnd);
  PAIR.lastIndex = 0;
  for (let m = PAIR.exec(line); m !== null; m = PAIR.exec(line)) {
    if (!sessionValue(m[1]!, m[3]!)) continue;
    const at = from + m.index + m[0].length - m[3]!.length - m[2]!.length;
    ctx.add(at, at + m[3]!.length, "session-cookie", RANK.context);
  }
}

/** Netscape cookie file lines: domain, flag, path, secure, expiry, name, value. */
function onCookieFile(ctx: ScanContext, end: number): void {
  const text = ctx.text;
  if (end < ((ctx.state.get("cookie.until") as number | undefined) ?? 0)) return;
  let pos = ctx.lineEnd(end) + 1;
  const limit = Math.min(text.length, pos + ctx.examine(1 << 20));
  while (pos < limit) {
    const lineEnd = Math.min(ctx.lineEnd(pos), limit);
    const fields = text
      .slice(pos, Math.min(lineEnd, pos + MAX_LINE))
      .replace(/\r$/, "")
      .split("\t");
    if (fields.length === 7 && /^\d{1,12}$/.test(fields[4]!)) {
      const value = fields[6]!;
      if (sessionValue(fields[5]!, value)) {
        const at = lineEnd - (text.charCodeAt(lineEnd - 1) === 13 ? 1 : 0) - value.length;
        ctx.add(at, at + value.length, "session-cookie", RANK.context);
      }
    } else if (!(fields.length === 1 && (fields[0] === "" || fields[0]!.startsWith("#")))) break;
    pos = lineEnd + 1;
  }
  ctx.state.set("cookie.until", pos);
}

export const cookies: Detector = {
  name: "cookies",
  hints: ["cookie", "netscape http cookie file"],
  onHit(ctx, start, end, hint) {
    if (hint === "cookie") {
      if (!ctx.covered(start)) onHeader(ctx, end);
    } else onCookieFile(ctx, end);
  },
};
