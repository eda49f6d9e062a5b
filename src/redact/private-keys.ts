/**
 * Private keys: PEM blocks (`-----BEGIN ... PRIVATE KEY-----`, also with escaped `\n` inside JSON,
 * also cut off before the END line), PuTTY key files (the Private-Lines body and the MAC) and
 * base64-encoded PEM (Kubernetes `tls.key: LS0tLS1CRUdJTi...`), base64-encoded JSON key files (a GCP
 * service account in a CI variable). Header and footer lines stay, the
 * body becomes one marker followed by its newlines, so the line count is kept.
 */
import { type Detector, isSpace } from "./detector.ts";
import { RANK, type ScanContext } from "./scan-context.ts";

/** Longest key body read (an RSA-16384 PEM is about 13 KB). */
const MAX_BODY = 65536;
const PEM_LABEL = /^-----BEGIN ([A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?|OpenVPN Static key V1)-----/;

function isBase64Char(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 43 || code === 47 || code === 61
  );
}

const ARMOUR_HEADER = /^(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset):/;

/**
 * The key material after a PEM header that ends at `headerEnd`: base64 lines, armour headers
 * (`Proc-Type:`, `Version:`), blank lines and escaped `\n`, up to the `-----END` line or to wherever
 * the text was cut off. Scans stop at the first other character, so a long text is read once.
 */
export function pemBody(ctx: ScanContext, headerEnd: number): [number, number] | null {
  const text = ctx.text;
  let start = headerEnd;
  if (text.startsWith("\r\n", start)) start += 2;
  else if (text.charCodeAt(start) === 10) start += 1;
  else if (text.startsWith("\\n", start)) start += 2;
  let stop = start;
  const limit = Math.min(text.length, start + MAX_BODY);
  let lineStart = start;
  let armour = false;
  for (let i = start; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      lineStart = i + 1;
      armour = false;
      continue;
    }
    if (c === 13 || isSpace(c)) continue;
    if (isBase64Char(c) || c === 92) {
      stop = i + 1;
      continue;
    }
    if (!armour && i - lineStart <= 10 && ARMOUR_HEADER.test(text.slice(lineStart, lineStart + 10))) armour = true;
    if (armour) {
      stop = i + 1;
      continue;
    }
    break;
  }
  if (text.startsWith("\\n", stop - 2)) stop -= 2;
  if (stop <= start || text.startsWith("[REDACTED:", start)) return null;
  // Documentation placeholders (`XXXX\nXXXX`, `...`) are not key material.
  const material = text.slice(start, Math.min(stop, start + 256)).replace(/\\n|[^A-Za-z0-9+/]/g, "");
  if (material.length < 24 || /^(.)\1*$/.test(material.replace(/\\n/g, ""))) return null;
  return [start, stop];
}

function onPem(ctx: ScanContext, start: number): void {
  const head = ctx.text.slice(start, start + 80);
  const m = PEM_LABEL.exec(head);
  if (m === null) return;
  const body = pemBody(ctx, start + m[0].length);
  if (body) ctx.add(body[0], body[1], "private-key", RANK.format);
}

/** PuTTY: `Private-Lines: N` then N lines of key; `Private-MAC:` / `Private-Hash:` then hex. */
function onPutty(ctx: ScanContext, end: number, hint: string): void {
  const text = ctx.text;
  if (text.charCodeAt(end) !== 58) return;
  if (hint === "private-lines") {
    const m = /^: ?(\d{1,5})\r?\n/.exec(text.slice(end, end + 12));
    if (m === null) return;
    const from = end + m[0].length;
    let stop = from;
    for (let n = Number(m[1]); n > 0 && stop < text.length && stop - from < MAX_BODY; n--) {
      const nl = text.indexOf("\n", stop);
      stop = nl === -1 ? text.length : nl + 1;
    }
    // The last line's newline stays outside the marker.
    if (text.charCodeAt(stop - 1) === 10) stop--;
    if (text.charCodeAt(stop - 1) === 13) stop--;
    if (stop > from && !text.startsWith("[REDACTED:", from)) ctx.add(from, stop, "private-key", RANK.format);
    return;
  }
  let from = end + 1;
  while (isSpace(text.charCodeAt(from))) from++;
  let stop = from;
  while (stop < text.length && stop - from < 256 && isBase64Char(text.charCodeAt(stop))) stop++;
  if (stop - from >= 16) ctx.add(from, stop, "private-key", RANK.format);
}

/** base64 of "-----BEGIN ...PRIVATE KEY-----" (a Kubernetes secret, a CI variable). */
function onEncodedPem(ctx: ScanContext, start: number): void {
  const text = ctx.text;
  let stop = start;
  while (stop < text.length && stop - start < MAX_BODY * 2 && isBase64Char(text.charCodeAt(stop))) stop++;
  const head = Buffer.from(text.slice(start, Math.min(stop, start + 80)).replace(/=+$/, ""), "base64").toString("latin1");
  if (/^-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY/.test(head) && stop - start >= 64) ctx.add(start, stop, "private-key", RANK.format);
}

/**
 * base64 of a JSON credentials file with a private key in it (a GCP service-account key in a CI
 * variable or a Kubernetes secret): it starts `{"type` or `{\n  "type`, and decoded it holds a PEM
 * private key. The whole encoded file is the secret.
 */
const ENCODED_JSON = ["eyj0exbl", "ewogicj0exbl", "ewogicaginr5cgui", "ewoidhlwzsi6"];

function onEncodedJson(ctx: ScanContext, start: number): void {
  const text = ctx.text;
  if (start > 0 && isBase64Char(text.charCodeAt(start - 1))) return;
  let stop = start;
  while (stop < text.length && stop - start < MAX_BODY && isBase64Char(text.charCodeAt(stop))) stop++;
  if (stop - start < 200) return;
  const decoded = Buffer.from(text.slice(start, stop), "base64").toString("latin1");
  if (/PRIVATE KEY-----/.test(decoded)) ctx.add(start, stop, "private-key", RANK.format);
}

export const privateKeys: Detector = {
  name: "private-keys",
  hints: ["-----begin", "private-lines", "private-mac", "private-hash", "ls0tls1crudjti", ...ENCODED_JSON],
  onHit(ctx, start, end, hint) {
    if (hint === "-----begin") onPem(ctx, start);
    else if (hint === "ls0tls1crudjti") onEncodedPem(ctx, start);
    else if (ENCODED_JSON.includes(hint)) onEncodedJson(ctx, start);
    else onPutty(ctx, end, hint);
  },
};
