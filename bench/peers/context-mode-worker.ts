/**
 * Worker process for the context-mode peer: loads the installed package's ContentStore
 * (build/store.js) and answers JSON lines on stdin/stdout. Runs under Node >= 22.5 (type
 * stripping; node:sqlite, as context-mode's own server does) or under Bun (bun:sqlite).
 * Times are measured here, around the store calls only: parsing the request, process start
 * and the pipe are not billed to the peer.
 *
 * argv: <package dir> <database path>
 * in:  {"id":1,"op":"index","text":"…","label":"…","mode":"plain"|"markdown"}
 *      {"id":2,"op":"search","query":"…","source":"…","limit":2}
 *      {"id":3,"op":"stats"}   {"id":4,"op":"close"}
 * out: {"id":1,"ok":true,…} or {"id":1,"ok":false,"error":"…"}; first line is id 0 (ready).
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { renderAnswer, renderHit, type StoreResult } from "./context-mode-render.ts";

type IndexResult = { sourceId: number; label: string; totalChunks: number };
type ContentStore = {
  index(options: { content: string; source: string }): IndexResult;
  indexPlainText(content: string, source: string): IndexResult;
  searchWithFallback(query: string, limit: number, source?: string, contentType?: string, sourceMatchMode?: string): StoreResult[];
  getStats(): { sources: number; chunks: number };
  close(): void;
};
type Statement = { all(...params: unknown[]): unknown[]; get(...params: unknown[]): unknown };
type Connection = { prepare(sql: string): Statement; pragma(source: string): unknown; close(): void };
type ConnectionFactory = (new (path: string, opts?: { timeout?: number }) => Connection) & { name?: string };

type Request = { id: number; op: string; text?: string; label?: string; mode?: string; query?: string; source?: string; limit?: number };

const [packageArg, dbArg] = process.argv.slice(2);
if (!packageArg || !dbArg) throw new Error("usage: context-mode-worker.ts <package dir> <database path>");
const packageDir = packageArg;
const dbPath = dbArg;

// Keep stdout for protocol lines only.
console.log = (...args: unknown[]) => console.error(...args);

const build = join(packageDir, "build");
const storeModule = (await import(pathToFileURL(join(build, "store.js")).href)) as { ContentStore: new (path: string) => ContentStore };
const baseModule = (await import(pathToFileURL(join(build, "db-base.js")).href)) as { loadDatabase(): ConnectionFactory };
const version = (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string }).version;
const store = new storeModule.ContentStore(dbPath);
const Driver = baseModule.loadDatabase();

function collectGarbage(): void {
  const g = globalThis as { gc?: () => void; Bun?: { gc(force: boolean): void } };
  if (g.Bun) g.Bun.gc(true);
  else g.gc?.();
}

function timed<T>(fn: () => T): { ms: number; value: T } {
  collectGarbage();
  const start = performance.now();
  const value = fn();
  return { ms: performance.now() - start, value };
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** A second connection (same driver) for sizes: the store keeps its handle private. */
function withAux<T>(fn: (db: Connection) => T): T {
  const db = new Driver(dbPath, { timeout: 30000 });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

function sqliteVersion(): string {
  return withAux((db) => (db.prepare("SELECT sqlite_version() AS v").get() as { v: string }).v);
}

function stats(): Record<string, unknown> {
  const onDisk = fileSize(dbPath) + fileSize(`${dbPath}-wal`);
  const counts = store.getStats();
  return withAux((db) => {
    const vocabulary = (db.prepare("SELECT count(*) AS n FROM vocabulary").get() as { n: number }).n;
    db.pragma("wal_checkpoint(TRUNCATE)");
    let tables: Record<string, number> | null = null;
    try {
      const rows = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all() as Array<{
        name: string;
        bytes: number;
      }>;
      tables = { porter: 0, trigram: 0, vocabulary: 0, other: 0 };
      for (const row of rows) {
        const group = row.name.startsWith("chunks_trigram")
          ? "trigram"
          : row.name.startsWith("chunks")
            ? "porter"
            : row.name.includes("vocabulary")
              ? "vocabulary"
              : "other";
        tables[group] = (tables[group] ?? 0) + Number(row.bytes);
      }
    } catch {
      // dbstat is not compiled into every SQLite build
    }
    return {
      onDiskBytes: onDisk,
      checkpointedBytes: fileSize(dbPath) + fileSize(`${dbPath}-wal`),
      sources: counts.sources,
      chunks: counts.chunks,
      vocabulary,
      tables,
    };
  });
}

function handle(req: Request): Record<string, unknown> {
  switch (req.op) {
    case "index": {
      const text = req.text ?? "";
      const label = req.label ?? "untitled";
      const { ms, value } = timed(() =>
        req.mode === "markdown" ? store.index({ content: text, source: label }) : store.indexPlainText(text, label),
      );
      return { ms, sourceId: value.sourceId, label: value.label, chunks: value.totalChunks };
    }
    case "search": {
      const query = req.query ?? "";
      const limit = req.limit ?? 2;
      // "like" is what ctx_search passes: a partial match on the source label.
      const found = timed(() => store.searchWithFallback(query, limit, req.source || undefined, undefined, "like"));
      const start = performance.now();
      const hits = found.value.map((r) => renderHit(r, query));
      const raw = renderAnswer(query, hits);
      const renderMs = performance.now() - start;
      return {
        ms: found.ms + renderMs,
        searchMs: found.ms,
        renderMs,
        hits: hits.map((h, i) => ({ text: h.text, title: h.title, source: h.source, matchLayer: found.value[i]?.matchLayer })),
        raw,
      };
    }
    case "stats":
      return stats();
    case "close": {
      // ContentStore.close() merges FTS5 segments, then closes.
      const { ms } = timed(() => store.close());
      return { ms };
    }
    default:
      throw new Error(`unknown op ${req.op}`);
  }
}

function send(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

const driver = Driver.name ?? "unknown";
send({ id: 0, ok: true, version, driver, sqlite: sqliteVersion(), runtime: (globalThis as { Bun?: unknown }).Bun ? "bun" : "node" });

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
for await (const line of lines) {
  if (line.trim() === "") continue;
  let req: Request;
  try {
    req = JSON.parse(line) as Request;
  } catch (err) {
    send({ id: -1, ok: false, error: `bad request line: ${String(err)}` });
    continue;
  }
  try {
    send({ id: req.id, ok: true, ...handle(req) });
  } catch (err) {
    send({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
  if (req.op === "close") break;
}
process.exit(0);
