/**
 * Wallet recovery phrases without a name beside them: 12 to 24 words of the BIP-39 English list
 * (space-separated, or one per line, numbered or not) whose last word carries the valid BIP-39
 * checksum (SHA-256 of the entropy). A run of list words in prose passes the checksum by chance
 * once in 16 (12 words) to once in 256 (24 words), and prose rarely has 12 list words in a row.
 *
 * One pattern pass over the text at word starts; each candidate is at most 24 short words.
 */
import { createHash } from "node:crypto";
import { bip39Index } from "./bip39-english.ts";
import type { Detector } from "./detector.ts";
import { RANK, type ScanContext } from "./scan-context.ts";

const SEP = String.raw`(?:[ \t]{1,4}|[ \t]{0,8}\r?\n[ \t]{0,8}(?:\d{1,2}[.):][ \t]{0,4})?)`;
const RUN = new RegExp(String.raw`(?<![A-Za-z0-9_.-])[a-z]{3,8}(?:${SEP}[a-z]{3,8}){11,23}(?![A-Za-z0-9_-])`, "g");

/** The BIP-39 checksum of a phrase's word indices. */
export function validMnemonic(indices: readonly number[]): boolean {
  const n = indices.length;
  if (n < 12 || n > 24 || n % 3 !== 0) return false;
  const bits = indices.map((i) => i.toString(2).padStart(11, "0")).join("");
  const checksumBits = n / 3;
  const entropyBits = bits.length - checksumBits;
  const entropy = new Uint8Array(entropyBits / 8);
  for (let i = 0; i < entropy.length; i++) entropy[i] = Number.parseInt(bits.slice(i * 8, i * 8 + 8), 2);
  const hash = createHash("sha256").update(entropy).digest();
  const expected = hash[0]!.toString(2).padStart(8, "0") + hash[1]!.toString(2).padStart(8, "0");
  return bits.slice(entropyBits) === expected.slice(0, checksumBits);
}

function check(ctx: ScanContext, start: number, run: string): void {
  const words: { at: number; index: number; end: number }[] = [];
  const word = /[a-z]{3,8}/g;
  for (let m = word.exec(run); m !== null; m = word.exec(run)) {
    const index = bip39Index(m[0]);
    if (index === -1) return;
    words.push({ at: m.index, index, end: m.index + m[0].length });
  }
  // The longest valid phrase that starts the run (a sentence may follow the words).
  for (let n = Math.min(24, words.length - (words.length % 3)); n >= 12; n -= 3) {
    if (validMnemonic(words.slice(0, n).map((w) => w.index))) {
      ctx.add(start + words[0]!.at, start + words[n - 1]!.end, "seed-phrase", RANK.format);
      return;
    }
  }
}

export const seedPhrases: Detector = {
  name: "seed-phrases",
  hints: [],
  onHit() {},
  finish(ctx) {
    RUN.lastIndex = 0;
    for (let m = RUN.exec(ctx.text); m !== null; m = RUN.exec(ctx.text)) {
      check(ctx, m.index, m[0]);
    }
  },
};
