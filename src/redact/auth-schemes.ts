/**
 * HTTP credentials: the value of an `Authorization:` (or `Proxy-Authorization:`) header whatever its
 * scheme, and `Bearer <token>` / `Basic <base64>` wherever they appear (curl -H, logs, JSON), in
 * any letter case. "Basic authentication failed" stays: a Basic credential must decode to
 * `user:password`, and a bearer token must look made up.
 */
import { type Detector, indexWithin, isQuote, isSpace } from "./detector.ts";
import { decodesToUserPassword, isHarmlessValue, isReference, looksLikeCode, looksRandom } from "./harmless-values.ts";
import { BOUNDARY } from "./keyword-automaton.ts";
import { RANK, type ScanContext } from "./scan-context.ts";

const MAX_CREDENTIAL = 8192;

function isCredentialChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 45 || // -
    code === 46 || // .
    code === 95 || // _
    code === 126 || // ~
    code === 43 || // +
    code === 47 || // /
    code === 61 // =
  );
}

/** The token that starts at `from`: [from, end). */
function tokenEnd(text: string, from: number): number {
  let i = from;
  const limit = Math.min(text.length, from + MAX_CREDENTIAL);
  while (i < limit && isCredentialChar(text.charCodeAt(i))) i++;
  return i;
}

function skipSpaces(text: string, from: number, max: number): number {
  let i = from;
  while (i - from < max && isSpace(text.charCodeAt(i))) i++;
  return i;
}

function madeUp(token: string): boolean {
  if (token.length < 8 || isReference(token)) return false;
  if (token.split(".").length === 3 && token.startsWith("eyJ")) return true;
  let classes = 0;
  if (/[a-z]/.test(token)) classes++;
  if (/[A-Z]/.test(token)) classes++;
  if (/[0-9]/.test(token)) classes++;
  return classes >= 2 && (/[0-9]/.test(token) || looksRandom(token)) && !/^[A-Za-z]+(?:[-_][A-Za-z]+)*$/.test(token);
}

function onBearer(ctx: ScanContext, end: number): void {
  const text = ctx.text;
  const at = skipSpaces(text, end, 4);
  if (at === end) return;
  const stop = tokenEnd(text, at);
  if (madeUp(text.slice(at, stop))) ctx.add(at, stop, "bearer-token", RANK.context);
}

function onBasic(ctx: ScanContext, end: number): void {
  const text = ctx.text;
  const at = skipSpaces(text, end, 4);
  if (at === end) return;
  const stop = tokenEnd(text, at);
  if (decodesToUserPassword(text.slice(at, stop))) ctx.add(at, stop, "basic-auth", RANK.context);
}

/** `Authorization: <scheme> <credentials>`: everything after the scheme up to the end of the value is secret. */
function onAuthorization(ctx: ScanContext, end: number): void {
  const text = ctx.text;
  let p = end;
  if (isQuote(text.charCodeAt(p))) p++;
  p = skipSpaces(text, p, 4);
  const sep = text.charCodeAt(p);
  if (sep !== 58 && sep !== 61) return;
  p = skipSpaces(text, p + 1, 8);
  const quote = text.charCodeAt(p);
  if (isQuote(quote)) p++;
  const lineEnd = ctx.lineEnd(p);
  let valueEnd = Math.min(lineEnd, p + MAX_CREDENTIAL);
  if (isQuote(quote)) {
    const close = indexWithin(text, String.fromCharCode(quote), p, valueEnd);
    if (close !== -1) valueEnd = close;
  }
  while (valueEnd > p && (isSpace(text.charCodeAt(valueEnd - 1)) || text.charCodeAt(valueEnd - 1) === 13)) valueEnd--;
  if (valueEnd <= p) return;
  // A scheme word (Bearer, Basic, token, Digest, AWS4-HMAC-SHA256) stays visible. After Bearer-like
  // schemes the credential is one token; Digest and AWS4 list parameters up to the end of the value.
  let credential = p;
  const first = tokenEnd(text, p);
  if (first < valueEnd && isSpace(text.charCodeAt(first)) && /^[A-Za-z][A-Za-z0-9-]{1,30}$/.test(text.slice(p, first))) {
    credential = skipSpaces(text, first, 8);
    // Basic credentials are base64 of user:password; anything else after Basic is not one.
    if (/^basic$/i.test(text.slice(p, first)) && !decodesToUserPassword(text.slice(credential, tokenEnd(text, credential)))) return;
    if (!/^(?:digest|aws4-hmac-sha256|signature|hawk|oauth)$/i.test(text.slice(p, first)))
      valueEnd = Math.min(valueEnd, tokenEnd(text, credential));
  } else if (!isQuote(quote)) {
    valueEnd = Math.min(valueEnd, first);
  }
  const value = text.slice(credential, valueEnd);
  if (value.length < 4 || isReference(value) || /^(?:required|missing|invalid|none|null|header)\b/i.test(value)) return;
  // Code that builds the header (`authorization: creds.token_type + ' ' + token`, `withPrefix(token)`,
  // `authorization = authorization[1].encode()`), or a scheme alone.
  if (!isQuote(quote)) {
    const expression = text.slice(p, valueEnd);
    if (looksLikeCode(expression.split(/\s/)[0]!.replace(/[,;)]+$/, ""))) return;
    if (/^[A-Za-z_$][\w$]*\s*(?:\+|[,;)]*$)/.test(expression) && !madeUp(value.replace(/[,;)]+$/, ""))) return;
  }
  if (/^(?:bearer|basic|token|digest|negotiate|bot)$/i.test(value)) return;
  if (isHarmlessValue(value, { cls: "secret", quoted: true, numbersAreSecret: false })) return;
  // A plain word or two (`Authorization: see below`) is prose, not a credential.
  if (/^[a-z]+(?: [a-z]+)?$/.test(value)) return;
  ctx.add(credential, valueEnd, "authorization", RANK.context);
}

export const authSchemes: Detector = {
  name: "auth-schemes",
  hints: [`${BOUNDARY}bearer`, `${BOUNDARY}basic`, "authorization"],
  onHit(ctx, start, end, hint) {
    const text = ctx.text;
    if (hint === "authorization") {
      // The header name itself, not "unauthorization" (what follows is checked for a separator).
      if (start > 0 && /[A-Za-z_]/.test(text[start - 1]!)) return;
      onAuthorization(ctx, end);
      return;
    }
    if (end < text.length && !isSpace(text.charCodeAt(end))) return;
    if (hint.endsWith("bearer")) onBearer(ctx, end);
    else onBasic(ctx, end);
  },
};
