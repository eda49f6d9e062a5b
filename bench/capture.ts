/**
 * Capture throughput through the real code path (createEngine + openDatabase, WAL, force),
 * with the same text taken apart: redact, chunk + titles, token counting and the SQLite
 * transaction each timed alone, and the transaction again without full-text indexes (floor)
 * and with only one of the two indexes. The receipt and the hash are timed too. Every run
 * gets a fresh database file and a distinct text (identical text would be deduplicated).
 *
 * Warm runs share one token counter (the engine's worker thread, started once), as in a
 * long-lived process; cold runs give each engine its own, as a one-shot CLI process has.
 */
import { defaultConfig } from "../src/config.ts";
import { type Db, openDatabase } from "../src/db/open.ts";
import { createEngine } from "../src/engine.ts";
import { sha256 } from "../src/hash.ts";
import { redact } from "../src/redact/redact.ts";
import { chunkText } from "../src/store/chunk.ts";
import { CLI_CALLS } from "../src/store/next-calls.ts";
import { buildReceipt } from "../src/store/receipt.ts";
import { detectKind, titleChunks } from "../src/store/titles.ts";
import { countLines } from "../src/text.ts";
import { countTokens } from "../src/tokens/count.ts";
import { type TokenCounter, workerTokenCounter } from "../src/tokens/counter.ts";
import { type CorpusKind, generate } from "./corpus.ts";
import { insertChunks, type Prepared } from "./insert.ts";
import { type SchemaVariant, variantMigrations } from "./schemas.ts";
import { median } from "./stats-math.ts";
import { checkpointedSize, removeDatabase, type Scratch, type SizeBreakdown, sizeBreakdown } from "./temp.ts";
import { log, timeAsync, timeSync } from "./timing.ts";

export type CaptureCase = { kind: CorpusKind; sizeLabel: string; bytes: number; runs: number; seed: number };

/** Medians over the runs of one case; every time in ms. */
export type CaptureRow = {
  kind: CorpusKind;
  sizeLabel: string;
  runs: number;
  inputBytes: number;
  chunks: number;
  tokens: number;
  captureMs: number;
  redactMs: number;
  chunkTitlesMs: number;
  tokensMs: number;
  hashMs: number;
  receiptMs: number;
  sqliteMs: number;
  floorMs: number;
  wordsOnlyMs: number | null;
  trigramsOnlyMs: number | null;
  dbBytes: number;
  floorBytes: number;
  dbParts: SizeBreakdown;
};

type Run = Omit<CaptureRow, "kind" | "sizeLabel" | "runs">;

/** Times the bare insert transaction on a fresh database of the given schema. */
function timeInsert(
  scratch: Scratch,
  name: string,
  migrations: string[] | undefined,
  prepared: Prepared,
  hash: string,
): { ms: number; bytes: number } {
  const path = scratch.path(name);
  const db = openDatabase(path, migrations ? { migrations } : {});
  try {
    const { ms } = timeSync(() => insertChunks(db, prepared, hash));
    return { ms, bytes: checkpointedSize(db, path) };
  } finally {
    db.close();
    removeDatabase(path);
  }
}

function timeVariant(scratch: Scratch, variant: SchemaVariant, prepared: Prepared, hash: string): { ms: number; bytes: number } | null {
  const migrations = variantMigrations(variant);
  return migrations ? timeInsert(scratch, variant, migrations, prepared, hash) : null;
}

/** One warm token counter shared by every engine of the run; closing an engine leaves it running. */
export type CaptureContext = { scratch: Scratch; tokens: TokenCounter; close(): void };

export async function createCaptureContext(scratch: Scratch): Promise<CaptureContext> {
  const shared = workerTokenCounter();
  await shared.count(["warm up the token worker"]);
  countTokens("and the tokenizer on this thread, for the breakdown");
  return { scratch, tokens: { count: (texts) => shared.count(texts), close: () => {} }, close: () => shared.close() };
}

type Captured = { ms: number; db: Db; path: string; chunks: number; tokens: number; close(): Promise<void> };

/** One capture on a fresh database; `tokens` undefined gives the engine its own counter (cold). */
async function fullCapture(scratch: Scratch, text: string, tokens: TokenCounter | undefined): Promise<Captured> {
  const path = scratch.path("capture");
  const db = openDatabase(path);
  const engine = createEngine({ config: { ...defaultConfig(), db: path }, db, ...(tokens ? { tokens } : {}) });
  const { ms, value } = await timeAsync(() => engine.capture({ text, tool: "bash", force: true, project: "/bench/project" }));
  if (!value.stored) throw new Error(`bench: capture did not store the text (${value.reason})`);
  return { ms, db, path, chunks: value.chunks, tokens: value.tokens, close: () => engine.close() };
}

async function oneRun(ctx: CaptureContext, c: CaptureCase, seed: number): Promise<Run> {
  const { scratch } = ctx;
  const text = generate(c.kind, seed, c.bytes);
  const inputBytes = Buffer.byteLength(text);
  const capBytes = defaultConfig().capture.chunkBytes;

  const full = await fullCapture(scratch, text, ctx.tokens);
  const dbBytes = checkpointedSize(full.db, full.path);
  const dbParts = sizeBreakdown(full.db);
  await full.close();
  removeDatabase(full.path);

  const red = timeSync(() => redact(text));
  const redacted = red.value.text;
  const hash = timeSync(() => ({ hash: sha256(redacted), lines: countLines(redacted) }));
  const kind = detectKind(redacted);
  const chunked = timeSync(() => {
    const chunks = chunkText(redacted, capBytes);
    return { chunks, titles: titleChunks(redacted, kind, chunks) };
  });
  const tokens = timeSync(() => {
    let n = 0;
    for (const ch of chunked.value.chunks) n += countTokens(ch.text);
    return n;
  });
  const prepared: Prepared = {
    chunks: chunked.value.chunks,
    titles: chunked.value.titles,
    tokens: tokens.value,
    bytes: Buffer.byteLength(redacted),
    lines: hash.value.lines,
    kind,
  };
  const receipt = timeSync(() =>
    buildReceipt({
      sourceId: "ctx_benchmark",
      tool: "bash",
      reason: "storing was forced",
      bytes: prepared.bytes,
      lines: prepared.lines,
      chunks: prepared.chunks.length,
      tokens: prepared.tokens,
      redactions: { count: red.value.count, kinds: red.value.kinds },
      duplicateOf: null,
      text: redacted,
      calls: CLI_CALLS,
      budget: defaultConfig().capture.receiptBytes,
    }),
  );
  const sqlite = timeInsert(scratch, "tx", undefined, prepared, hash.value.hash);
  const floor = timeVariant(scratch, "floor", prepared, hash.value.hash)!;
  const words = timeVariant(scratch, "words-only", prepared, hash.value.hash);
  const trigrams = timeVariant(scratch, "trigrams-only", prepared, hash.value.hash);
  return {
    inputBytes,
    chunks: full.chunks,
    tokens: full.tokens,
    captureMs: full.ms,
    redactMs: red.ms,
    chunkTitlesMs: chunked.ms,
    tokensMs: tokens.ms,
    hashMs: hash.ms,
    receiptMs: receipt.ms,
    sqliteMs: sqlite.ms,
    floorMs: floor.ms,
    wordsOnlyMs: words?.ms ?? null,
    trigramsOnlyMs: trigrams?.ms ?? null,
    dbBytes,
    floorBytes: floor.bytes,
    dbParts,
  };
}

function medianOrNull(xs: (number | null)[]): number | null {
  const present = xs.filter((x): x is number => x !== null);
  return present.length === xs.length ? median(present) : null;
}

export async function benchCapture(ctx: CaptureContext, c: CaptureCase): Promise<CaptureRow> {
  const runs: Run[] = [];
  for (let i = 0; i < c.runs; i++) {
    runs.push(await oneRun(ctx, c, c.seed + i));
    log(`capture ${c.kind} ${c.sizeLabel}: run ${i + 1}/${c.runs} ${runs[i]!.captureMs.toFixed(0)} ms`);
  }
  const m = (pick: (r: Run) => number) => median(runs.map(pick));
  return {
    kind: c.kind,
    sizeLabel: c.sizeLabel,
    runs: c.runs,
    inputBytes: m((r) => r.inputBytes),
    chunks: m((r) => r.chunks),
    tokens: m((r) => r.tokens),
    captureMs: m((r) => r.captureMs),
    redactMs: m((r) => r.redactMs),
    chunkTitlesMs: m((r) => r.chunkTitlesMs),
    tokensMs: m((r) => r.tokensMs),
    hashMs: m((r) => r.hashMs),
    receiptMs: m((r) => r.receiptMs),
    sqliteMs: m((r) => r.sqliteMs),
    floorMs: m((r) => r.floorMs),
    wordsOnlyMs: medianOrNull(runs.map((r) => r.wordsOnlyMs)),
    trigramsOnlyMs: medianOrNull(runs.map((r) => r.trigramsOnlyMs)),
    dbBytes: m((r) => r.dbBytes),
    floorBytes: m((r) => r.floorBytes),
    dbParts: {
      chunks: m((r) => r.dbParts.chunks),
      words: m((r) => r.dbParts.words),
      trigrams: m((r) => r.dbParts.trigrams),
      other: m((r) => r.dbParts.other),
    },
  };
}

export type ColdRow = { kind: CorpusKind; sizeLabel: string; runs: number; inputBytes: number; coldMs: number };

/** Captures by a new engine with its own token counter each time: worker start and tokenizer load included. */
export async function benchColdCapture(scratch: Scratch, c: CaptureCase): Promise<ColdRow> {
  const times: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < c.runs; i++) {
    const text = generate(c.kind, c.seed + i, c.bytes);
    sizes.push(Buffer.byteLength(text));
    const full = await fullCapture(scratch, text, undefined);
    times.push(full.ms);
    await full.close();
    removeDatabase(full.path);
  }
  log(`capture ${c.kind} ${c.sizeLabel} cold: median ${median(times).toFixed(0)} ms`);
  return { kind: c.kind, sizeLabel: c.sizeLabel, runs: c.runs, inputBytes: median(sizes), coldMs: median(times) };
}
