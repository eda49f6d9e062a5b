/**
 * The short text that stands in for a pruned result: which tool and call, how big, and the exact
 * call that brings the stored text back. A read's pointer names the file and lines, which the
 * read cache no longer counts as shown.
 */
import { countLines } from "../text.ts";
import { formatBytes, formatCount } from "../units.ts";
import type { ResultView } from "./messages.ts";

/** How a pointer phrases the calls that bring text back (tool calls for models, commands for the CLI). */
export type Rehydrate = { lines(sourceId: string, from: number, to: number): string; search(sourceId: string): string };

/** The source a receipt (a result the context store already took) points at. */
export function receiptOf(r: ResultView): { sourceId: string; bytes: number; lines: number } | null {
  const p = (r.details as { piSidecar?: { sourceId?: unknown; bytes?: unknown; lines?: unknown } } | undefined)?.piSidecar;
  if (typeof p?.sourceId !== "string") return null;
  return { sourceId: p.sourceId, bytes: Number(p.bytes) || 0, lines: Number(p.lines) || 0 };
}

const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** The call's key arguments in a few words: a command, a path, a query. */
export function describeCall(r: ResultView): string {
  const a = r.args;
  const str = (k: string) => (typeof a[k] === "string" ? (a[k] as string) : undefined);
  const key = str("command") ?? str("path") ?? str("file_path") ?? str("query") ?? str("symbol") ?? str("tool") ?? str("source");
  if (key !== undefined) return `${r.tool} ${JSON.stringify(clip(oneLine(key), 80))}`;
  const first = Object.values(a).find((v) => typeof v === "string") as string | undefined;
  return first ? `${r.tool} ${JSON.stringify(clip(oneLine(first), 60))}` : r.tool;
}

/** A context_get answer: the stored lines it showed, which the same call shows again. */
export function fetchedLines(r: ResultView): { sourceId: string; from: number; to: number } | null {
  if (r.tool !== "context_get") return null;
  const d = r.details as { sourceId?: unknown; lineStart?: unknown; lineEnd?: unknown } | undefined;
  if (typeof d?.sourceId !== "string" || typeof d.lineStart !== "number" || typeof d.lineEnd !== "number") return null;
  return { sourceId: d.sourceId, from: d.lineStart, to: d.lineEnd };
}

/** The file lines a read result showed: from its read-cache record, else from offset and length. */
export function readLines(r: ResultView): { path: string; from: number; to: number } | null {
  if (r.tool !== "read") return null;
  const record = (r.details as { readcache?: { path?: unknown; trusted?: unknown } } | undefined)?.readcache;
  // The path as the model wrote it (shorter than the record's absolute one).
  const path = typeof r.args.path === "string" ? r.args.path : typeof record?.path === "string" ? record.path : null;
  if (path === null) return null;
  const trusted = Array.isArray(record?.trusted) ? (record.trusted as [number, number][]) : [];
  if (trusted.length > 0) return { path, from: trusted[0]![0], to: trusted.at(-1)![1] };
  const offset = Math.max(1, Math.floor(Number(r.args.offset ?? 1)) || 1);
  return { path, from: offset, to: offset + countLines(r.text) - 1 };
}

export function pointerText(r: ResultView, sourceId: string, rehydrate: Rehydrate): string {
  const receipt = receiptOf(r);
  if (receipt) {
    const size = `${formatBytes(receipt.bytes)}, ${formatCount(receipt.lines)} lines`;
    return `[pruned] ${describeCall(r)}: its output (${size}) is stored as ${sourceId}. Search it: ${rehydrate.search(sourceId)}; or get lines: ${rehydrate.lines(sourceId, 1, Math.min(receipt.lines, 40) || 1)}`;
  }
  const fetched = fetchedLines(r);
  if (fetched && fetched.sourceId === sourceId) {
    const span = `lines ${fetched.from}-${fetched.to}`;
    return `[pruned] context_get ${sourceId} ${span} (${formatBytes(Buffer.byteLength(r.text))}). The same text again: ${rehydrate.lines(sourceId, fetched.from, fetched.to)}`;
  }
  const lines = Math.max(1, countLines(r.text));
  const size = `${formatBytes(Buffer.byteLength(r.text))}, ${formatCount(lines)} line${lines === 1 ? "" : "s"}`;
  const exact = rehydrate.lines(sourceId, 1, lines);
  const read = readLines(r);
  if (read) {
    const span = read.from === read.to ? `line ${read.from}` : `lines ${read.from}-${read.to}`;
    return `[pruned] read ${read.path} ${span} (${size}): no longer in view, so reading them again returns the text. The text as it was shown: ${exact}`;
  }
  return `[pruned] ${describeCall(r)}${r.isError ? " (error)" : ""} (${size}). Exact text: ${exact}`;
}

/** A marker whose text is gone from the store too: it claims nothing, and says how to see the lines. */
export function lostMarkerText(r: ResultView): string {
  const read = readLines(r);
  const what = read
    ? `read ${read.path} ${read.from === read.to ? `line ${read.from}` : `lines ${read.from}-${read.to}`}`
    : describeCall(r);
  return `[pruned] ${what}: the earlier text this answer pointed to is no longer in view; read it again to see it.`;
}
