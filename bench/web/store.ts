/**
 * The store the web benchmark reads: ~200 MB of captured output through the real capture path,
 * in many captures of mixed sizes (most small, a few of several MB), over 30 days, 50 sessions and
 * 4 projects; then searches and gets through the engine (the retrieval log), and pruning batches
 * and read-cache versions written as their subsystems write them (their rows only).
 */
import { defaultConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createEngine } from "../../src/engine.ts";
import { type CorpusKind, generate } from "../corpus.ts";
import { createRng, type Rng } from "../prng.ts";
import { log } from "../timing.ts";

export type WebStore = {
  path: string;
  sources: string[];
  /** An identifier planted in one source, and that source. */
  needle: { ident: string; source: string };
  inputBytes: number;
  retrievals: number;
  buildMs: number;
};

const MIX: readonly CorpusKind[] = ["build", "request", "json", "build", "markdown", "request"];
const TOOL: Record<CorpusKind, string> = { build: "bash", request: "bash", json: "web_fetch", markdown: "read" };
const PROJECTS = ["/work/api", "/work/web", "/work/infra", "/work/docs"];
const DAY = 86_400_000;
const KIB = 1024;

export async function buildWebStore(path: string, targetBytes: number, seed: number): Promise<WebStore> {
  const started = performance.now();
  const rng = createRng(seed);
  const begin = Date.UTC(2026, 9, 1);
  const clock = { t: begin };
  const defaults = defaultConfig();
  // Thirty days of captures: retention by age (7 days by default) would drop most of them.
  const config = { ...defaults, db: path, retention: { ...defaults.retention, days: 0 } };
  const engine = createEngine({ config, background: "worker", now: () => clock.t });
  const sources: string[] = [];
  let needle: WebStore["needle"] | null = null;
  let inputBytes = 0;
  for (let i = 0; inputBytes < targetBytes; i++) {
    const kind = MIX[i % MIX.length]!;
    const r = rng.next();
    const size = Math.round(
      r < 0.7 ? (16 + 80 * rng.next()) * KIB : r < 0.95 ? (128 + 640 * rng.next()) * KIB : (2048 + 4096 * rng.next()) * KIB,
    );
    const ident = `LedgerShard_${rng.hex(10)}`;
    const text = generate(kind, seed + i, size, [`reconciliation failed for ${ident}`]);
    clock.t = begin + Math.floor((inputBytes / targetBytes) * 30 * DAY);
    const c = await engine.capture({
      text,
      tool: TOOL[kind],
      session: `session-${Math.floor(i / 12)}`,
      project: PROJECTS[i % PROJECTS.length]!,
      label: `${kind} #${i}`,
      force: true,
    });
    if (!c.stored) throw new Error(`bench: not stored (${c.reason})`);
    sources.push(c.sourceId);
    needle ??= { ident, source: c.sourceId };
    inputBytes += Buffer.byteLength(text);
    if (i % 100 === 99) log(`web store: ${sources.length} captures, ${(inputBytes / 1e6).toFixed(0)} MB`);
  }
  await engine.settle();
  log(`web store: ${sources.length} captures indexed; now searches and gets`);
  const words = ["error", "timeout", "reconciliation failed", "GET /api", "warning", "LedgerShard", "status 500", "retry"];
  let retrievals = 0;
  for (let i = 0; i < 300; i++) {
    clock.t = begin + 30 * DAY + i * 60_000;
    const s = await engine.search({ query: words[i % words.length]!, limit: 5 });
    if (s.ok && s.hits.length > 0) retrievals++;
    const id = sources[Math.floor(rng.next() * sources.length)]!;
    const g = await engine.get({ source: id, lines: { from: 1 + Math.floor(rng.next() * 50), to: 60 + Math.floor(rng.next() * 100) } });
    if (g.ok) retrievals++;
  }
  await engine.settle();
  await engine.close();
  writeSubsystemRows(path, sources, begin, rng);
  return { path, sources, needle: needle!, inputBytes, retrievals, buildMs: performance.now() - started };
}

/** Pruning batches and pointers, read-cache versions: the rows those subsystems write. */
function writeSubsystemRows(path: string, sources: string[], begin: number, rng: Rng): void {
  const db = openDatabase(path);
  db.transaction(() => {
    const batch = db.query(
      "INSERT INTO prune_batches (at, session, results, tokens_before, tokens_after, adaptive) VALUES (?, ?, ?, ?, ?, ?)",
    );
    const pointer = db.query(
      "INSERT INTO prune_pointers (call_id, text_hash, source, pointer, tool, session, tokens_before, tokens_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    for (let b = 0; b < 120; b++) {
      const at = begin + b * 6 * 3_600_000;
      const session = `session-${b % 40}`;
      let before = 0;
      let after = 0;
      for (let k = 0; k < 5; k++) {
        const t0 = 2000 + Math.floor(rng.next() * 20_000);
        pointer.run(
          `call-${b}-${k}`,
          rng.hex(16),
          sources[(b * 5 + k) % sources.length]!,
          "[pruned: see source]",
          k % 2 ? "bash" : "read",
          session,
          t0,
          40,
          at,
        );
        before += t0;
        after += 40;
      }
      batch.run(at, session, 5, before, after, b % 7 === 0 ? 1 : 0);
    }
    const object = db.query("INSERT OR IGNORE INTO objects (hash, content, bytes, created_at, used_at) VALUES (?, ?, ?, ?, ?)");
    for (let o = 0; o < 300; o++) {
      const content = `export const value${o} = ${o};\n`.repeat(200);
      object.run(rng.hex(32), content, Buffer.byteLength(content), begin + o * 3_600_000, begin + o * 3_600_000);
    }
  })();
  db.close();
}
