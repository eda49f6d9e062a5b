/**
 * Capture: text under the threshold passes through untouched; above it, secrets are
 * redacted, then the text is chunked, titled, counted and stored, and a receipt comes back.
 * Every capture gets its own source id; identical text in a project is stored once.
 */
import { resolve } from "node:path";
import { toolThresholds } from "../config.ts";
import { immediate } from "../db/open.ts";
import { formatBytes } from "../units.ts";
import { chunkText, countLines } from "./chunk.ts";
import type { StoreDeps } from "./deps.ts";
import { newHandle } from "./ids.ts";
import { buildReceipt } from "./receipt.ts";
import { redact } from "./redact.ts";
import { maybeRunRetention } from "./retention.ts";
import { detectKind, titleChunks } from "./titles.ts";
import { countTokens } from "./tokens.ts";

export type CaptureInput = {
  text: string;
  tool: string;
  session?: string | null;
  project?: string;
  label?: string | null;
  /** Store even below the threshold (and even for a tool whose capture is disabled). */
  force?: boolean;
};

export type PassThrough = { stored: false; reason: string; bytes: number; lines: number; text: string };
export type Stored = {
  stored: true;
  sourceId: string;
  bytes: number;
  lines: number;
  chunks: number;
  tokens: number;
  redactions: number;
  duplicateOf: string | null;
  receipt: string;
  receiptTokens: number;
};
export type CaptureResult = PassThrough | Stored;

type BlobRow = { id: number; chunk_count: number; tokens: number; lines: number; bytes: number };

export function capture(deps: StoreDeps, input: CaptureInput): CaptureResult {
  const { db, config, now } = deps;
  const bytes = Buffer.byteLength(input.text);
  const lines = countLines(input.text);
  const limits = toolThresholds(config, input.tool);
  if (!input.force) {
    if (!limits.enabled) return { stored: false, reason: `capture is disabled for ${input.tool}`, bytes, lines, text: input.text };
    if (bytes <= limits.bytes && lines <= limits.lines) {
      return { stored: false, reason: "under the threshold", bytes, lines, text: input.text };
    }
  }
  const reason = input.force
    ? "storing was forced"
    : bytes > limits.bytes
      ? `it is over the ${formatBytes(limits.bytes)} threshold`
      : `it is over the ${limits.lines}-line threshold`;

  const project = resolve(input.project ?? process.cwd());
  const redacted = redact(input.text);
  const text = redacted.text;
  const hash = new Bun.CryptoHasher("sha256").update(text).digest("hex");
  const storedBytes = Buffer.byteLength(text);
  const storedLines = countLines(text);

  const findBlob = db.query<BlobRow, [string, string]>(
    "SELECT id, chunk_count, tokens, lines, bytes FROM blobs WHERE project = ? AND hash = ?",
  );
  const existing = findBlob.get(project, hash);
  // CPU work happens before the write lock is taken; a duplicate skips it.
  const kind = detectKind(text);
  const prepared = existing ? null : prepareChunks(text, kind, config.capture.chunkBytes);
  const chunkCount = existing?.chunk_count ?? prepared!.chunks.length;
  const tokens = existing?.tokens ?? prepared!.tokens;
  const createdAt = now();

  const makeReceipt = (sourceId: string, duplicateOf: string | null) =>
    buildReceipt({
      sourceId, tool: input.tool, reason, bytes: storedBytes, lines: storedLines, chunks: chunkCount, tokens,
      redactions: { count: redacted.count, kinds: redacted.kinds }, duplicateOf, text, calls: deps.calls,
      budget: config.capture.receiptBytes,
    });

  const result = immediate(db, () => {
    let blob = findBlob.get(project, hash);
    let duplicateOf: string | null = null;
    if (blob) {
      duplicateOf = db.query<{ handle: string }, [number]>(
        "SELECT handle FROM sources WHERE blob_id = ? ORDER BY id DESC LIMIT 1",
      ).get(blob.id)?.handle ?? null;
    } else {
      const chunks = prepared ?? prepareChunks(text, kind, config.capture.chunkBytes);
      const blobId = Number(db.query(
        "INSERT INTO blobs (project, hash, bytes, lines, tokens, chunk_count, kind, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      ).run(project, hash, storedBytes, storedLines, chunks.tokens, chunks.chunks.length, kind, createdAt).lastInsertRowid);
      const insert = db.query(
        "INSERT INTO chunks (blob_id, ordinal, line_start, line_end, title, content) VALUES (?, ?, ?, ?, ?, ?)",
      );
      chunks.chunks.forEach((c, i) => insert.run(blobId, i + 1, c.lineStart, c.lineEnd, chunks.titles[i]!, c.text));
      blob = { id: blobId, chunk_count: chunks.chunks.length, tokens: chunks.tokens, lines: storedLines, bytes: storedBytes };
    }
    let sourceId = newHandle();
    const taken = db.query<{ one: number }, [string]>("SELECT 1 AS one FROM sources WHERE handle = ?");
    while (taken.get(sourceId)) sourceId = newHandle();
    const receipt = makeReceipt(sourceId, duplicateOf);
    const receiptTokens = countTokens(receipt);
    db.query(
      `INSERT INTO sources (handle, blob_id, tool, session, project, label, reason, redactions, created_at, receipt_bytes, receipt_tokens)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(sourceId, blob.id, input.tool, input.session ?? null, project, input.label ?? null, reason, redacted.count, createdAt,
      Buffer.byteLength(receipt), receiptTokens);
    return { sourceId, duplicateOf, receipt, receiptTokens };
  });

  maybeRunRetention(deps);
  return {
    stored: true,
    sourceId: result.sourceId,
    bytes: storedBytes,
    lines: storedLines,
    chunks: chunkCount,
    tokens,
    redactions: redacted.count,
    duplicateOf: result.duplicateOf,
    receipt: result.receipt,
    receiptTokens: result.receiptTokens,
  };
}

function prepareChunks(text: string, kind: ReturnType<typeof detectKind>, capBytes: number) {
  const chunks = chunkText(text, capBytes);
  const titles = titleChunks(text, kind, chunks);
  let tokens = 0;
  for (const c of chunks) tokens += countTokens(c.text);
  return { chunks, titles, tokens };
}
