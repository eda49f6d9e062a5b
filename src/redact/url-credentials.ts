/**
 * Credentials inside URLs: `scheme://user:password@host` (any scheme: https, postgres, redis://:pw@,
 * mongodb+srv, amqp, jdbc:mysql...), a token as the user (`https://<token>@host`, Sentry DSNs,
 * `https://<token>:x-oauth-basic@github.com`), and webhook URLs whose path is the secret (Discord,
 * Microsoft Teams). The user name and host stay readable.
 */
import { type Detector, isTokenChar } from "./detector.ts";
import { isReference, looksRandom } from "./harmless-values.ts";
import { BOUNDARY } from "./keyword-automaton.ts";
import { RANK, type ScanContext } from "./scan-context.ts";

const MAX_AUTHORITY = 512;
/** Passwords that only stand for one (documentation, templates). */
const PLACEHOLDER_PASSWORDS = new Set(["password", "pass", "passwd", "pwd", "secret", "pw", "changeme", "xxx", "****", "...", "token"]);

function isSchemeChar(code: number): boolean {
  return isTokenChar(code) || code === 43 || code === 45 || code === 46;
}

/** Characters that end a URL's authority part. */
function endsAuthority(code: number): boolean {
  return (
    code === 47 ||
    code === 63 ||
    code === 35 ||
    code <= 32 ||
    code === 34 ||
    code === 39 ||
    code === 96 ||
    code === 60 ||
    code === 62 ||
    code === 92
  );
}

function onUrl(ctx: ScanContext, slashes: number): void {
  const text = ctx.text;
  if (slashes < 1 || text.charCodeAt(slashes - 1) !== 58) return; // "://"
  let scheme = slashes - 1;
  while (scheme > 0 && slashes - scheme < 32 && isSchemeChar(text.charCodeAt(scheme - 1))) scheme--;
  if (scheme === slashes - 1) return;
  const from = slashes + 2;
  let end = from;
  let at = -1;
  const limit = Math.min(text.length, from + MAX_AUTHORITY);
  for (; end < limit; end++) {
    const c = text.charCodeAt(end);
    if (endsAuthority(c)) break;
    if (c === 64) at = end;
  }
  if (at === -1) return;
  if (text.slice(from, at).includes("[REDACTED:")) return; // already redacted
  let colon = -1;
  for (let i = from; i < at; i++) {
    if (text.charCodeAt(i) === 58) {
      colon = i;
      break;
    }
  }
  if (colon !== -1) {
    const password = text.slice(colon + 1, at);
    if (password === "x-oauth-basic" || password === "x-oauth-token") {
      ctx.add(from, colon, "url-token", RANK.context);
      return;
    }
    if (password === "" || isReference(password) || PLACEHOLDER_PASSWORDS.has(password.toLowerCase())) return;
    ctx.add(colon + 1, at, "password", RANK.context);
    return;
  }
  // A user with no password is a secret only when it is a made-up token (Sentry DSN key, a PAT).
  const user = text.slice(from, at);
  if (looksRandom(user)) {
    const host = text.slice(at + 1, end).toLowerCase();
    ctx.add(from, at, host.includes("sentry") ? "sentry-dsn" : "url-token", RANK.context);
  }
}

/** `.../api/webhooks/<id>/<token>` and `.../webhookb2/<path>`: the path after the marker is the secret. */
function onWebhookPath(ctx: ScanContext, end: number): void {
  const text = ctx.text;
  const limit = Math.min(text.length, end + 1024);
  let stop = end;
  for (; stop < limit; stop++) {
    const c = text.charCodeAt(stop);
    if (c !== 47 && endsAuthority(c)) break;
  }
  if (stop - end >= 20) ctx.add(end, stop, "webhook-url", RANK.context);
}

export const urlCredentials: Detector = {
  name: "url-credentials",
  hints: [`${BOUNDARY}//`, "discord.com/api/webhooks/", "discordapp.com/api/webhooks/", ".webhook.office.com/webhookb2/"],
  onHit(ctx, start, end, hint) {
    if (hint.endsWith("//")) onUrl(ctx, start);
    else onWebhookPath(ctx, end);
  },
};
