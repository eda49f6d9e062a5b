/**
 * The receipt the model gets instead of an oversized output: what was stored and why, how
 * big, the source id, the exact next calls, and a preview (head, lines that look important,
 * tail), fitted to a byte budget (2 KiB by default).
 */
import { formatBytes, formatCount } from "../units.ts";
import type { NextCalls } from "./next-calls.ts";
import { clipLine, headLines, notableLines, type PreviewLine, tailLines } from "./preview.ts";

export type ReceiptInput = {
  sourceId: string;
  tool: string;
  reason: string;
  bytes: number;
  lines: number;
  chunks: number;
  tokens: number;
  redactions: { count: number; kinds: Record<string, number> };
  duplicateOf: string | null;
  text: string;
  calls: NextCalls;
  budget: number;
};

function numbered(lines: PreviewLine[], width: number, maxChars: number): string[] {
  return lines.map((l) => `${String(l.line).padStart(width)}  ${clipLine(l.text, maxChars)}`);
}

export function buildReceipt(r: ReceiptInput): string {
  const size = `${formatBytes(r.bytes)}, ${formatCount(r.lines)} lines, ${formatCount(r.tokens)} tokens`;
  const header = [
    `[pi-sidecar] ${r.tool} output (${size}) was stored instead of shown: ${r.reason}.`,
    `Source ${r.sourceId}: ${formatCount(r.chunks)} chunk${r.chunks === 1 ? "" : "s"}` +
      (r.duplicateOf ? `, identical to ${r.duplicateOf} (stored once).` : "."),
  ];
  if (r.redactions.count > 0) {
    const kinds = Object.entries(r.redactions.kinds)
      .map(([k, n]) => (n > 1 ? `${k} x${n}` : k))
      .join(", ");
    header.push(`Redacted ${r.redactions.count} secret${r.redactions.count === 1 ? "" : "s"} before storing (${kinds}).`);
  }
  const notable = notableLines(r.text, 6);
  const focus = notable[0]?.line ?? Math.max(1, r.lines - 40);
  const from = Math.max(1, focus - 20);
  const to = Math.min(r.lines, from + 40);
  header.push(`Next: ${r.calls.search(r.sourceId)}`, `  or: ${r.calls.lines(r.sourceId, from, to)}`);

  const width = String(r.lines).length;
  const head = headLines(r.text, 3);
  const tail = tailLines(r.text, 3, r.lines).filter((t) => t.line > (head.at(-1)?.line ?? 0));
  const shown = new Set([...head, ...tail].map((l) => l.line));
  const important = notable.filter((l) => !shown.has(l.line));

  // Shrink the preview until the receipt fits: fewer lines, then shorter lines.
  for (const [maxChars, nHead, nImp, nTail] of [
    [140, 3, 6, 3],
    [110, 3, 5, 3],
    [90, 2, 4, 2],
    [72, 2, 3, 2],
    [60, 1, 2, 1],
    [48, 1, 1, 1],
    [40, 0, 1, 0],
  ] as const) {
    const parts = [...header];
    if (nHead > 0 && head.length > 0) parts.push("Head:", ...numbered(head.slice(0, nHead), width, maxChars));
    if (nImp > 0 && important.length > 0) parts.push("Lines that look important:", ...numbered(important.slice(0, nImp), width, maxChars));
    if (nTail > 0 && tail.length > 0) parts.push("Tail:", ...numbered(tail.slice(-nTail), width, maxChars));
    const out = parts.join("\n");
    if (Buffer.byteLength(out) <= r.budget) return out;
  }
  return header.join("\n");
}
