/**
 * A hex number as the text writes it: tools print addresses zero-padded to a fixed width
 * (`0x0000000000001917`, printf's `%#018lx`, `%08x`), people type them short (`0x1917`), and the
 * other way round. A `0x` number of the query that the searched text does not hold is looked
 * for without its leading zeros and padded to the widths addresses and words are printed at
 * (4, 8 and 16 hex digits: 16-, 32- and 64-bit values); the first form the text holds replaces it.
 */

import type { EngineDeps } from "../engine-deps.ts";
import type { Filter } from "./candidates.ts";
import { type ParsedQuery, quote } from "./query.ts";

const HEX = /^0x([0-9a-f]+)$/;
/** Widths in hex digits a fixed-width value is printed at. */
const WIDTHS = [4, 8, 16];

/** The other ways `0x…` may be written: without leading zeros, then padded to each wider width. */
export function hexForms(word: string): string[] {
  const m = HEX.exec(word);
  if (!m) return [];
  const digits = m[1]!.replace(/^0+(?=.)/, "");
  const forms = [`0x${digits}`, ...WIDTHS.filter((w) => w > digits.length).map((w) => `0x${digits.padStart(w, "0")}`)];
  return [...new Set(forms)].filter((f) => f !== word);
}

/** The query with each hex number the text does not hold as typed written as the text writes it, or null when none changes. */
export function hexWidths(deps: EngineDeps, q: ParsedQuery, f: Filter): ParsedQuery | null {
  const hex = q.concepts.filter((c) => c.words.length === 1 && HEX.test(c.words[0]!));
  if (hex.length === 0) return null;
  const r = f.range ? " AND rowid BETWEEN ? AND ?" : "";
  const has = deps.db.query<{ one: number }, (string | number)[]>(
    `SELECT 1 AS one FROM chunks_words WHERE chunks_words MATCH ?${r} LIMIT 1`,
  );
  const held = (w: string) => has.get(quote(w), ...(f.range ?? [])) !== null;
  const to = new Map<string, string>();
  for (const c of hex) {
    const word = c.words[0]!;
    if (held(word)) continue;
    const form = hexForms(word).find(held);
    if (form) to.set(word, form);
  }
  if (to.size === 0) return null;
  const swap = (w: string) => to.get(w) ?? w;
  const swapText = (s: string) => s.replace(/0x[0-9a-f]+/g, swap);
  return {
    ...q,
    words: q.words.map(swap),
    idents: q.idents.map(swapText),
    whole: swapText(q.whole),
    phrases: q.phrases.map((p) => ({ words: p.words.map(swap), text: swapText(p.text) })),
    concepts: q.concepts.map((c) =>
      c.words.length === 1 && to.has(c.words[0]!)
        ? { ...c, words: [swap(c.words[0]!)], joined: swap(c.joined), runs: c.runs.map(swap) }
        : c,
    ),
  };
}
