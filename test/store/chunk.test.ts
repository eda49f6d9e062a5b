import { describe, expect, test } from "bun:test";
import { chunkText } from "../../src/store/chunk.ts";
import { countLines, utf8Length } from "../../src/text.ts";
import { rng, testSeed } from "../helpers.ts";

const PIECES = [
  "a",
  "word ",
  "\n",
  "\n\n",
  "  indented\n",
  "ünïcödé ",
  "日本語テキスト",
  "emoji 🎉🚀 ",
  "\t",
  "# Heading\n",
  "x".repeat(700),
  "y ".repeat(900),
  "\r\n",
];

function randomText(r: () => number): string {
  const n = Math.floor(r() * 400);
  let s = "";
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
  if (r() < 0.1) s += "z".repeat(Math.floor(r() * 20_000));
  return s;
}

function checkInvariants(text: string, cap: number): void {
  const chunks = chunkText(text, cap);
  expect(chunks.map((c) => c.text).join("")).toBe(text);
  let line = 1;
  for (const c of chunks) {
    expect(c.text.length).toBeGreaterThan(0);
    expect(utf8Length(c.text)).toBeLessThanOrEqual(cap);
    expect(Buffer.byteLength(c.text)).toBe(utf8Length(c.text));
    // Line ranges: start where the previous chunk left off, and span the newlines inside.
    expect(c.lineStart).toBe(line);
    const inner = (c.text.match(/\n/g) ?? []).length;
    const endsLine = c.text.endsWith("\n");
    expect(c.lineEnd).toBe(c.lineStart + inner - (endsLine ? 1 : 0));
    line = endsLine ? c.lineEnd + 1 : c.lineEnd;
  }
  if (chunks.length > 0) expect(chunks.at(-1)!.lineEnd).toBe(countLines(text));
}

describe("chunkText", () => {
  test("is lossless, line-aligned and capped for random texts (property test)", () => {
    const seed = testSeed("chunking round trip");
    const r = rng(seed);
    for (let i = 0; i < 300; i++) {
      const text = randomText(r);
      const cap = [512, 1000, 4096][i % 3]!;
      try {
        checkInvariants(text, cap);
      } catch (error) {
        throw new Error(`seed ${seed}, case ${i}, cap ${cap}: ${error}`);
      }
    }
  });

  test("splits a single 1 MB line into capped chunks that join back exactly", () => {
    const line = "0123456789abcdef".repeat(65_536);
    const chunks = chunkText(line, 4096);
    expect(chunks.length).toBe(256);
    expect(chunks.every((c) => c.lineStart === 1 && c.lineEnd === 1 && Buffer.byteLength(c.text) <= 4096)).toBe(true);
    expect(chunks.map((c) => c.text).join("")).toBe(line);
  });

  test("never splits a multi-byte character when cutting a long line", () => {
    const line = "é漢🎉".repeat(5000);
    const chunks = chunkText(line, 4096);
    for (const c of chunks) {
      expect(Buffer.byteLength(c.text)).toBeLessThanOrEqual(4096);
      expect(Buffer.from(c.text).toString()).toBe(c.text); // no lone surrogates
    }
    expect(chunks.map((c) => c.text).join("")).toBe(line);
  });

  test("a 1,400-line log with no blank lines becomes many small chunks", () => {
    const log = Array.from({ length: 1400 }, (_, i) => `2026-11-22 INFO step ${i} cache=miss worker=${i % 7}`).join("\n");
    const chunks = chunkText(log, 4096);
    expect(chunks.length).toBeGreaterThan(10);
    expect(Math.max(...chunks.map((c) => Buffer.byteLength(c.text)))).toBeLessThanOrEqual(4096);
  });

  test("prefers to end a chunk at a blank line once past 60% of the cap", () => {
    const para = (n: number) => `${"lorem ipsum ".repeat(n).trim()}\n`;
    const text = `${para(220)}\n${para(100)}`; // ~2.6 KiB paragraph, blank line, ~1.2 KiB paragraph
    const chunks = chunkText(text, 4096);
    expect(chunks.length).toBe(2);
    expect(chunks[0]!.text.endsWith("\n\n")).toBe(true);
    expect(chunks[1]!.lineStart).toBe(3);
  });

  test("empty text has no chunks and no lines", () => {
    expect(chunkText("", 4096)).toEqual([]);
    expect(countLines("")).toBe(0);
    expect(countLines("a")).toBe(1);
    expect(countLines("a\n")).toBe(1);
    expect(countLines("a\nb")).toBe(2);
  });
});
