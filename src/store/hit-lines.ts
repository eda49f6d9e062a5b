/**
 * The lines of a hit worth showing: the ones that match the query, best first, each with its
 * line number and clipped around the match. Never the chunk's first lines by default.
 */

export type Matcher = { needle: string; weight: number };
export type HitLine = { line: number; text: string };

const SUFFIXES = ["ations", "ation", "ings", "ing", "ions", "ion", "ies", "ied", "ers", "er", "ed", "es", "ly", "s"];

/** A crude stem so "failing" finds "failed": the prefix that porter would roughly keep. */
export function stemPrefix(word: string): string {
  for (const suffix of SUFFIXES) {
    if (word.length - suffix.length >= 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

export function matchersFor(words: string[], substrings: string[], fuzzyGrams: string[] = []): Matcher[] {
  const out = new Map<string, number>();
  for (const w of words) out.set(stemPrefix(w), Math.max(out.get(stemPrefix(w)) ?? 0, 1));
  for (const s of substrings) out.set(s, 3);
  for (const g of fuzzyGrams) if (!out.has(g)) out.set(g, 0.5);
  return [...out].map(([needle, weight]) => ({ needle, weight }));
}

export function clipAround(text: string, at: number, max: number): string {
  const t = text.replace(/\r$/, "");
  if (t.length <= max) return t;
  const start = Math.max(0, Math.min(at - Math.floor(max / 3), t.length - max));
  return `${start > 0 ? "…" : ""}${t.slice(start, start + max)}${start + max < t.length ? "…" : ""}`;
}

export function matchingLines(
  content: string,
  lineStart: number,
  matchers: Matcher[],
  maxLines: number,
  maxChars: number,
): { lines: HitLine[]; more: number } {
  const scored: { line: number; text: string; score: number; at: number }[] = [];
  const rows = content.split("\n");
  if (rows.length > 1 && rows[rows.length - 1] === "") rows.pop();
  rows.forEach((text, i) => {
    const lower = text.toLowerCase();
    let score = 0;
    let at = -1;
    for (const m of matchers) {
      const idx = lower.indexOf(m.needle);
      if (idx >= 0) {
        score += m.weight;
        if (at < 0 || m.weight >= 1) at = at < 0 ? idx : Math.min(at, idx);
      }
    }
    if (score > 0) scored.push({ line: lineStart + i, text, score, at });
  });
  const best = Math.max(0, ...scored.map((s) => s.score));
  // Lines far weaker than the best one (one common word of several) are noise, not hits.
  const kept = scored.filter((s) => s.score >= best * 0.6);
  const shown = [...kept].sort((a, b) => b.score - a.score || a.line - b.line).slice(0, maxLines).sort((a, b) => a.line - b.line);
  if (shown.length === 0) {
    return { lines: rows.slice(0, Math.min(2, maxLines)).map((text, i) => ({ line: lineStart + i, text: clipAround(text, 0, maxChars) })), more: 0 };
  }
  return { lines: shown.map((s) => ({ line: s.line, text: clipAround(s.text, Math.max(0, s.at), maxChars) })), more: kept.length - shown.length };
}
