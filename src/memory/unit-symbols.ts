/**
 * Amounts of time written with a unit symbol ("24h", "90 d", "800ms", "120s") are found by the
 * unit's name: "how many hours ..." asks for what "cancel window 24h" says. The symbols are those
 * of the SI for time and the non-SI units accepted for use with it (BIPM, The International System
 * of Units, 9th edition, Table 8: min, h, d), with "hr"/"hrs" for the hour as commonly written.
 */

const NAMES: Readonly<Record<string, string>> = {
  ms: "milliseconds",
  s: "seconds",
  sec: "seconds",
  min: "minutes",
  h: "hours",
  hr: "hours",
  hrs: "hours",
  d: "days",
};

/** The name of a unit of time written by a symbol of two or more letters ("min": minutes, "hrs": hours); a one-letter symbol is no word. */
export const symbolName = (word: string): string | undefined => (word.length > 1 ? NAMES[word.toLowerCase()] : undefined);

/**
 * A number (digits, maybe a decimal part) and a time unit's symbol, attached or after one space on
 * the same line (a number ending a line and a word starting the next are no amount).
 */
const AMOUNT = /(?<![\p{L}\p{N}.])\d+(?:\.\d+)?[^\S\r\n]?(ms|sec|min|hrs?|[shd])(?![\p{L}\p{N}])/gu;

/** The name of a unit of time written by its symbol, one letter too (a number's unit: "24h", "90 d"). */
export const timeUnitName = (symbol: string): string | undefined => NAMES[symbol.toLowerCase()];

/** Whether a text may hold an amount of time in symbols (a digit before one of the symbols' letters). */
export const MAYBE_AMOUNT = /\d[^\S\r\n]?[mshd]/;

/** The unit names of the amounts of time a text writes in symbols, each once. */
export function unitNames(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(AMOUNT)) out.add(NAMES[m[1]!.toLowerCase()]!);
  return [...out];
}
