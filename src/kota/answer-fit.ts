/**
 * An answer's text within the byte budget: the fullest rendering that fits, saying what was cut and
 * how to narrow the question; when even the narrowest is over, the full text goes to the context
 * store and the model gets its head and the receipt (or, with no store, the head cut at the budget).
 */
import { bytes, type Fitted, fitToBudget, headLines, type Rendering } from "./budget.ts";

export type FitInput = {
  render: (level: number) => Rendering;
  levels: number;
  narrow: string;
  budgetBytes: number;
  /** Stores text in the context store; returns the receipt. */
  store?: (text: string, label: string) => Promise<string>;
  label: string;
};

export type FitOutcome = { text: string; isError: false; details: Record<string, unknown> };

export async function fitAnswer(o: FitInput, details: Record<string, unknown>): Promise<FitOutcome> {
  const fit: Fitted = fitToBudget(o.render, o.levels, o.budgetBytes, o.narrow);
  const d = { ...details, level: fit.level, cut: fit.cut, bytes: bytes(fit.full) };
  if (!fit.over) return { text: fit.text, isError: false, details: d };
  if (o.store) {
    try {
      const receipt = await o.store(fit.full, o.label);
      const head = headLines(fit.text, Math.max(256, o.budgetBytes - bytes(receipt) - 120));
      return {
        text: `${head}\n[The whole answer (${bytes(fit.full)} bytes) is over the ${o.budgetBytes}-byte budget even when narrowed; it was stored:]\n${receipt}`,
        isError: false,
        details: { ...d, stored: true },
      };
    } catch {
      // the store refused: fall back to a cut answer
    }
  }
  const head = headLines(fit.text, o.budgetBytes - 160);
  return {
    text: `${head}\n[Cut at the ${o.budgetBytes}-byte budget. ${o.narrow}]`,
    isError: false,
    details: { ...d, cut: [...fit.cut, "cut at the budget"] },
  };
}
