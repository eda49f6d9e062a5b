/**
 * Smoke run of the context-mode peer adapter: `node_modules/.bin/bun bench/peers/smoke.ts [--runtime=bun]`.
 * Indexes a 1 MiB build log with one hidden line (both index paths), checks four needle searches
 * plus 64 more queries (far past ctx_search's 8-per-minute block), then indexes 10 MiB logs.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildLog, requestLog } from "../corpus.ts";
import { createRng } from "../prng.ts";
import { type IndexMode, isContextModeSkipped, openContextMode, type PeerStore } from "./context-mode.ts";

const SEED = 20260523;
const MiB = 1024 * 1024;
const runtime = process.argv.includes("--runtime=bun") ? "bun" : "node";

if (isContextModeSkipped()) {
  console.log("context-mode skipped (BENCH_SKIP_PEERS)");
  process.exit(0);
}

const rng = createRng(SEED);
const uuid = rng.uuid();
// The typo'd word and the identifier occur on the hidden line only (checked below).
const hidden = `ERROR ledger reconciliation aborted TARGET_VALUE=${uuid} writer=ledgerSnapshotWriter retry=3`;
const needles = [
  { name: "uuid", query: uuid },
  { name: "TARGET_VALUE", query: "TARGET_VALUE" },
  { name: "typo", query: "reconcilation" },
  { name: "identifier substring", query: "SnapshotWrit" },
];

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / MiB).toFixed(2)} MiB`;
const scratchRoot = join(tmpdir(), `context-mode-smoke-${process.pid}`);
let stores = 0;

async function withStore<T>(mode: IndexMode, fn: (store: PeerStore) => Promise<T>): Promise<T> {
  const store = await openContextMode(join(scratchRoot, String(++stores)), { mode, runtime });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function needleRun(log: string, mode: IndexMode): Promise<void> {
  await withStore(mode, async (store) => {
    const indexed = await store.index(log, "build.log");
    const stats = await store.stats();
    console.log(`\n## 1 MiB build log, mode=${mode} (${store.runtime}, ${store.driver}, SQLite ${store.sqlite})`);
    console.log(`index ${fmt(indexed.ms)} (ipc ${fmt(indexed.ipcMs)}), ${indexed.chunks} chunks`);
    const t = stats.tables;
    const split = t ? ` (porter ${mb(t.porter)}, trigram ${mb(t.trigram)}, vocabulary ${mb(t.vocabulary)}, other ${mb(t.other)})` : "";
    console.log(
      `db ${mb(stats.checkpointedBytes)} checkpointed = ${(stats.checkpointedBytes / Buffer.byteLength(log)).toFixed(1)}x input${split}; ` +
        `on disk before checkpoint ${mb(stats.onDiskBytes)}; vocabulary ${stats.vocabulary} words`,
    );
    for (const needle of needles) {
      const scoped = await store.search(needle.query, { source: indexed.sourceId });
      const shown = scoped.hits.some((h) => h.text.includes(uuid));
      const layers = scoped.hits.map((h) => h.matchLayer).join(",");
      console.log(
        `search ${needle.name.padEnd(21)} ${shown ? "SHOWN " : "MISSED"} ${fmt(scoped.ms)} (search ${fmt(scoped.searchMs)}, render ${fmt(scoped.renderMs)}, ipc ${fmt(scoped.ipcMs)}) ` +
          `${scoped.hits.length} hits [${layers}], ${scoped.raw.length} chars shown`,
      );
    }
    // 64 more queries in a row: words and identifiers from the log, unscoped like a plain ctx_search.
    const tokens = [...new Set(log.match(/[A-Za-z][A-Za-z0-9_.-]{3,}/g) ?? [])];
    const qrng = createRng(SEED + 1);
    const times: number[] = [];
    let answered = 0;
    for (let i = 0; i < 64; i++) {
      const query = i % 2 === 0 ? qrng.pick(tokens) : `${qrng.pick(tokens)} ${qrng.pick(tokens)}`;
      const r = await store.search(query);
      times.push(r.ms);
      if (r.hits.length > 0) answered++;
    }
    console.log(
      `64 more searches: ${answered}/64 with hits, median ${fmt(percentile(times, 50))}, p95 ${fmt(percentile(times, 95))}, max ${fmt(Math.max(...times))}`,
    );
  });
}

async function bulkRun(name: string, text: string, mode: IndexMode, probe?: string): Promise<void> {
  await withStore(mode, async (store) => {
    const indexed = await store.index(text, name);
    const stats = await store.stats();
    let found = "";
    if (probe) {
      const r = await store.search(probe, { source: indexed.sourceId });
      found = `; search for one of its UUIDs ${r.hits.some((h) => h.text.includes(probe)) ? "shown" : "MISSED"} in ${fmt(r.ms)}`;
    }
    console.log(
      `${name.padEnd(26)} mode=${mode.padEnd(8)} index ${fmt(indexed.ms)} (ipc ${fmt(indexed.ipcMs)}), ${indexed.chunks} chunks, ` +
        `db ${mb(stats.checkpointedBytes)} (${(stats.checkpointedBytes / Buffer.byteLength(text)).toFixed(1)}x)${found}`,
    );
  });
}

try {
  console.log(`context-mode smoke, seed ${SEED}, hidden line: ${hidden}`);
  const log = buildLog(SEED, MiB, [hidden]);
  for (const word of ["reconciliation", "snapshotwrit"]) {
    const lines = log.split("\n").filter((l) => l.toLowerCase().includes(word));
    if (lines.length !== 1) console.log(`warning: "${word}" is on ${lines.length} lines, not only the hidden one`);
  }
  await needleRun(log, "plain");
  await needleRun(log, "markdown");

  console.log("\n## 10 MiB logs");
  const requests = requestLog(SEED, 10 * MiB);
  const someUuid = requests.split("\n")[54321]?.match(/req_id=([0-9a-f-]{36})/)?.[1];
  await bulkRun("request log (UUID/line)", requests, "plain", someUuid);
  await bulkRun("build log", buildLog(SEED + 2, 10 * MiB), "plain");
  if (process.argv.includes("--markdown-10mib")) {
    await bulkRun("request log (UUID/line)", requests, "markdown", someUuid);
    await bulkRun("build log", buildLog(SEED + 2, 10 * MiB), "markdown");
  }
} finally {
  rmSync(scratchRoot, { recursive: true, force: true });
}
