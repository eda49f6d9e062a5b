/**
 * Builds the large store the search benchmarks run on, through the real capture path: a mix of
 * build logs, request logs, JSON and markdown, 5-10 MiB per source, with needle lines (a unique
 * identifier and a UUID) planted in each source so rare-identifier queries have a known right
 * answer. The engine indexes on its worker thread while the next text is generated and
 * captured, as in a long-lived host; the build ends when everything queued is indexed and
 * counted (`engine.settle()`).
 */
import { defaultConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/open.ts";
import { createEngine } from "../src/engine.ts";
import { type CorpusKind, generate } from "./corpus.ts";
import { createRng } from "./prng.ts";
import { type StoreParts, storeParts } from "./schemas.ts";
import { checkpointedSize, type Scratch } from "./temp.ts";
import { log } from "./timing.ts";

export type Needle = { uuid: string; ident: string; handle: string; kind: CorpusKind };
/** `ms`: that capture's time to receipt. */
export type StoreSource = { handle: string; kind: CorpusKind; tool: string; bytes: number; ms: number };
export type BuiltStore = {
  path: string;
  sources: StoreSource[];
  needles: Needle[];
  inputBytes: number;
  /** The captures' times to receipt, summed. */
  captureMs: number;
  /** Waiting for the indexing still queued after the last receipt. */
  settleMs: number;
  /** The whole build: generating the texts, capturing, indexing. */
  buildMs: number;
  dbBytes: number;
  parts: StoreParts;
  chunks: number;
};

const MIX: readonly CorpusKind[] = ["build", "request", "json", "build", "markdown", "request"];
const TOOL: Record<CorpusKind, string> = { build: "bash", request: "bash", json: "web_fetch", markdown: "read" };
const IDENT_STEMS = ["OrderReconciler", "LedgerSync", "InvoiceExporter", "QuotaWatcher", "WebhookRelay", "SessionJanitor", "FeatureGate"];
const NEEDLES_PER_SOURCE = 6;
const MIB = 1024 * 1024;

export async function buildStore(scratch: Scratch, targetBytes: number, seed: number): Promise<BuiltStore> {
  const started = performance.now();
  const rng = createRng(seed);
  const path = scratch.path("search-store");
  const db = openDatabase(path);
  const engine = createEngine({ config: { ...defaultConfig(), db: path }, db, background: "worker" });
  const sources: StoreSource[] = [];
  const needles: Needle[] = [];
  let inputBytes = 0;
  let captureMs = 0;
  try {
    for (let i = 0; inputBytes < targetBytes; i++) {
      const kind = MIX[i % MIX.length]!;
      const size = Math.round((5 + 5 * rng.next()) * MIB);
      const planted = Array.from({ length: NEEDLES_PER_SOURCE }, () => ({
        uuid: rng.uuid(),
        ident: `${rng.pick(IDENT_STEMS)}_${rng.hex(10)}`,
      }));
      const text = generate(
        kind,
        seed + 1 + i,
        size,
        planted.map((p) => `reconciliation failed for ${p.ident} trace=${p.uuid}`),
      );
      const bytes = Buffer.byteLength(text);
      const t = performance.now();
      const value = await engine.capture({
        text,
        tool: TOOL[kind],
        force: true,
        session: `session-${i % 4}`,
        project: "/bench/project",
        label: `${kind} #${i}`,
      });
      const ms = performance.now() - t;
      if (!value.stored) throw new Error(`bench: store build capture was not stored (${value.reason})`);
      sources.push({ handle: value.sourceId, kind, tool: TOOL[kind], bytes, ms });
      for (const p of planted) needles.push({ ...p, handle: value.sourceId, kind });
      inputBytes += bytes;
      captureMs += ms;
      if (i % 5 === 4) log(`search store: ${(inputBytes / MIB).toFixed(0)} MiB captured (${sources.length} sources)`);
    }
    const settling = performance.now();
    await engine.settle();
    const settleMs = performance.now() - settling;
    const buildMs = performance.now() - started;
    const chunks = db.query<{ n: number }, []>("SELECT count(*) AS n FROM chunks").get()!.n;
    const dbBytes = checkpointedSize(db, path);
    return { path, sources, needles, inputBytes, captureMs, settleMs, buildMs, dbBytes, parts: storeParts(db), chunks };
  } finally {
    await engine.close();
    db.close();
  }
}
