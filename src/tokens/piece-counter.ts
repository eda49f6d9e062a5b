/**
 * The same counts as gpt-tokenizer's countTokens, faster on text that repeats its words (event
 * after event, line after line). countTokens splits a text with the encoding's regular expression
 * and counts each piece: one token when the piece is in the vocabulary, else its byte-pair merge.
 * This does exactly that, remembering each piece's count (a bounded map), and splits with
 * String.match (one string per piece) instead of matchAll (an array and an iterator step per piece).
 * A text that may hold a special token (`<|endoftext|>` and the like: all begin with `<|`) goes to
 * `plain` itself (tables.ts counts such a token as text). When the package's internals are not the ones
 * this reads (another version), countTokens is used as it is.
 */

type Counter = (text: string) => number;

/** What gpt-tokenizer's byte-pair core exposes (v3, v4). */
type Core = {
  tokenSplitRegex: RegExp;
  getBpeRankFromString(piece: string): number | undefined;
  bytePairEncode(piece: string): ArrayLike<number>;
};

/** Pieces remembered (a piece is a word or a run of punctuation or spaces: a few hundred kilobytes in all). */
const MAX_PIECES = 50_000;

type Encoding = { bytePairEncodingCoreProcessor?: Partial<Core>; default?: Encoding };

/**
 * A counter with the same answers as `plain`, the package's countTokens; `encoding` is the
 * encoding's module (its default export is the encoding, or, bundled for Node, holds it).
 */
export function pieceCounter(plain: Counter, encoding: unknown): Counter {
  const m = encoding as Encoding | null | undefined;
  const core =
    m?.bytePairEncodingCoreProcessor ?? m?.default?.bytePairEncodingCoreProcessor ?? m?.default?.default?.bytePairEncodingCoreProcessor;
  const split = core?.tokenSplitRegex;
  if (
    !core ||
    !(split instanceof RegExp) ||
    !split.global ||
    typeof core.getBpeRankFromString !== "function" ||
    typeof core.bytePairEncode !== "function"
  )
    return plain;
  const bpe = core as Core;
  const pieces = new Map<string, number>();
  return function countPieces(text: string): number {
    if (text.includes("<|")) return plain(text);
    const parts = text.match(split);
    if (parts === null) return 0;
    let n = 0;
    for (const p of parts) {
      let c = pieces.get(p);
      if (c === undefined) {
        c = bpe.getBpeRankFromString(p) !== undefined ? 1 : bpe.bytePairEncode(p).length;
        if (pieces.size >= MAX_PIECES) pieces.clear();
        pieces.set(p, c);
      }
      n += c;
    }
    return n;
  };
}
