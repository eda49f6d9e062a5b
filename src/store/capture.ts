/**
 * Capture: text under the threshold passes through untouched; above it, secrets are redacted,
 * the text is chunked, titled and stored, and the receipt comes back at once. Indexing and token
 * counting are queued in the same transaction (index-queue.ts finishes them), so nothing
 * acknowledged is ever lost and a search waits for them. Every capture gets its own source id;
 * identical text in a project is stored once.
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { toolThresholds } from "../config.ts";
import { immediateAsync } from "../db/open.ts";
import { AppError } from "../errors.ts";
import { sha256 } from "../hash.ts";
import { redact } from "../redact/redact.ts";
import { countLines, decodeUtf8, stripAnsi } from "../text.ts";
import { formatBytes } from "../units.ts";
import { chunkText } from "./chunk.ts";
import type { EngineDeps } from "./engine-deps.ts";
import { newHandle } from "./ids.ts";
import { buildReceipt } from "./receipt.ts";
import { detectKind, type TextKind, titleChunks } from "./titles.ts";

export type CaptureInput = {
  /** The output; or `file`, a file holding it (pi's full output of a cut result), which is read here. */
  text?: string;
  file?: string;
  /** Byte sequences of the original that were not valid UTF-8 (and became U+FFFD), when the caller decoded it. */
  invalidUtf8?: number;
  tool: string;
  session?: string | null;
  project?: string;
  label?: string | null;
  /** Store even below the threshold (and even for a tool whose capture is disabled). */
  force?: boolean;
  /** What the host would have put in the model's context instead (default: the whole output, "uncut"). */
  baseline?: CaptureBaseline;
};

/**
 * What a capture's saving is measured against: the host's own cut of the output (the text it
 * would have sent), the whole output (`uncut`), or nothing (`none`: text kept for pruning or
 * memory, which count their savings on their own lines). `rule` says which, in words.
 */
export type CaptureBaseline =
  | { kind: "cut"; text: string; rule: string }
  | { kind: "uncut"; rule?: string }
  | { kind: "none"; rule: string };

export const UNCUT_RULE = "uncut: the whole output (the caller's limit is not known)";

type BaselineRow = { kind: string; rule: string; bytes: number; text: string | null };

/** The row a baseline becomes; a host's "cut" that is the whole output is uncut. Redacted before it is kept. */
function baselineRow(b: CaptureBaseline | undefined, output: string, storedBytes: number): BaselineRow {
  if (b?.kind === "none") return { kind: "none", rule: redact(b.rule).text, bytes: 0, text: null };
  if (b?.kind === "cut" && b.text !== output) {
    const text = redact(stripAnsi(b.text)).text;
    return { kind: "cut", rule: redact(b.rule).text, bytes: Buffer.byteLength(text), text };
  }
  return { kind: "uncut", rule: redact(b?.rule ?? UNCUT_RULE).text, bytes: storedBytes, text: null };
}

export type PassThrough = { stored: false; reason: string; bytes: number; lines: number; text: string };
export type Stored = {
  stored: true;
  sourceId: string;
  bytes: number;
  lines: number;
  chunks: number;
  redactions: number;
  duplicateOf: string | null;
  receipt: string;
};
export type CaptureResult = PassThrough | Stored;

type BlobRow = { id: number; chunk_count: number };

/** Why it was stored, or null when it passes through (and why not). */
function decideStore(deps: EngineDeps, input: CaptureInput, bytes: number, lines: number): { reason: string } | { passReason: string } {
  if (input.force) return { reason: "storing was forced" };
  const limits = toolThresholds(deps.config, input.tool);
  if (!limits.enabled) return { passReason: `capture is disabled for ${input.tool}` };
  if (bytes > limits.bytes) return { reason: `it is over the ${formatBytes(limits.bytes)} threshold` };
  if (lines > limits.lines) return { reason: `it is over the ${limits.lines}-line threshold` };
  return { passReason: "under the threshold" };
}

function prepareChunks(text: string, kind: TextKind, capBytes: number) {
  const chunks = chunkText(text, capBytes);
  return { chunks, titles: titleChunks(text, kind, chunks) };
}

/** The output to store, and how many of its byte sequences were not valid UTF-8: given, or read from the file named. */
function outputOf(input: CaptureInput): { text: string; invalid: number } {
  if (input.text !== undefined) return { text: input.text, invalid: input.invalidUtf8 ?? 0 };
  if (input.file === undefined) throw new AppError("BAD_INPUT", "capture needs text or a file");
  const st = statSync(input.file);
  if (!st.isFile() || st.size > MAX_FILE_BYTES)
    throw new AppError("BAD_INPUT", `${input.file} is not a regular file of at most ${formatBytes(MAX_FILE_BYTES)}`);
  return decodeUtf8(readFileSync(input.file));
}

const MAX_FILE_BYTES = 256 * 1024 * 1024;

export async function capture(deps: EngineDeps, input: CaptureInput): Promise<CaptureResult> {
  const { db, config, now } = deps;
  const { text: original, invalid } = outputOf(input);
  const bytes = Buffer.byteLength(original);
  const lines = countLines(original);
  const decision = decideStore(deps, input, bytes, lines);
  if ("passReason" in decision) return { stored: false, reason: decision.passReason, bytes, lines, text: original };

  // The project path is stored too: it passes redaction like every other string.
  const project = redact(resolve(input.project ?? process.cwd())).text;
  // What is stored is what a model should read: no terminal colour codes.
  const redacted = redact(stripAnsi(original));
  const text = redacted.text;
  const hash = sha256(text);
  const storedBytes = Buffer.byteLength(text);
  const storedLines = countLines(text);
  const kind = detectKind(text);
  const findBlob = db.query<BlobRow, [string, string]>("SELECT id, chunk_count FROM blobs WHERE project = ? AND hash = ?");
  const lastHandle = db.query<{ handle: string }, [number]>("SELECT handle FROM sources WHERE blob_id = ? ORDER BY id DESC LIMIT 1");
  const taken = db.query<{ one: number }, [string]>("SELECT 1 AS one FROM sources WHERE handle = ?");

  // CPU work happens before the write lock is taken; a duplicate skips it.
  const existing = findBlob.get(project, hash);
  let prepared = existing ? null : prepareChunks(text, kind, config.capture.chunkBytes);
  let sourceId = newHandle();
  while (taken.get(sourceId)) sourceId = newHandle();
  // Every string that is stored goes through redaction, not only the text.
  const label = input.label ? redact(input.label).text : null;
  const tool = redact(input.tool).text;
  const session = input.session ? redact(input.session).text : null;
  const baseline = baselineRow(input.baseline, original, storedBytes);
  const receiptFor = (chunks: number, duplicateOf: string | null) =>
    buildReceipt({
      sourceId,
      tool,
      reason: decision.reason,
      bytes: storedBytes,
      lines: storedLines,
      chunks,
      redactions: { count: redacted.count, kinds: redacted.kinds },
      duplicateOf,
      text,
      calls: deps.calls,
      budget: config.capture.receiptBytes,
      notes:
        invalid > 0
          ? [`The input was not valid UTF-8: ${invalid} byte sequence${invalid === 1 ? " was" : "s were"} stored as U+FFFD.`]
          : [],
    });
  const expected = existing
    ? { duplicateOf: lastHandle.get(existing.id)?.handle ?? null, chunks: existing.chunk_count }
    : { duplicateOf: null, chunks: prepared!.chunks.length };
  let receipt = receiptFor(expected.chunks, expected.duplicateOf);
  const createdAt = now();

  // Synchronous inside; async only while waiting for another process's write lock.
  const result = await immediateAsync(db, async () => {
    let blob = findBlob.get(project, hash);
    let duplicateOf: string | null = null;
    if (blob) {
      duplicateOf = lastHandle.get(blob.id)?.handle ?? null;
    } else {
      // Another process may have stored and then purged it since the first look.
      prepared ??= prepareChunks(text, kind, config.capture.chunkBytes);
      const blobId = Number(
        db
          .query("INSERT INTO blobs (project, hash, bytes, lines, tokens, chunk_count, kind, created_at) VALUES (?, ?, ?, ?, 0, ?, ?, ?)")
          .run(project, hash, storedBytes, storedLines, prepared.chunks.length, kind, createdAt).lastInsertRowid,
      );
      const insert = db.query("INSERT INTO chunks (blob_id, ordinal, line_start, line_end, title, content) VALUES (?, ?, ?, ?, ?, ?)");
      for (const [i, c] of prepared.chunks.entries()) insert.run(blobId, i + 1, c.lineStart, c.lineEnd, prepared.titles[i]!, c.text);
      db.query("INSERT INTO index_queue (blob_id, queued_at) VALUES (?, ?)").run(blobId, createdAt);
      db.query("INSERT INTO blob_count_queue (blob_id) VALUES (?)").run(blobId);
      blob = { id: blobId, chunk_count: prepared.chunks.length };
    }
    // The store changed between the first look and the lock (another process stored or purged it).
    if (duplicateOf !== expected.duplicateOf || blob.chunk_count !== expected.chunks) receipt = receiptFor(blob.chunk_count, duplicateOf);
    if (taken.get(sourceId)) throw new Error(`source id ${sourceId} was taken meanwhile`);
    const sourceRow = db
      .query(
        `INSERT INTO sources (handle, blob_id, tool, session, project, label, reason, redactions, created_at, receipt_bytes, receipt,
           baseline_kind, baseline, baseline_bytes, baseline_text)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        sourceId,
        blob.id,
        tool,
        session,
        project,
        label,
        decision.reason,
        redacted.count,
        createdAt,
        Buffer.byteLength(receipt),
        receipt,
        baseline.kind,
        baseline.rule,
        baseline.bytes,
        baseline.text,
      );
    db.query("INSERT INTO count_queue (source_id) VALUES (?)").run(Number(sourceRow.lastInsertRowid));
    return { duplicateOf, chunks: blob.chunk_count };
  });

  return {
    stored: true,
    sourceId,
    bytes: storedBytes,
    lines: storedLines,
    chunks: result.chunks,
    redactions: redacted.count,
    duplicateOf: result.duplicateOf,
    receipt,
  };
}
