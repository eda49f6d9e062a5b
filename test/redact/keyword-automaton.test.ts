import { describe, expect, test } from "bun:test";
import { BOUNDARY, compileKeywords } from "../../src/redact/keyword-automaton.ts";

const TOKEN_PUNCTUATION = "_-./~+";
const isSeparator = (ch: string) => !/^[a-z0-9]$/i.test(ch) && !TOKEN_PUNCTUATION.includes(ch);

/** Every (keyword, end) by trying each keyword at each end position: the definition the automaton must meet. */
function naive(keywords: readonly string[], text: string): string[] {
  const hits: string[] = [];
  for (let end = 1; end <= text.length; end++) {
    keywords.forEach((keyword, k) => {
      const chars = [...keyword];
      for (let j = 0; j < chars.length; j++) {
        const at = end - chars.length + j;
        const want = chars[j]!;
        if (at < 0) {
          // Only the one character before the text (a virtual separator) may stand for BOUNDARY.
          if (!(at === -1 && want === BOUNDARY)) return;
          continue;
        }
        const got = text[at]!;
        if (want === BOUNDARY ? !isSeparator(got) : got.toLowerCase() !== want.toLowerCase()) return;
      }
      hits.push(`${k}@${end}`);
    });
  }
  return hits.sort();
}

function scanned(keywords: readonly string[], text: string): string[] {
  const flat = compileKeywords(keywords).scan(text);
  const hits: string[] = [];
  for (let i = 0; i < flat.length; i += 2) hits.push(`${flat[i]}@${flat[i + 1]}`);
  return hits.sort();
}

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

describe("keyword automaton", () => {
  test("finds overlapping keywords, one inside another, case folded, at every end", () => {
    const keywords = ["he", "she", "his", "hers", `${BOUNDARY}key`, "key=", "api_key"];
    const text = "UsHers said: KEY=1 his api_key=x akey=2 She";
    expect(scanned(keywords, text)).toEqual(naive(keywords, text));
    expect(scanned(keywords, text)).toContain(`${keywords.indexOf(`${BOUNDARY}key`)}@16`);
  });

  test("a leading boundary matches the start of the text, a separator or a non-ASCII character, never a token character", () => {
    const keywords = [`${BOUNDARY}pass`];
    expect(scanned(keywords, "pass")).toEqual(["0@4"]);
    expect(scanned(keywords, "é pass=ü·pass")).toEqual(["0@13", "0@6"]);
    expect(scanned(keywords, "_pass -pass .pass bypass")).toEqual([]);
  });

  test("agrees with trying every keyword at every position on random keywords and texts", () => {
    const next = random(20261126);
    const alphabet = ["a", "b", "A", "B", "_", "-", ".", " ", "=", "é", "1"];
    const pick = () => alphabet[Math.floor(next() * alphabet.length)]!;
    for (let round = 0; round < 300; round++) {
      const keywords = Array.from({ length: 1 + Math.floor(next() * 12) }, () => {
        const word = Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick().toLowerCase()).join("");
        return (next() < 0.3 ? BOUNDARY : "") + word.replace(/[ =é]/g, BOUNDARY);
      });
      const unique = [...new Set(keywords)].filter((k) => k !== BOUNDARY);
      const text = Array.from({ length: Math.floor(next() * 60) }, pick).join("");
      expect(scanned(unique, text)).toEqual(naive(unique, text));
    }
  });

  test("one automaton scans many texts the same way as fresh ones (rows filled by one scan serve the next)", () => {
    const keywords = ["token", "secret", `${BOUNDARY}pwd`, "ghp_"];
    const shared = compileKeywords(keywords);
    const texts = ["x secret token", "pwd=1 ghp_abc", "SECRETtoken pwd", "no match here", "tokens secret"];
    for (const text of [...texts, ...texts.reverse()]) {
      const flat = shared.scan(text);
      const hits: string[] = [];
      for (let i = 0; i < flat.length; i += 2) hits.push(`${flat[i]}@${flat[i + 1]}`);
      expect(hits.sort()).toEqual(naive(keywords, text));
    }
  });
});
