/**
 * Private keys as bare base64 DER (no PEM armour): a SAML or signing key pasted into a variable, a
 * PKCS#12 bundle in a CI secret. DER is told by its first bytes: a SEQUENCE with a two- or
 * three-byte length (`MII...`) whose first element is the INTEGER version 0 (PKCS#1 RSA, PKCS#8),
 * 1 (SEC1 EC) or 3 (PKCS#12). Certificates and public keys start with a nested SEQUENCE instead, so
 * they stay.
 */
import type { Detector } from "./detector.ts";
import { BOUNDARY } from "./keyword-automaton.ts";
import { RANK, type ScanContext } from "./scan-context.ts";

const MAX_BODY = 65536;
const MIN_BODY = 200;

function isBase64(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 43 || code === 47;
}

export function isPrivateDer(head: string): boolean {
  const bytes = Buffer.from(head.slice(0, 12), "base64");
  if (bytes.length < 7 || bytes[0] !== 0x30) return false;
  const lengthBytes = bytes[1] === 0x82 ? 2 : bytes[1] === 0x83 ? 3 : 0;
  if (lengthBytes === 0) return false;
  const at = 2 + lengthBytes;
  return bytes[at] === 0x02 && bytes[at + 1] === 0x01 && [0, 1, 3].includes(bytes[at + 2]!);
}

function onHit(ctx: ScanContext, start: number): void {
  const text = ctx.text;
  if (start > 0 && isBase64(text.charCodeAt(start - 1))) return;
  const limit = Math.min(text.length, start + MAX_BODY);
  let end = start;
  while (end < limit && isBase64(text.charCodeAt(end))) end++;
  while (end < limit && text.charCodeAt(end) === 61 && end - start < MAX_BODY) end++;
  if (end - start >= MIN_BODY && isPrivateDer(text.slice(start, start + 12))) ctx.add(start, end, "private-key", RANK.format);
}

export const derKeys: Detector = {
  name: "der-keys",
  hints: [`${BOUNDARY}mii`],
  onHit: (ctx, start) => onHit(ctx, start),
};
