/**
 * Wallet recovery phrases without a name beside them: 12 to 24 words of the BIP-39 English list
 * (space-separated, or one per line, numbered or not) whose last word carries the valid BIP-39
 * checksum (SHA-256 of the entropy). A run of list words in prose passes the checksum by chance
 * once in 16 (12 words) to once in 256 (24 words), and prose rarely has 12 list words in a row.
 *
 * Only the stretch around words that announce a phrase (`mnemonic`, `seed`, `recovery`, `wallet`,
 * `words`...) is read, once: a phrase with no such word anywhere near it is not found, and capture
 * stays fast. Only a run of 12 or more short lower-case words is looked up.
 */
import { sha256Bytes } from "../hash.ts";
import { bip39Index } from "./bip39-english.ts";
import type { Detector } from "./detector.ts";
import { RANK, type ScanContext } from "./scan-context.ts";

/** The BIP-39 checksum of a phrase's word indices. */
export function validMnemonic(indices: readonly number[]): boolean {
  const n = indices.length;
  if (n < 12 || n > 24 || n % 3 !== 0) return false;
  const bits = indices.map((i) => i.toString(2).padStart(11, "0")).join("");
  const checksumBits = n / 3;
  const entropyBits = bits.length - checksumBits;
  const entropy = new Uint8Array(entropyBits / 8);
  for (let i = 0; i < entropy.length; i++) entropy[i] = Number.parseInt(bits.slice(i * 8, i * 8 + 8), 2);
  const hash = sha256Bytes(entropy);
  const expected = hash[0]!.toString(2).padStart(8, "0") + hash[1]!.toString(2).padStart(8, "0");
  return bits.slice(entropyBits) === expected.slice(0, checksumBits);
}

function check(ctx: ScanContext, starts: readonly number[], ends: readonly number[]): void {
  const indices: number[] = [];
  for (let k = 0; k < starts.length; k++) {
    const index = bip39Index(ctx.text.slice(starts[k], ends[k]));
    if (index === -1) break;
    indices.push(index);
  }
  // The longest valid phrase that starts the run (a sentence may follow the words).
  for (let n = Math.min(24, indices.length - (indices.length % 3)); n >= 12; n -= 3) {
    if (validMnemonic(indices.slice(0, n))) {
      ctx.add(starts[0]!, ends[n - 1]!, "seed-phrase", RANK.format);
      return;
    }
  }
}

function isBreak(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Quotes and brackets that may open or close a phrase written as a string or a list. */
function isWrapper(c: number): boolean {
  return (
    c === 34 ||
    c === 39 ||
    c === 96 ||
    c === 40 ||
    c === 41 ||
    c === 91 ||
    c === 93 ||
    c === 123 ||
    c === 125 ||
    c === 44 ||
    c === 59 ||
    c === 46 ||
    c === 58
  );
}

/** `1.`, `12)`, `3:` at the start of a line: a numbered list's marker between words. */
function isListMarker(text: string, from: number, to: number): boolean {
  const last = text.charCodeAt(to - 1);
  if (to - from < 2 || to - from > 3 || (last !== 46 && last !== 41 && last !== 58)) return false;
  for (let i = from; i < to - 1; i++) if (text.charCodeAt(i) < 48 || text.charCodeAt(i) > 57) return false;
  return true;
}

/**
 * One pass over the text: runs of 3-8 letter lower-case words separated by white space (numbered
 * list markers allowed between them); a run of 12 or more is checked against the list.
 */
function scan(ctx: ScanContext, from: number, n: number): void {
  const text = ctx.text;
  const starts: number[] = [];
  const ends: number[] = [];
  const flush = () => {
    if (starts.length >= 12) check(ctx, starts, ends);
    starts.length = 0;
    ends.length = 0;
  };
  let i = from;
  while (i < n) {
    if (isBreak(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const tokenStart = i;
    let lower = true;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (isBreak(c)) break;
      if (c < 97 || c > 122) lower = false;
      i++;
    }
    let at = tokenStart;
    let end = i;
    if (!lower) {
      while (at < end && isWrapper(text.charCodeAt(at))) at++;
      while (end > at && isWrapper(text.charCodeAt(end - 1))) end--;
      let inner = true;
      for (let k = at; k < end && inner; k++) inner = text.charCodeAt(k) >= 97 && text.charCodeAt(k) <= 122;
      if (!inner || end - at < 3 || end - at > 8) {
        if (!isListMarker(text, tokenStart, i)) flush();
        continue;
      }
      if (at > tokenStart) flush();
      starts.push(at);
      ends.push(end);
      if (end < i) flush();
      continue;
    }
    if (end - at >= 3 && end - at <= 8) {
      starts.push(at);
      ends.push(end);
    } else if (starts.length > 0) flush();
  }
  flush();
}

/** Words that tools and people write near a recovery phrase; the scan covers the stretch around them. */
const CONTEXT = ["mnemonic", "seed", "phrase", "recovery", "recover", "wallet", "bip39", "bip-39", "words", "backup"];
const BEFORE = 256;
const AFTER = 1024;

function onHit(ctx: ScanContext, start: number, end: number): void {
  const text = ctx.text;
  const done = (ctx.state.get("seed.until") as number | undefined) ?? 0;
  let from = Math.max(done, start - BEFORE);
  // Start at a word's beginning: after a line break at or before `from`.
  if (from > 0 && !isBreak(text.charCodeAt(from - 1))) {
    const window = Math.max(done, from - BEFORE);
    const nl = text.slice(window, from).lastIndexOf("\n");
    if (nl !== -1) from = window + nl + 1;
    while (from < start && !isBreak(text.charCodeAt(from - 1))) from++;
  }
  let to = Math.min(text.length, end + AFTER);
  while (to < text.length && to - end < AFTER + 1024 && !isBreak(text.charCodeAt(to))) to++;
  if (to <= done) return;
  ctx.state.set("seed.until", to);
  scan(ctx, from, to);
}

export const seedPhrases: Detector = {
  name: "seed-phrases",
  hints: CONTEXT,
  onHit: (ctx, start, end) => onHit(ctx, start, end),
};
