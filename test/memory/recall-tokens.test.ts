/**
 * Recall's token count is the real tokenizer's count of the text it returns, though it is summed
 * from the lines' own counts: lines ending in punctuation, quotes, slashes, spaces or code, and
 * the small budgets that make recall drop items until the whole fits.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { countTokens } from "../../src/tokens/count.ts";
import { cleanupTempDirs, rng, testSeed } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const ENDINGS = [".", "'", ")", "/", ":", "...", " ", "  ", "\t", "?!", '"', "`", "—", "é", "42", "/tmp/", "'s", "\\", "-", "»"];
const WORDS = ["billing", "port", "staging", "retry", "src/billing/handler.ts", "café", "naïve", "ECONNREFUSED", "8080", "ts", "don't"];

describe("recall tokens", () => {
  test("the count is the real tokenizer's count of the returned text, for any line endings and budgets", async () => {
    const seed = testSeed("recall-tokens");
    const r = rng(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
    const m = testMemory((c) => {
      c.memory.windowEvents = 20;
    });
    const kinds = ["prompt", "answer", "note", "error", "command", "decision"] as const;
    for (let i = 0; i < 90; i++) {
      const words = Array.from({ length: 3 + Math.floor(r() * 8) }, () => pick(WORDS)).join(" ");
      await m.add(pick(kinds), `${words}${pick(ENDINGS)}${r() < 0.3 ? `\n${pick(WORDS)}${pick(ENDINGS)}` : ""}`, `s${i % 4}`);
      m.clock.t += 60_000;
    }
    for (let i = 0; i < 12; i++) {
      const budget = pick([120, 200, 400, 1200]);
      const prompt = `${pick(WORDS)} ${pick(WORDS)}${pick(ENDINGS)}`;
      const recall = await m.ok({ type: "recall", project: PROJECT, session: `s${i % 5}`, prompt, budget }, "recall");
      expect(recall.text.length, `seed ${seed}`).toBeGreaterThan(0);
      expect(recall.tokens, `seed ${seed}: ${JSON.stringify(recall.text)}`).toBe(countTokens(recall.text));
      expect(recall.tokens).toBeLessThanOrEqual(budget);
    }
    m.db.close();
  });
});
