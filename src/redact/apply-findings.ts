/**
 * Turns findings into the redacted text: overlapping findings merge (the most specific kind names
 * the merged span), each span becomes `[REDACTED:<kind>]` followed by the line breaks it covered,
 * so every later line keeps its number.
 */
import type { Finding } from "./scan-context.ts";

export type Applied = { text: string; count: number; kinds: Record<string, number> };

export function mergeFindings(findings: readonly Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Finding[] = [];
  for (const f of sorted) {
    const last = merged.at(-1);
    if (last && f.start < last.end) {
      if (f.end > last.end) last.end = f.end;
      if (f.rank > last.rank) {
        last.rank = f.rank;
        last.kind = f.kind;
      }
      continue;
    }
    merged.push({ ...f });
  }
  return merged;
}

export function marker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

export function applyFindings(text: string, findings: readonly Finding[]): Applied {
  const kinds: Record<string, number> = {};
  if (findings.length === 0) return { text, count: 0, kinds };
  const merged = mergeFindings(findings);
  const parts: string[] = [];
  let at = 0;
  for (const f of merged) {
    parts.push(text.slice(at, f.start));
    // Keep each line break the span covered, \r\n or \n, so line numbers and endings stay as they were.
    let breaks = "";
    for (let i = f.start; i < f.end; i++) if (text.charCodeAt(i) === 10) breaks += text.charCodeAt(i - 1) === 13 ? "\r\n" : "\n";
    parts.push(marker(f.kind) + breaks);
    kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
    at = f.end;
  }
  parts.push(text.slice(at));
  return { text: parts.join(""), count: merged.length, kinds };
}
