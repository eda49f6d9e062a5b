/**
 * A purge leaves no copy of a purged row in pages SQLite rebalanced earlier. When rows grow after
 * they are stored and a page overflows, SQLite moves cells to sibling pages and rebuilds the page
 * without clearing its unused middle, so old bytes of cells that moved stay there, where a later
 * delete (even with secure_delete) never looks. The purge commits, with its deletes, the debt of a
 * rewrite (db/rewrite.ts; the engine pays it right after, off the host's thread): once the file is
 * rewritten nothing of a purged row can be read from it.
 */
import { afterAll, expect, test } from "bun:test";
import { pendingRewrite, rewriteOwed } from "../../src/db/rewrite.ts";
import { purge } from "../../src/store/purge.ts";
import { captureIndexed, cleanupTempDirs, databaseFileTexts, noisyLog, rng, testStore } from "../helpers.ts";

afterAll(cleanupTempDirs);

function readableIn(path: string, words: readonly string[]): string[] {
  const bytes = databaseFileTexts(path, ["", "-wal"]).map((f) => f.text);
  return words.filter((w) => bytes.some((b) => b.includes(w)));
}

test("rows that moved between pages before the purge leave nothing readable after it", async () => {
  const store = testStore();
  const r = rng(6);
  const first = await captureIndexed(store, { text: noisyLog(200, 1), tool: "bash", session: "kept", project: "/p", force: true });
  if (!first.stored) throw new Error("not stored");
  // Many sources of one text, each labelled with a word of its own (made here, so the test stays fast).
  const words = Array.from(
    { length: 300 },
    () => `zq${Array.from({ length: 12 }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join("")}`,
  );
  const copy = store.db.query(
    `INSERT INTO sources (handle, blob_id, tool, session, project, label, reason, created_at)
     SELECT ?, blob_id, tool, ?, project, ?, reason, created_at FROM sources WHERE handle = ?`,
  );
  for (const [i, w] of words.entries()) {
    copy.run(`ctx_t${i}`, i % 3 === 0 ? "gone" : "kept", `make ${w} ${"y".repeat(100 + Math.floor(r() * 300))}`, first.sourceId);
  }
  // The rows grow after they are stored, as a source's row does: pages overflow and are rebalanced.
  const grow = store.db.query("UPDATE sources SET label = label || ? WHERE handle = ?");
  for (let round = 0; round < 5; round++) for (let i = 0; i < words.length; i++) grow.run("x".repeat(Math.floor(r() * 40)), `ctx_t${i}`);
  expect(pendingRewrite(store.db)).toBeNull();
  expect(purge(store.db, { session: "gone" }, store.now()).sources).toBe(100);
  // The debt is in the file (a process that dies now leaves it for the next one), then paid.
  expect(pendingRewrite(store.db)).not.toBeNull();
  const paid = await rewriteOwed(store.db);
  expect(paid.ok).toBe(true);
  expect(pendingRewrite(store.db)).toBeNull();
  const kept = words.filter((_, i) => i % 3 !== 0);
  // The search of the bytes works: every kept label is there.
  expect(readableIn(store.path, kept)).toEqual(kept);
  expect(
    readableIn(
      store.path,
      words.filter((_, i) => i % 3 === 0),
    ),
  ).toEqual([]);
  store.db.close();
});
