/**
 * Why each miss of a retrieval set is a miss (for the work on recall): the answer's chunk does
 * not match the query's words; it does but ranks below 3; a hit shows the answer line's record
 * but stops before the line; a long line's window is on another spot; the byte budget.
 *
 *   bun bench/retrieval/diag.ts DIR [--show]     DIR holds fixtures/ and questions.json
 *
 * One line per question to stdout as JSON ({ id, rank, bytes, cause }); with --show, what our
 * search shows for each miss.
 */
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { defaultConfig } from "../../src/config.ts";
import { createEngine } from "../../src/engine.ts";
import { TOOL_CALLS } from "../../src/store/next-calls.ts";
import { conceptsAnd, conceptsOr, contentConcepts, parseQuery } from "../../src/store/search/query.ts";
import { createScratch } from "../temp.ts";

type Q = { id: string; fixture: string; query: string; answer: { lines: number[]; text: string } };
const [dir = ".", ...flags] = process.argv.slice(2);
const show = flags.includes("--show");
const questions: Q[] = JSON.parse(readFileSync(join(dir, "questions.json"), "utf8")).map((q: Q, i: number) => ({
  ...q,
  id: q.id ?? `q${i + 1}`,
}));
const load = (name: string) => {
  const raw = readFileSync(join(dir, "fixtures", name));
  return new TextDecoder().decode(name.endsWith(".gz") ? gunzipSync(raw) : raw);
};
const scratch = createScratch();
try {
  const config = defaultConfig({ HOME: scratch.dir });
  config.db = join(scratch.dir, "diag.db");
  const engine = createEngine({ config, calls: TOOL_CALLS, background: "inline" });
  const big = defaultConfig({ HOME: scratch.dir });
  big.db = config.db;
  big.search.maxResponseBytes = 256 * 1024;
  const ids = new Map<string, string>();
  for (const f of new Set(questions.map((q) => q.fixture))) {
    const r = await engine.capture({ text: load(f), tool: "bash", force: true, label: f, project: scratch.dir });
    if (r.stored) ids.set(f, r.sourceId);
  }
  const db = new Database(config.db, { readonly: true });
  const counts: Record<string, number> = {};
  for (const q of questions) {
    const shows = (h: { lines: { line: number; text: string }[] }) =>
      h.lines.some((l) => q.answer.lines.includes(l.line) && l.text.includes(q.answer.text));
    const r = await engine.search({ query: q.query, source: ids.get(q.fixture), limit: 3 });
    const hits = r.ok ? r.hits : [];
    const rank = hits.findIndex(shows);
    const bytes = r.ok ? Buffer.byteLength(r.text) : 0;
    let cause = "";
    if (rank < 0) {
      const wide = await engine.search({ query: q.query, source: ids.get(q.fixture), limit: 50 });
      const wideHits = wide.ok ? wide.hits : [];
      const wideRank = wideHits.findIndex(shows);
      const onLine = hits.some((h) => h.lines.some((l) => q.answer.lines.includes(l.line)));
      const near = hits.some((h) => q.answer.lines.some((a) => a > h.lineEnd && a - h.lineEnd <= 40 && a >= h.lineStart - 2));
      const above = hits.some((h) => q.answer.lines.some((a) => a < h.lineStart && h.lineStart - a <= 10));
      // The chunk the answer line is in, and whether it matches the query's words (all, some).
      const blob = db.query<{ blob_id: number }, [string]>("SELECT blob_id FROM sources WHERE handle = ?").get(ids.get(q.fixture)!)!;
      const chunk = db
        .query<{ id: number }, [number, number, number]>("SELECT id FROM chunks WHERE blob_id = ? AND line_start <= ? AND line_end >= ?")
        .all(blob.blob_id, q.answer.lines[0]!, q.answer.lines[0]!);
      const pq = parseQuery(q.query);
      const matches = (m: string | null) =>
        !!m && chunk.some((c) => db.query("SELECT 1 FROM chunks_words WHERE chunks_words MATCH ? AND rowid = ?").get(m, c.id) !== null);
      const all = matches(conceptsAnd(contentConcepts(pq), pq.phrases));
      const any = matches(conceptsOr(contentConcepts(pq)));
      if (onLine) cause = "long-line window elsewhere";
      else if (wideRank >= 3) cause = `ranked ${wideRank + 1}`;
      else if (near) cause = "window stops before answer";
      else if (above) cause = "window starts after answer";
      else if (!any) cause = "no shared word in answer chunk";
      else if (!all) cause = "answer chunk lacks some words";
      else cause = "answer chunk has all words, not shown";
      counts[cause] = (counts[cause] ?? 0) + 1;
    }
    console.log(JSON.stringify({ id: q.id, fixture: q.fixture, rank: rank < 0 ? null : rank + 1, bytes, cause }));
    if (show && rank < 0) {
      console.error(
        `\n===== ${q.id} ${q.fixture} ${JSON.stringify(q.query)} -> lines ${q.answer.lines.join(",")} ${JSON.stringify(q.answer.text)}: ${cause}`,
      );
      console.error(r.ok ? r.text : r.message);
    }
  }
  const ok = questions.length - Object.values(counts).reduce((a, b) => a + b, 0);
  console.error(`\n${dir}: ${ok}/${questions.length}; misses by cause ${JSON.stringify(counts)}`);
  db.close();
  await engine.close();
} finally {
  scratch.remove();
}
