/**
 * The receipt the model gets instead of an oversized output: what was stored and why, how big,
 * the source id, the exact next calls, then a preview that says what happened (a summary for the
 * kinds of output it knows, the important lines, head and tail), fitted to a byte budget
 * (2 KiB by default). The header and next calls are never cut; the preview shrinks to fit.
 */
import { formatBytes, formatCount } from "../units.ts";
import type { NextCalls } from "./next-calls.ts";
import { analyzeView } from "./receipt/analyze.ts";
import { fitPreview } from "./receipt/fit-preview.ts";
import { createTextView } from "./receipt/text-view.ts";

export type ReceiptInput = {
  sourceId: string;
  tool: string;
  reason: string;
  bytes: number;
  lines: number;
  chunks: number;
  /** Shown only when given: captures no longer count tokens before the receipt. */
  tokens?: number;
  redactions: { count: number; kinds: Record<string, number> };
  duplicateOf: string | null;
  text: string;
  calls: NextCalls;
  budget: number;
  /** Facts about how the text was stored (e.g. it was not valid UTF-8), shown after the header. */
  notes?: string[];
};

/** Lines the "or:" call fetches around the line that matters most. */
const CONTEXT_LINES = 40;

export function buildReceipt(r: ReceiptInput): string {
  const size = `${formatBytes(r.bytes)}, ${formatCount(r.lines)} lines${r.tokens === undefined ? "" : `, ${formatCount(r.tokens)} tokens`}`;
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
  header.push(...(r.notes ?? []));
  const view = createTextView(r.text, r.lines);
  const analysis = analyzeView(view);
  // Around the line that matters most, or the last lines, where tools print their verdict.
  const focus = analysis.important[0]?.line;
  const from = focus === undefined ? Math.max(1, r.lines - CONTEXT_LINES + 1) : Math.max(1, focus - CONTEXT_LINES / 2);
  const to = Math.max(from, Math.min(r.lines, focus === undefined ? r.lines : from + CONTEXT_LINES));
  // An empty output has no lines to fetch.
  if (r.lines === 0) header.push("It is empty: there is nothing to search or fetch.");
  else header.push(`Next: ${r.calls.search(r.sourceId)}`, `  or: ${r.calls.lines(r.sourceId, from, to)}`);

  const fixed = header.join("\n");
  const preview = fitPreview({ analysis, head: view.head(), tail: view.tail(), totalLines: r.lines }, Buffer.byteLength(fixed), r.budget);
  return preview.length > 0 ? `${fixed}\n${preview.join("\n")}` : fixed;
}
