import { describe, expect, test } from "bun:test";
import { hasSecrets, redact } from "../../src/redact/redact.ts";
import { harmlessNoise } from "./harmless-corpus.ts";
import { leaked, secretCases } from "./secret-cases.ts";
import { hardeningCases } from "./secret-hardening-cases.ts";
import { createShapes } from "./secret-shapes.ts";

const SEED = 20260314;

function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
const NOISE_BYTES = 1024 * 1024;

describe("secret corpus", () => {
  console.log(`secret corpus seed ${SEED}`);
  const cases = secretCases(SEED);
  const noise = harmlessNoise(NOISE_BYTES, SEED);
  const lineStarts = [0, ...[...noise.matchAll(/\n/g)].map((m) => m.index! + 1)];

  test("covers at least 40 kinds and every issue example family", () => {
    const kinds = new Set(cases.map((c) => c.kind));
    expect(kinds.size).toBeGreaterThanOrEqual(40);
    expect(cases.length).toBeGreaterThanOrEqual(225);
  });

  test("each case alone is redacted, keeps its line count, and is stable under a second pass", () => {
    const leaks: string[] = [];
    for (const c of cases) {
      const r = redact(c.text);
      const lost = leaked(c, r.text);
      if (lost.length > 0) leaks.push(`${c.kind}: ${c.text.slice(0, 160)}`);
      expect(r.text.split("\n").length).toBe(c.text.split("\n").length);
      expect(redact(r.text).text).toBe(r.text);
      expect(hasSecrets(c.text)).toBe(lost.length < c.secrets.length || r.count > 0);
    }
    if (leaks.length > 0) console.log(`leaked alone:\n${leaks.join("\n")}`);
    expect(leaks.length / cases.length).toBeLessThanOrEqual(0.02);
  });

  test("each case inside ~1 MB of harmless noise is redacted and the noise is untouched", () => {
    const leaks: string[] = [];
    const r = { next: SEED };
    for (const c of cases) {
      r.next = (Math.imul(r.next, 1664525) + 1013904223) >>> 0;
      const at = lineStarts[r.next % lineStarts.length]!;
      const head = noise.slice(0, at);
      const tail = `\n${noise.slice(at)}`;
      const out = redact(head + c.text + tail);
      if (leaked(c, out.text).length > 0) leaks.push(`${c.kind}: ${c.text.slice(0, 160)}`);
      // The noise around the case is untouched and the case keeps its number of lines.
      expect(out.text.startsWith(head)).toBe(true);
      expect(out.text.endsWith(tail)).toBe(true);
      expect(newlines(out.text.slice(head.length, out.text.length - tail.length))).toBe(newlines(c.text));
      expect(hasSecrets(head + c.text + tail)).toBe(out.count > 0);
    }
    if (leaks.length > 0) console.log(`leaked in noise:\n${leaks.join("\n")}`);
    expect(leaks.length / cases.length).toBeLessThanOrEqual(0.02);
  }, 120_000);

  test("the hardening families (issue 22): none leaks, alone or inside noise, in three seeds", () => {
    const leaks: string[] = [];
    for (const seed of [SEED, SEED + 1, SEED + 2]) {
      for (const c of hardeningCases(createShapes(seed))) {
        const alone = redact(c.text).text;
        const inside = redact(`${noise.slice(0, 20_000)}\n${c.text}\n${noise.slice(20_000, 40_000)}`).text;
        if (leaked(c, alone).length > 0 || leaked(c, inside).length > 0) leaks.push(`${c.kind} (seed ${seed}): ${c.text.slice(0, 200)}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});
