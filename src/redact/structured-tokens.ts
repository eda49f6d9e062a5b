/**
 * Credentials told by their structure rather than a literal prefix, each checked the way its
 * issuer builds it (facts from the issuers' documentation and the public gitleaks, trufflehog and
 * detect-secrets rule sets; no code from them):
 *
 * - Discord bot tokens: `<base64 of the bot's numeric id>.<6>.<27-38>`. The first part must decode
 *   to 17-20 digits, so its first two characters are one of nine (`MT`, `Mj`, ... `OT`).
 * - Telegram bot tokens: `<5-16 digit bot id>:AA<33>` (also after `/bot` in an API URL), or any
 *   `<id>:<35>` after the word "telegram" on the same line.
 * - Bitcoin WIF private keys (secp256k1): base58 of 0x80/0xEF + 32 key bytes (+ 0x01), 51 or 52
 *   characters, whose last four bytes must be the double-SHA-256 checksum of the rest. Bare when
 *   they start 5H/5J/5K; the compressed ones (K, L) after the words below.
 * - A 64-digit hex or long base58 value on the line after the words "private key", "privkey",
 *   "wif"... (secp256k1 keys as wallets print them).
 * - An AWS secret access key (40 characters) in the field after an access key id: a credentials
 *   CSV row, `aws configure` input, a table.
 * - `.pgpass` lines, `host:port:database:user:password`: the password.
 *
 * Every check reads a bounded stretch after its hit: linear on any input.
 */
import { sha256Bytes } from "../hash.ts";
import { type Detector, indexWithin, isSpace, isTokenChar } from "./detector.ts";
import { isHarmlessValue } from "./harmless-values.ts";
import { BOUNDARY } from "./keyword-automaton.ts";
import { RANK, type ScanContext } from "./scan-context.ts";

/** base64 of two digits starts with one of these (the first digit is never 0). */
const DISCORD_HEADS = ["MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT"];
const DISCORD = /[MNO][A-Za-z0-9_-]{22,26}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}(?![A-Za-z0-9_-])/y;

function isB64Url(code: number): boolean {
  return isTokenChar(code) || code === 45 || code === 95;
}

function onDiscord(ctx: ScanContext, start: number): void {
  const text = ctx.text;
  if (!DISCORD_HEADS.includes(text.slice(start, start + 2))) return;
  DISCORD.lastIndex = start;
  const m = DISCORD.exec(text);
  if (m === null) return;
  const id = Buffer.from(m[0].slice(0, m[0].indexOf(".")), "base64url").toString("latin1");
  if (/^[1-9]\d{16,19}$/.test(id)) ctx.add(start, start + m[0].length, "discord-token", RANK.format);
}

const TELEGRAM = /AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/y;

/** `<digits>:AA...`: the hit is the last digit, the colon and `aa`. */
function onTelegram(ctx: ScanContext, start: number): void {
  const text = ctx.text;
  if (text.charCodeAt(start + 1) !== 58 || text.charCodeAt(start + 2) !== 65) return;
  let from = start + 1;
  while (from > 0 && start + 1 - from < 17 && text.charCodeAt(from - 1) >= 48 && text.charCodeAt(from - 1) <= 57) from--;
  const digits = start + 1 - from;
  if (digits < 5 || digits > 16) return;
  const before = from > 0 ? text.charCodeAt(from - 1) : 32;
  if (isB64Url(before) && !/bot$/i.test(text.slice(Math.max(0, from - 3), from))) return;
  TELEGRAM.lastIndex = start + 2;
  const m = TELEGRAM.exec(text);
  if (m === null || !/\d/.test(m[0]) || !/[a-z]/.test(m[0])) return;
  ctx.add(from, start + 2 + m[0].length, "telegram-token", RANK.format);
}

/** After the word "telegram" on the same line: a bot token whatever its second part starts with. */
function onTelegramWord(ctx: ScanContext, end: number): void {
  const text = ctx.text;
  const limit = Math.min(ctx.lineEnd(end), end + 120);
  const m = /(?<![0-9A-Za-z])\d{5,16}:[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/.exec(text.slice(end, limit));
  if (m !== null && /[A-Z]/.test(m[0]) && /[a-z]/.test(m[0]))
    ctx.add(end + m.index, end + m.index + m[0].length, "telegram-token", RANK.format);
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const BASE58_INDEX = new Map([...BASE58].map((c, i) => [c, i]));

/** base58 to bytes (leading `1`s are zero bytes); null on a character outside the alphabet. */
function base58(text: string): Uint8Array | null {
  const bytes = new Uint8Array(text.length);
  let size = 0;
  for (const c of text) {
    let carry = BASE58_INDEX.get(c);
    if (carry === undefined) return null;
    for (let i = 0; i < size; i++) {
      carry += bytes[i]! * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    for (; carry > 0; carry >>= 8) bytes[size++] = carry & 0xff;
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === "1") zeros++;
  const out = new Uint8Array(zeros + size);
  for (let i = 0; i < size; i++) out[zeros + i] = bytes[size - 1 - i]!;
  return out;
}

/** A WIF private key: the right version byte and length, and its checksum holds. */
export function isWif(token: string): boolean {
  if (token.length !== 51 && token.length !== 52) return false;
  const bytes = base58(token);
  if (bytes === null || (bytes.length !== 37 && bytes.length !== 38)) return false;
  if (bytes[0] !== 0x80 && bytes[0] !== 0xef) return false;
  if (bytes.length === 38 && bytes[33] !== 0x01) return false;
  const body = bytes.subarray(0, bytes.length - 4);
  const sum = sha256Bytes(sha256Bytes(body));
  const given = bytes.subarray(bytes.length - 4);
  return sum[0] === given[0] && sum[1] === given[1] && sum[2] === given[2] && sum[3] === given[3];
}

function isBase58Char(code: number): boolean {
  return code < 128 && BASE58_INDEX.has(String.fromCharCode(code));
}

function onWif(ctx: ScanContext, start: number): void {
  const text = ctx.text;
  let end = start;
  while (end < text.length && end - start < 53 && isBase58Char(text.charCodeAt(end))) end++;
  if (end - start < 51 || end - start > 52 || (end < text.length && isB64Url(text.charCodeAt(end)))) return;
  // The last candidate's answer is kept: a text of one repeated token costs one checksum.
  const token = text.slice(start, end);
  const last = ctx.state.get("wif.last") as [string, boolean] | undefined;
  const valid = last !== undefined && last[0] === token ? last[1] : isWif(token);
  ctx.state.set("wif.last", [token, valid]);
  if (valid) ctx.add(start, end, "private-key", RANK.format);
}

/** A key's run of characters: 64 hex digits (an optional `0x` before them), or 50-112 base58 with digits in it. */
function keyRun(run: string): number {
  const hex = run.startsWith("0x") ? 2 : 0;
  if (run.length - hex === 64 && /^[0-9a-fA-F]+$/.test(run.slice(hex))) return hex;
  if (run.length >= 50 && run.length <= 112 && /\d/.test(run) && /^[1-9A-HJ-NP-Za-km-z]+$/.test(run)) return 0;
  return -1;
}

/**
 * After "private key" (and its spellings): a 64-digit hex key or a long base58 one, on the same line
 * or the next (`bitcoin-cli dumpprivkey ADDRESS` prints the key on a line of its own). Runs of
 * letters and digits are read once per pass, however many hits look at them.
 */
function onPrivateKeyWords(ctx: ScanContext, end: number): void {
  const text = ctx.text;
  const lineEnd = ctx.lineEnd(end);
  const next = indexWithin(text, "\n", lineEnd + 1, lineEnd + 121);
  const limit = Math.min(next === -1 ? text.length : next, lineEnd + 120, end + 200);
  let i = Math.max(end, (ctx.state.get("pk.read") as number | undefined) ?? 0);
  while (i < limit) {
    if (!isTokenChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let runEnd = i;
    while (runEnd < text.length && runEnd - i < 120 && isTokenChar(text.charCodeAt(runEnd))) runEnd++;
    const offset = runEnd - i < 120 ? keyRun(text.slice(i, runEnd)) : -1;
    if (offset !== -1) {
      ctx.add(i + offset, runEnd, "private-key", RANK.context);
      return;
    }
    // A run longer than any key: skip it whole.
    while (runEnd < text.length && isTokenChar(text.charCodeAt(runEnd))) runEnd++;
    i = runEnd;
  }
  ctx.state.set("pk.read", i);
}

const AWS_SECRET = /[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/y;

/** `AWS Secret Access Key [None]: ...` (the `aws configure` prompt) and prose like it: the 40 characters after it on the line. */
function onAwsSecretWords(ctx: ScanContext, end: number): void {
  const text = ctx.text;
  const limit = Math.min(ctx.lineEnd(end), end + 40);
  const base64 = (code: number) => isTokenChar(code) || code === 43 || code === 47;
  for (let p = end; p < limit; p++) {
    if (base64(text.charCodeAt(p)) && !base64(text.charCodeAt(p - 1))) {
      AWS_SECRET.lastIndex = p;
      const s = AWS_SECRET.exec(text);
      if (s !== null && /[a-z]/.test(s[0]) && /[A-Z]/.test(s[0]) && /\d/.test(s[0])) ctx.add(p, p + 40, "aws-secret-key", RANK.format);
      if (s !== null) return;
    }
  }
}

/** The next field after an AWS access key id: a secret access key when it has the shape of one. */
function onAwsPair(ctx: ScanContext, start: number): void {
  const text = ctx.text;
  const id = /(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/y;
  id.lastIndex = start;
  const m = id.exec(text);
  if (m === null) return;
  let p = start + m[0].length;
  const stop = p + 8;
  while (p < stop && (isSpace(text.charCodeAt(p)) || ",;|:\"'".includes(text[p] ?? "x"))) p++;
  if (p === start + m[0].length) return;
  AWS_SECRET.lastIndex = p;
  const s = AWS_SECRET.exec(text);
  if (s === null || !/[a-z]/.test(s[0]) || !/[A-Z]/.test(s[0]) || !/\d/.test(s[0])) return;
  ctx.add(p, p + 40, "aws-secret-key", RANK.format);
}

/**
 * `host:port:database:user:password` (PostgreSQL's password file; `*` matches anything, `\\:`
 * escapes a colon). The host is a name, an address or `*` (never digits alone: times are not hosts);
 * database and user are plain names. Each line is looked at once, whatever its number of hits.
 */
const PGPASS =
  /^[ \t]*(?:\*|[A-Za-z0-9._-]*[A-Za-z.][A-Za-z0-9._-]*):(?:\d{1,5}|\*):(?:[\w.$@*-]|\\.){1,63}:(?:[\w.$@*-]|\\.){1,63}:((?:[^:\\\s]|\\.){3,256})\r?$/;

function onPgpassLine(ctx: ScanContext, pos: number): void {
  const from = ctx.lineStart(pos);
  if (ctx.state.get("pgpass.line") === from) return;
  ctx.state.set("pgpass.line", from);
  const to = ctx.lineEnd(pos);
  if (to - from > 600) return;
  const line = ctx.text.slice(from, to);
  const m = PGPASS.exec(line);
  if (m === null) return;
  const password = m[1]!;
  // A plain lower-case word is no proof: `worker:5432:queue:jobs:idle` is a log line.
  if (/^[a-z]{1,24}$/.test(password) || isHarmlessValue(password, { cls: "password", quoted: true, numbersAreSecret: false })) return;
  const end = from + line.length - (line.endsWith("\r") ? 1 : 0);
  ctx.add(end - password.length, end, "password", RANK.context);
}

/** Words after which a key follows on the same line (wallets, bitcoind's `dumpprivkey`, docs). */
const PRIVATE_KEY_WORDS = ["private key", "private_key", "privatekey", "privkey", "priv key", "secret key", "signing key", "wif"];
/** Uncompressed mainnet WIF keys start with 5H, 5J or 5K; the others (K, L, c, 9) only after the words above. */
const WIF_HEADS = ["5h", "5j", "5k"];
/** PostgreSQL's usual ports (server, pooler, cloud providers) between colons; `:*:` is looked for once per text. */
const PGPASS_PORTS = ["5432", "5433", "5434", "5435", "5436", "5437", "5438", "5439", "6432", "6543", "15432", "25060", "26257", "55432"];
const PGPASS_HINTS = PGPASS_PORTS.map((port) => BOUNDARY + port + BOUNDARY);
const TELEGRAM_HINTS = [..."0123456789"].map((d) => `${d}:aa`);

export const structuredTokens: Detector = {
  name: "structured-tokens",
  hints: [
    ...DISCORD_HEADS.map((h) => BOUNDARY + h.toLowerCase()),
    ...TELEGRAM_HINTS,
    "telegram",
    ...WIF_HEADS.map((h) => BOUNDARY + h),
    ...PGPASS_HINTS,
    ...PRIVATE_KEY_WORDS,
    "secret access key",
    ...["akia", "asia", "abia", "acca", "a3t"].map((h) => BOUNDARY + h),
  ],
  onHit(ctx, start, end, hint) {
    // The access key id itself is token-formats' finding: the pair starts there.
    if (hint.startsWith(`${BOUNDARY}a`)) return onAwsPair(ctx, start);
    if (ctx.covered(start)) return;
    if (PGPASS_HINTS.includes(hint)) {
      if (ctx.text.charCodeAt(start - 1) === 58 && ctx.text.charCodeAt(end - 1) === 58) onPgpassLine(ctx, start);
    } else if (TELEGRAM_HINTS.includes(hint)) onTelegram(ctx, start);
    else if (hint === "telegram") onTelegramWord(ctx, end);
    else if (hint === "secret access key") onAwsSecretWords(ctx, end);
    else if (PRIVATE_KEY_WORDS.includes(hint)) onPrivateKeyWords(ctx, end);
    else if (WIF_HEADS.includes(hint.slice(1))) onWif(ctx, start);
    else onDiscord(ctx, start);
  },
  finish(ctx) {
    // `*:*:*:user:password` and `host:*:...`: a wildcard port, found by one native search per text.
    for (let at = ctx.text.indexOf(":*:"); at !== -1; at = ctx.text.indexOf(":*:", at + 3)) {
      if (!ctx.covered(at)) onPgpassLine(ctx, at);
      if (ctx.firstOnly && ctx.findings.length > 0) return;
    }
  },
};
