import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import { countTokens } from "../../src/tokens/count.ts";
import { pieceCounter } from "../../src/tokens/piece-counter.ts";

const plain = o200k.countTokens;

/** Text of many shapes: code, prose, numbers, whitespace runs, CRLF, accents, CJK, emoji, a lone surrogate. */
const SAMPLES = [
  "",
  " ",
  "hello world",
  "  leading and trailing  ",
  "tabs\tand\nnew\r\nlines\n\n\n   indented",
  "const rateLimiter = new RateLimiter({ windowMs: 60_000, max: 120 }); // 429 after that",
  "Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)",
  "naïve café – résumé “quotes” — dashes … 12345678901234567890 3.14159 0x1F_ff",
  "日本語のテキストと中文文本，还有한국어 문장.",
  "emoji 🎉🚀👍🏽 and ZWJ 👨‍👩‍👧‍👦 family",
  "lone \ud800 surrogate and \udc00 other",
  "I'm sure they'll say we've done it; it's John's and you're right, DON'T SHOUT",
  "a<|b and <| alone are not special tokens",
  "x".repeat(5000),
  "ab ".repeat(3000),
];

describe("pieceCounter", () => {
  const fast = pieceCounter(plain, o200k);

  test("it is the fast path, not the package's counter handed back", () => {
    expect(fast).not.toBe(plain);
    expect(countTokens("hello world")).toBe(plain("hello world"));
  });

  test("counts every sample exactly as gpt-tokenizer does, first time and from its remembered pieces", () => {
    for (const s of SAMPLES) expect([s, fast(s)]).toEqual([s, plain(s)]);
    for (const s of SAMPLES) expect([s, fast(s)]).toEqual([s, plain(s)]);
  });

  test("counts this repository's own source and a long generated text exactly", () => {
    const texts = ["src/memory/supersede.ts", "src/db/open.ts", "README.md"].map((p) =>
      readFileSync(join(import.meta.dir, "../..", p), "utf8"),
    );
    for (const t of texts) expect(fast(t)).toBe(plain(t));
    // Many distinct pieces: the remembered pieces are cleared on the way and the count stays exact.
    const letters = (i: number) =>
      [i % 26, Math.floor(i / 26) % 26, Math.floor(i / 676) % 26, Math.floor(i / 17_576)].map((d) => String.fromCharCode(97 + d)).join("");
    const words = Array.from({ length: 55_000 }, (_, i) => letters(i)).join(" ");
    expect(fast(words)).toBe(plain(words));
    expect(fast(words)).toBe(plain(words));
  });

  test("a text holding a special token goes to the plain counter, which the product's counts as the text it is", () => {
    const t = "before <|endoftext|> after";
    expect(() => plain(t)).toThrow();
    expect(() => fast(t)).toThrow();
    // What the product counts: the token's characters as text, as a provider encodes a user's text.
    expect(countTokens(t)).toBe(o200k.countTokens(t, { disallowedSpecial: new Set() }));
    expect(countTokens(t)).toBeGreaterThan(countTokens("before after"));
  });

  test("without the internals it reads, the package's counter is used as it is", () => {
    expect(pieceCounter(plain, {})).toBe(plain);
    expect(pieceCounter(plain, null)).toBe(plain);
    expect(pieceCounter(plain, { bytePairEncodingCoreProcessor: { tokenSplitRegex: /x/ } })).toBe(plain);
  });
});
