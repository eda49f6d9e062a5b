/**
 * The lines of a hit worth showing: the ones that match the query, best first, each with its
 * line number and clipped around the match. Never the chunk's first lines by default.
 */

export type Matcher = { needle: string; weight: number; kind: "word" | "substring" | "fuzzy" };
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
  const out = new Map<string, Matcher>();
  for (const w of words) out.set(stemPrefix(w), { needle: stemPrefix(w), weight: 1, kind: "word" });
  for (const s of substrings) out.set(s, { needle: s, weight: 3, kind: "substring" });
  for (const g of fuzzyGrams) if (!out.has(g)) out.set(g, { needle: g, weight: 0.5, kind: "fuzzy" });
  return [...out.values()];
}

export function clipAround(text: string, at: number, max: number): string {
  const t = text.replace(/\r$/, "");
  if (t.length <= max) return t;
  const start = Math.max(0, Math.min(at - Math.floor(max / 3), t.length - max));
  return `${start > 0 ? "…" : ""}${t.slice(start, start + max)}${start + max < t.length ? "…" : ""}`;
}

const MAX_RECORD_LINES = 14;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * In pretty-printed JSON a matching line is usually one field of a record; the record around it
 * is what answers the question: all of it when it is short, else its own fields (the lines at
 * the matching line's depth), never more than MAX_RECORD_LINES.
 */
export function jsonRecord(rows: string[], i: number): number[] {
  const indent = indentOf(rows[i]!);
  let open = -1;
  for (let k = i; k >= 0 && i - k < 400; k--) {
    if (indentOf(rows[k]!) < indent && rows[k]!.trimEnd().endsWith("{")) {
      open = k;
      break;
    }
  }
  if (open < 0) return [i];
  const openIndent = indentOf(rows[open]!);
  let close = -1;
  for (let k = i + 1; k < rows.length && k - open < 400; k++) {
    if (indentOf(rows[k]!) === openIndent && rows[k]!.trim().startsWith("}")) {
      close = k;
      break;
    }
  }
  const end = close < 0 ? rows.length - 1 : close;
  const all = Array.from({ length: end - open + 1 }, (_, k) => open + k);
  if (all.length <= MAX_RECORD_LINES) return all;
  const fields = all.filter((k) => k === open || k === close || indentOf(rows[k]!) === indent);
  return fields.length <= MAX_RECORD_LINES ? fields : [i];
}

export function matchingLines(
  content: string,
  lineStart: number,
  matchers: Matcher[],
  maxLines: number,
  maxChars: number,
  json = false,
  /** Every word must be on a line for it to count (the search matched all words). */
  allWords = false,
): { lines: HitLine[]; more: number } {
  const scored: { line: number; text: string; score: number; at: number; complete: boolean }[] = [];
  const words = matchers.filter((m) => m.kind === "word").length;
  const rows = content.split("\n");
  if (rows.length > 1 && rows[rows.length - 1] === "") rows.pop();
  rows.forEach((text, i) => {
    const lower = text.toLowerCase();
    let score = 0;
    let at = -1;
    let wordHits = 0;
    let substringHit = false;
    for (const m of matchers) {
      const idx = lower.indexOf(m.needle);
      if (idx >= 0) {
        score += m.weight;
        if (m.kind === "word") wordHits++;
        if (m.kind === "substring") substringHit = true;
        if (at < 0 || m.weight >= 1) at = at < 0 ? idx : Math.min(at, idx);
      }
    }
    if (score > 0) scored.push({ line: lineStart + i, text, score, at, complete: substringHit || wordHits === words });
  });
  const candidates = allWords ? scored.filter((s) => s.complete) : scored;
  const best = Math.max(0, ...candidates.map((s) => s.score));
  const clip = (k: number) => ({ line: lineStart + k, text: clipAround(rows[k]!, 0, maxChars) });
  // No line has the query: the chunk matched by its title (a heading, or a JSON record that
  // began in the chunk before), so its first lines are the ones that title describes.
  if (best === 0) {
    const count = json ? Math.min(rows.length, MAX_RECORD_LINES) : Math.min(rows.length, 3, maxLines);
    const picked = json ? jsonRecordTail(rows, count) : Array.from({ length: count }, (_, k) => k);
    return { lines: picked.map(clip), more: 0 };
  }
  // Lines far weaker than the best one (one common word of several) are noise, not hits.
  const kept = candidates.filter((s) => s.score >= best * 0.6);
  const shown = [...kept]
    .sort((a, b) => b.score - a.score || a.line - b.line)
    .slice(0, maxLines)
    .sort((a, b) => a.line - b.line);
  if (json) {
    // The best match's record, then the other matching lines while they fit.
    const record = jsonRecord(rows, shown.find((s) => s.score === best)!.line - lineStart);
    const picked = new Map<number, string>();
    for (const k of record) picked.set(lineStart + k, clipAround(rows[k]!, 0, maxChars));
    for (const s of shown)
      if (picked.size < Math.max(maxLines, record.length)) picked.set(s.line, clipAround(s.text, Math.max(0, s.at), maxChars));
    const lines = [...picked].sort((a, b) => a[0] - b[0]).map(([line, text]) => ({ line, text }));
    return { lines, more: kept.filter((s) => !picked.has(s.line)).length };
  }
  return {
    lines: shown.map((s) => ({ line: s.line, text: clipAround(s.text, Math.max(0, s.at), maxChars) })),
    more: kept.length - shown.length,
  };
}

/**
 * The end of a record that began in an earlier chunk: its fields at each level as the nesting
 * unwinds, up to the brace that closes the record (the one followed by the next record).
 */
function jsonRecordTail(rows: string[], max: number): number[] {
  const first = rows.findIndex((r) => r.trim() !== "");
  if (first < 0) return [];
  let level = indentOf(rows[first]!);
  const out: number[] = [];
  for (let k = first; k < rows.length && out.length < max; k++) {
    const depth = indentOf(rows[k]!);
    if (depth > level) continue;
    level = depth;
    out.push(k);
    const next = rows[k + 1]?.trim() ?? "";
    if (rows[k]!.trim().startsWith("}") && (next === "{" || next === "" || next.startsWith("]"))) break;
  }
  return out;
}
