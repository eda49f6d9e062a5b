/**
 * Capture: text under the threshold passes through untouched; above it, secrets are
 * redacted, then the text is chunked, titled, counted and stored, and a receipt comes back.
 * Every capture gets its own source id; identical text in a project is stored once.
 */
import { resolve } from "node:path";
import { toolThresholds } from "../config.ts";
import { immediateAsync } from "../db/open.ts";
import type { EngineDeps } from "../engine-deps.ts";
import { sha256 } from "../hash.ts";
import { redact } from "../redact/redact.ts";
import { countLines } from "../text.ts";
import { formatBytes } from "../units.ts";
import { chunkText } from "./chunk.ts";
import { newHandle } from "./ids.ts";
import { buildReceipt } from "./receipt.ts";
import { detectKind, type TextKind, titleChunks } from "./titles.ts";

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

type BlobRow = { id: number; chunk_count: number; tokens: number };

export async function capture(deps: EngineDeps, input: CaptureInput): Promise<CaptureResult> {
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
  const hash = sha256(text);
  const storedBytes = Buffer.byteLength(text);
  const storedLines = countLines(text);
  const kind = detectKind(text);

  const findBlob = db.query<BlobRow, [string, string]>("SELECT id, chunk_count, tokens FROM blobs WHERE project = ? AND hash = ?");
  // CPU work happens before the write lock is taken; a duplicate skips it.
  let prepared = findBlob.get(project, hash) ? null : prepareChunks(text, kind, config.capture.chunkBytes);
  // Tokens are counted on a worker thread while this thread writes the chunks.
  let tokenCount = prepared ? deps.tokens.count(prepared.chunks.map((c) => c.text)) : null;
  const createdAt = now();

  const result = await immediateAsync(db, async () => {
    let blob = findBlob.get(project, hash);
    let duplicateOf: string | null = null;
    if (blob) {
      duplicateOf =
        db.query<{ handle: string }, [number]>("SELECT handle FROM sources WHERE blob_id = ? ORDER BY id DESC LIMIT 1").get(blob.id)
          ?.handle ?? null;
    } else {
      // Another process may have stored and then purged it since the first look.
      prepared ??= prepareChunks(text, kind, config.capture.chunkBytes);
      tokenCount ??= deps.tokens.count(prepared.chunks.map((c) => c.text));
      const blobId = Number(
        db
          .query("INSERT INTO blobs (project, hash, bytes, lines, tokens, chunk_count, kind, created_at) VALUES (?, ?, ?, ?, 0, ?, ?, ?)")
          .run(project, hash, storedBytes, storedLines, prepared.chunks.length, kind, createdAt).lastInsertRowid,
      );
      const insert = db.query("INSERT INTO chunks (blob_id, ordinal, line_start, line_end, title, content) VALUES (?, ?, ?, ?, ?, ?)");
      for (const [i, c] of prepared.chunks.entries()) insert.run(blobId, i + 1, c.lineStart, c.lineEnd, prepared.titles[i]!, c.text);
      const tokens = await tokenCount;
      db.query("UPDATE blobs SET tokens = ? WHERE id = ?").run(tokens, blobId);
      blob = { id: blobId, chunk_count: prepared.chunks.length, tokens };
    }
    let sourceId = newHandle();
    const taken = db.query<{ one: number }, [string]>("SELECT 1 AS one FROM sources WHERE handle = ?");
    while (taken.get(sourceId)) sourceId = newHandle();
    const receipt = buildReceipt({
      sourceId,
      tool: input.tool,
      reason,
      bytes: storedBytes,
      lines: storedLines,
      chunks: blob.chunk_count,
      tokens: blob.tokens,
      redactions: { count: redacted.count, kinds: redacted.kinds },
      duplicateOf,
      text,
      calls: deps.calls,
      budget: config.capture.receiptBytes,
    });
    const receiptTokens = await deps.tokens.count([receipt]);
    db.query(
      `INSERT INTO sources (handle, blob_id, tool, session, project, label, reason, redactions, created_at, receipt_bytes, receipt_tokens)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      sourceId,
      blob.id,
      input.tool,
      input.session ?? null,
      project,
      input.label ? redact(input.label).text : null,
      reason,
      redacted.count,
      createdAt,
      Buffer.byteLength(receipt),
      receiptTokens,
    );
    return { sourceId, duplicateOf, receipt, receiptTokens, chunks: blob.chunk_count, tokens: blob.tokens };
  });

  return {
    stored: true,
    sourceId: result.sourceId,
    bytes: storedBytes,
    lines: storedLines,
    chunks: result.chunks,
    tokens: result.tokens,
    redactions: redacted.count,
    duplicateOf: result.duplicateOf,
    receipt: result.receipt,
    receiptTokens: result.receiptTokens,
  };
}

function prepareChunks(text: string, kind: TextKind, capBytes: number) {
  const chunks = chunkText(text, capBytes);
  return { chunks, titles: titleChunks(text, kind, chunks) };
}
