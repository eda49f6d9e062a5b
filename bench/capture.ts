/**
 * Capture side by side with context-mode's store, in one run, on the same texts. For each run:
 *
 * - ours: a fresh database, `createEngine({ background: "worker" })` warmed up with one small
 *   capture and search (a long-lived host: the worker thread is running, the tokenizer loaded),
 *   then the measured `engine.capture`. Time to receipt is that call. Time to searchable runs
 *   from the same start until a word query and an identifier-substring query, both scoped to
 *   the source, have returned the planted needle line (`engine.search` waits for the queued
 *   indexing first, so the wait is in the first query). Then `engine.settle()` (token counts)
 *   and a checkpoint for the size.
 * - the peer: a fresh store (its own process), warmed up with one small text, then the measured
 *   `index()`: its time inside the worker, around the store call (indexing is synchronous, so
 *   its receipt is also its time to searchable). The same two queries must find the needle.
 *
 * Every run gets a distinct text (seeded) with one needle line planted in its middle. Once per
 * case, token counting of the same chunks is also timed alone on this thread: what the worker
 * does a quiet second after the last write, outside time to searchable.
 */
import { rmSync } from "node:fs";
import { defaultConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/open.ts";
import { createEngine, type Engine } from "../src/engine.ts";
import { chunkText } from "../src/store/chunk.ts";
import { countTokens } from "../src/tokens/count.ts";
import { type CorpusKind, generate } from "./corpus.ts";
import { isContextModeSkipped, openContextMode, type PeerStore } from "./peers/context-mode.ts";
import { createRng } from "./prng.ts";
import { medianParts, type StoreParts, storeParts } from "./schemas.ts";
import { median } from "./stats-math.ts";
import { checkpointedSize, removeDatabase, type Scratch } from "./temp.ts";
import { log, timeAsync } from "./timing.ts";

const MIB = 1024 * 1024;
const WARM_BYTES = 16 * 1024;

export type CaptureCase = { kind: CorpusKind; sizeLabel: string; bytes: number; runs: number; seed: number };

/** 1 MiB and (full mode) 10 MiB, each a build log and a UUID-per-line request log. */
export function captureCases(quick: boolean, seed: number): CaptureCase[] {
  const sizes = quick
    ? ([["1 MiB", MIB, 2]] as const)
    : ([
        ["1 MiB", MIB, 5],
        ["10 MiB", 10 * MIB, 3],
      ] as const);
  const cases: CaptureCase[] = [];
  for (const [sizeLabel, bytes, runs] of sizes) {
    for (const kind of ["build", "request"] as const) cases.push({ kind, sizeLabel, bytes, runs, seed: seed + cases.length * 100 });
  }
  return cases;
}

/** One planted line: a word found only there, and an identifier searched by a substring of it. */
type Needle = { line: string; word: string; substring: string };

function needleFor(seed: number): Needle {
  const rng = createRng(seed ^ 0x0ee41e);
  const letters = (n: number) => Array.from({ length: n }, (_, i) => rng.pick(i % 2 === 0 ? [..."bdfgklmnprstvz"] : [..."aeiou"])).join("");
  const word = `${letters(6)}${letters(5)}`;
  const hex = rng.hex(10);
  return {
    line: `ERROR ledger reconciliation aborted: ${word} in ledgerSnapshotWriter_${hex} retry=3`,
    word,
    substring: `Writer_${hex.slice(0, 6)}`,
  };
}

/** Medians over the runs; every time in ms, sizes in bytes (checkpointed). */
export type OursCapture = {
  chunks: number;
  receiptMs: number;
  searchableMs: number;
  /** The two needle queries again once indexed: their own latency. */
  wordMs: number;
  substringMs: number;
  dbBytes: number;
  parts: StoreParts;
  /** Runs where both queries returned the needle. */
  found: number;
};

export type PeerCapture = {
  chunks: number;
  indexMs: number;
  /** Round trip minus indexMs (JSON, pipe): shown, not charged. */
  ipcMs: number;
  wordMs: number;
  substringMs: number;
  dbBytes: number;
  found: number;
};

export type CaptureRow = {
  kind: CorpusKind;
  sizeLabel: string;
  runs: number;
  inputBytes: number;
  ours: OursCapture;
  peer: PeerCapture | null;
  /** Counting the tokens of the same chunks alone, warm tokenizer, on this thread (first run of the case). */
  tokensMs: number;
};

export type PeerInfo = { version: string; runtime: string; driver: string; sqlite: string };

export type CaptureBench = {
  rows: CaptureRow[];
  /** Who the peer was, or why it did not run. */
  peer: { ok: true; info: PeerInfo } | { ok: false; reason: string };
  /** A database with the schema and nothing stored, checkpointed: the fixed part of every size. */
  emptyDbBytes: number;
};

type OursRun = Omit<OursCapture, "found"> & { found: boolean };
type PeerRun = Omit<PeerCapture, "found"> & { found: boolean };

const hasNeedle = (texts: readonly string[], s: string) => texts.some((t) => t.includes(s));

async function searchHits(engine: Engine, query: string, source: string): Promise<string[]> {
  const r = await engine.search({ query, source });
  if (!r.ok) throw new Error(`bench: search ${JSON.stringify(query)} failed: ${r.message}`);
  return r.hits.map((h) => h.text);
}

async function oursRun(scratch: Scratch, kind: CorpusKind, text: string, warm: string, needle: Needle): Promise<OursRun> {
  const path = scratch.path(`capture-${kind}`);
  const db = openDatabase(path);
  const engine = createEngine({ config: { ...defaultConfig(), db: path }, db, background: "worker" });
  try {
    const warmed = await engine.capture({ text: warm, tool: "bash", force: true, project: "/bench/project" });
    if (warmed.stored) await engine.search({ query: "error", source: warmed.sourceId });
    await engine.settle();

    Bun.gc(true);
    const start = performance.now();
    const value = await engine.capture({ text, tool: "bash", force: true, project: "/bench/project" });
    const receiptMs = performance.now() - start;
    if (!value.stored) throw new Error(`bench: capture did not store the text (${value.reason})`);
    const words = await searchHits(engine, needle.word, value.sourceId);
    const substrings = await searchHits(engine, needle.substring, value.sourceId);
    const searchableMs = performance.now() - start;
    const found = hasNeedle(words, needle.word) && hasNeedle(substrings, needle.substring);

    const word = await timeAsync(() => engine.search({ query: needle.word, source: value.sourceId }), false);
    const substring = await timeAsync(() => engine.search({ query: needle.substring, source: value.sourceId }), false);
    await engine.settle();
    const dbBytes = checkpointedSize(db, path);
    return {
      chunks: value.chunks,
      receiptMs,
      searchableMs,
      wordMs: word.ms,
      substringMs: substring.ms,
      dbBytes,
      parts: storeParts(db),
      found,
    };
  } finally {
    await engine.close();
    db.close();
    removeDatabase(path);
  }
}

async function peerRun(store: PeerStore, text: string, warm: string, needle: Needle): Promise<PeerRun> {
  await store.index(warm, "warm-up.log");
  const indexed = await store.index(text, "bench.log");
  const hits = async (query: string) => (await store.search(query, { source: indexed.sourceId })).hits.map((h) => h.text);
  const found = hasNeedle(await hits(needle.word), needle.word) && hasNeedle(await hits(needle.substring), needle.substring);
  // Asked again, as ours are: the second answer's time is the query's own latency.
  const word = await store.search(needle.word, { source: indexed.sourceId });
  const substring = await store.search(needle.substring, { source: indexed.sourceId });
  const stats = await store.stats();
  return {
    chunks: indexed.chunks,
    indexMs: indexed.ms,
    ipcMs: indexed.ipcMs,
    wordMs: word.ms,
    substringMs: substring.ms,
    dbBytes: stats.checkpointedBytes,
    found,
  };
}

/** Opens a fresh peer store for one run; null (with the reason kept) when it is skipped or cannot start. */
async function openPeer(
  scratch: Scratch,
  state: { reason: string | null; info: PeerInfo | null },
): Promise<{ store: PeerStore; dir: string } | null> {
  if (state.reason !== null) return null;
  const dir = scratch.path("context-mode").replace(/\.db$/, "");
  try {
    const store = await openContextMode(dir);
    state.info ??= { version: store.version, runtime: store.runtime, driver: store.driver, sqlite: store.sqlite };
    return { store, dir };
  } catch (error) {
    state.reason = `it could not start: ${error instanceof Error ? error.message : String(error)}`;
    log(`context-mode: ${state.reason}`);
    return null;
  }
}

function emptyDatabaseBytes(scratch: Scratch): number {
  const path = scratch.path("empty");
  const db = openDatabase(path);
  try {
    return checkpointedSize(db, path);
  } finally {
    db.close();
    removeDatabase(path);
  }
}

/** What the worker's token count costs for this text: its chunks counted one by one. */
function timeTokens(text: string): number {
  const chunks = chunkText(text, defaultConfig().capture.chunkBytes);
  Bun.gc(true);
  const start = performance.now();
  for (const c of chunks) countTokens(c.text);
  return performance.now() - start;
}

const m = <T>(runs: readonly T[], pick: (r: T) => number) => median(runs.map(pick));

/** Runs every case, ours and the peer alternating run by run. `peer: false` leaves the peer out. */
export async function benchCapture(
  scratch: Scratch,
  cases: readonly CaptureCase[],
  options: { peer?: boolean } = {},
): Promise<CaptureBench> {
  const state: { reason: string | null; info: PeerInfo | null } = {
    reason: options.peer === false ? "left out by the caller" : isContextModeSkipped() ? "BENCH_SKIP_PEERS asked to skip it" : null,
    info: null,
  };
  const rows: CaptureRow[] = [];
  countTokens("load the tokenizer tables on this thread before anything is timed");
  for (const c of cases) {
    const ours: OursRun[] = [];
    const peer: PeerRun[] = [];
    const sizes: number[] = [];
    let tokensMs = Number.NaN;
    for (let i = 0; i < c.runs; i++) {
      const seed = c.seed + i;
      const needle = needleFor(seed);
      const text = generate(c.kind, seed, c.bytes, [needle.line]);
      const warm = generate(c.kind, seed ^ 0x3a3a, WARM_BYTES);
      sizes.push(Buffer.byteLength(text));
      if (i === 0) tokensMs = timeTokens(text);
      ours.push(await oursRun(scratch, c.kind, text, warm, needle));
      const opened = await openPeer(scratch, state);
      if (opened) {
        try {
          peer.push(await peerRun(opened.store, text, warm, needle));
        } finally {
          await opened.store.close();
          rmSync(opened.dir, { recursive: true, force: true });
        }
      }
      const o = ours.at(-1)!;
      const p = peer.at(-1);
      log(
        `capture ${c.kind} ${c.sizeLabel} run ${i + 1}/${c.runs}: receipt ${o.receiptMs.toFixed(0)} ms, searchable ${o.searchableMs.toFixed(0)} ms` +
          (p && peer.length === i + 1 ? `; context-mode ${p.indexMs.toFixed(0)} ms` : ""),
      );
    }
    rows.push({
      kind: c.kind,
      sizeLabel: c.sizeLabel,
      runs: c.runs,
      inputBytes: median(sizes),
      ours: {
        chunks: m(ours, (r) => r.chunks),
        receiptMs: m(ours, (r) => r.receiptMs),
        searchableMs: m(ours, (r) => r.searchableMs),
        wordMs: m(ours, (r) => r.wordMs),
        substringMs: m(ours, (r) => r.substringMs),
        dbBytes: m(ours, (r) => r.dbBytes),
        parts: medianParts(
          ours.map((r) => r.parts),
          median,
        ),
        found: ours.filter((r) => r.found).length,
      },
      peer:
        peer.length === c.runs
          ? {
              chunks: m(peer, (r) => r.chunks),
              indexMs: m(peer, (r) => r.indexMs),
              ipcMs: m(peer, (r) => r.ipcMs),
              wordMs: m(peer, (r) => r.wordMs),
              substringMs: m(peer, (r) => r.substringMs),
              dbBytes: m(peer, (r) => r.dbBytes),
              found: peer.filter((r) => r.found).length,
            }
          : null,
      tokensMs,
    });
  }
  const peerState =
    state.reason === null && state.info
      ? { ok: true as const, info: state.info }
      : { ok: false as const, reason: state.reason ?? "context-mode did not run" };
  return { rows, peer: peerState, emptyDbBytes: emptyDatabaseBytes(scratch) };
}
