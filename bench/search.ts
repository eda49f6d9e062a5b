/**
 * Search latency on the large store through the engine in this process (a long-lived host: the
 * worker background; retrieval accounting is buffered and flushed within the engine's queue),
 * per query kind, beside three floors measured in the same run on the same database:
 * (i) fetching the very chunks the search returned by primary key (a lower bound for any
 * search that returns them), (ii) the two full-text lookups the search starts with (all words
 * in the word index; all trigrams of each identifier token in the identifier index), LIMIT 50
 * each but unranked: what the indexes cost before any ranking, and (iii) a brute-force scan
 * with no index (what search would cost without them), on a subset of the queries because it
 * is slow.
 *
 * The mix runs in its fixed order until it ends or the time budget is spent; the order
 * interleaves the kinds, so a budget cut samples every kind alike.
 */
import { defaultConfig } from "../src/config.ts";
import { type Db, openDatabase } from "../src/db/open.ts";
import { createEngine, type Engine } from "../src/engine.ts";
import { parseQuery, substringsAnd, wordsAnd } from "../src/store/search/query.ts";
import { type BenchQuery, QUERY_KINDS, WARM_UP } from "./queries.ts";
import { log, timeAsync, timeSync } from "./timing.ts";

export type QueryResult = {
  query: BenchQuery;
  ms: number;
  mode: string;
  hits: number;
  /** The needle's source among the hits; null when the query has no known answer. */
  found: boolean | null;
  chunkIds: number[];
  pkMs: number | null;
  scanMs: number | null;
  unrankedMs: number;
};

/** Brute-force scans per query kind (each reads every chunk when the needle is rare). */
export const SCAN_PER_KIND = 3;

async function runOne(
  engine: Engine,
  q: BenchQuery,
): Promise<Omit<QueryResult, "chunkIds" | "pkMs" | "scanMs" | "unrankedMs"> & { hitRefs: [string, number][] }> {
  const { ms, value } = await timeAsync(() => engine.search({ query: q.query, ...(q.source ? { source: q.source } : {}) }), false);
  if (!value.ok) throw new Error(`bench: search ${JSON.stringify(q.query)} failed: ${value.message}`);
  const hitRefs = value.hits.map((h): [string, number] => [h.sourceId, h.chunk]);
  const found = q.expect === undefined ? null : value.hits.some((h) => h.sourceId === q.expect);
  return { query: q, ms, mode: value.mode, hits: value.hits.length, found, hitRefs };
}

function chunkIdsOf(db: Db, refs: [string, number][]): number[] {
  const find = db.query<{ id: number }, [string, number]>(
    "SELECT c.id AS id FROM chunks c JOIN sources s ON s.blob_id = c.blob_id WHERE s.handle = ? AND c.ordinal = ?",
  );
  return refs.map(([handle, ordinal]) => find.get(handle, ordinal)?.id).filter((id): id is number => id !== undefined);
}

/** Floor (i): the same top chunks, fetched by primary key. */
function timePrimaryKey(db: Db, ids: number[]): number | null {
  if (ids.length === 0) return null;
  const sql = `SELECT id, blob_id, ordinal, line_start, line_end, title, content FROM chunks WHERE id IN (${ids.map(() => "?").join(",")})`;
  db.query(sql); // prepare outside the timing, as the engine's statements are cached too
  return timeSync(() => db.query(sql).all(...ids), false).ms;
}

/** The text a brute-force scan looks for: the query lower-cased, without quotes. */
export function scanNeedle(query: string): string {
  return query.replace(/"/g, "").trim().toLowerCase();
}

/** Floor (iii): no index, a scan of every chunk's text. */
function timeScan(db: Db, query: string): number {
  return timeSync(() => db.query("SELECT id FROM chunks WHERE instr(lower(content), ?) > 0 LIMIT 5").all(scanNeedle(query)), false).ms;
}

/** Floor (ii): the first word and identifier-trigram lookups of a search, unranked and unverified. */
function timeUnranked(db: Db, query: string): number {
  const q = parseQuery(query);
  const words = wordsAnd(q.words, q.phrases);
  const grams = substringsAnd(q.idents);
  const w = db.query("SELECT rowid FROM chunks_words WHERE chunks_words MATCH ? LIMIT 50");
  const t = db.query("SELECT rowid FROM chunk_idents WHERE chunk_idents MATCH ? LIMIT 50");
  return timeSync(() => {
    if (words) w.all(words);
    if (grams) t.all(grams);
  }, false).ms;
}

export type SearchRun = { results: QueryResult[]; planned: number; budgetMs: number; elapsedMs: number };

/** budgetMs <= 0: no budget, the whole mix runs. */
export async function benchSearch(path: string, queries: readonly BenchQuery[], budgetMs: number): Promise<SearchRun> {
  const db = openDatabase(path);
  const engine = createEngine({ config: { ...defaultConfig(), db: path }, db, background: "worker" });
  try {
    for (const q of WARM_UP) await engine.search({ query: q });
    Bun.gc(true);
    const raw = [];
    const started = performance.now();
    for (const [i, q] of queries.entries()) {
      if (budgetMs > 0 && performance.now() - started > budgetMs) {
        log(`search: time budget of ${Math.round(budgetMs / 1000)} s spent after ${i} of ${queries.length} queries`);
        break;
      }
      raw.push(await runOne(engine, q));
      if ((i + 1) % 25 === 0) log(`search: ${i + 1}/${queries.length} queries`);
    }
    const elapsedMs = performance.now() - started;
    const ran = raw.map((r) => r.query);
    const scanned = new Set<BenchQuery>();
    for (const kind of QUERY_KINDS) {
      for (const q of ran.filter((x) => x.kind === kind).slice(0, SCAN_PER_KIND)) scanned.add(q);
    }
    const results: QueryResult[] = [];
    for (const r of raw) {
      const chunkIds = chunkIdsOf(db, r.hitRefs);
      results.push({
        query: r.query,
        ms: r.ms,
        mode: r.mode,
        hits: r.hits,
        found: r.found,
        chunkIds,
        pkMs: timePrimaryKey(db, chunkIds),
        scanMs: scanned.has(r.query) ? timeScan(db, r.query.query) : null,
        unrankedMs: timeUnranked(db, r.query.query),
      });
    }
    log(`search: floors done (${scanned.size} brute-force scans)`);
    // Count what the searches returned now, so the store is left with nothing queued (the CLI benchmark reuses it).
    await engine.settle();
    return { results, planned: queries.length, budgetMs, elapsedMs };
  } finally {
    await engine.close();
    db.close();
  }
}
