import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { maybeRunMaintenance, purgeAll, runMaintenance } from "../../src/maintenance.ts";
import type { capture, Stored } from "../../src/store/capture.ts";
import { exportSource } from "../../src/store/export.ts";
import { type GetAnswer, get } from "../../src/store/get.ts";
import { purge } from "../../src/store/purge.ts";
import { getStats } from "../../src/store/stats.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { captureIndexed, cleanupTempDirs, noisyLog, settleStore, tempDir, testStore } from "../helpers.ts";

afterAll(cleanupTempDirs);

function stored(r: Awaited<ReturnType<typeof capture>>): Stored {
  if (!r.stored) throw new Error("not stored");
  return r;
}
/** A capture as the engine runs it: retention follows when it is due. */
async function captureMaintained(store: ReturnType<typeof testStore>, input: Parameters<typeof capture>[1]) {
  const r = await captureIndexed(store, input);
  maybeRunMaintenance(store);
  return r;
}
/** Tokens of a source's whole stored text, counted here with the real tokenizer, chunk by chunk as stored. */
function countTokensOf(store: ReturnType<typeof testStore>, sourceId: string): number {
  const rows = store.db
    .query<{ content: string }, [string]>(
      "SELECT c.content FROM chunks c JOIN sources s ON s.blob_id = c.blob_id WHERE s.handle = ? ORDER BY c.ordinal",
    )
    .all(sourceId);
  return rows.reduce((n, r) => n + countTokens(r.content), 0);
}
function okGet(r: ReturnType<typeof get>): GetAnswer {
  if (!r.ok) throw new Error(r.message);
  return r;
}

describe("get", () => {
  const store = testStore();
  const log = noisyLog(2000, 4);
  const lines = log.split("\n");
  let src: Stored;
  beforeAll(async () => {
    src = stored(await captureIndexed(store, { text: log, tool: "bash" }));
  });

  test("a line range is exact", async () => {
    const r = okGet(get(store, { source: src.sourceId, lines: { from: 1234, to: 1240 } }));
    expect(r.text).toBe(`${lines.slice(1233, 1240).join("\n")}\n`);
    expect([r.lineStart, r.lineEnd]).toEqual([1234, 1240]);
  });

  test("around widens a line range; ranges past the end are clamped", async () => {
    const r = okGet(get(store, { source: src.sourceId, lines: { from: 10, to: 10 }, around: 2 }));
    expect(r.text).toBe(`${lines.slice(7, 12).join("\n")}\n`);
    const end = okGet(get(store, { source: src.sourceId, lines: { from: 1998, to: 5000 } }));
    expect(end.text).toBe(`${lines.slice(1997, 2000).join("\n")}\n`);
  });

  test("chunks by ordinal, with neighbours", async () => {
    const one = okGet(get(store, { source: src.sourceId, chunk: 3 }));
    const three = okGet(get(store, { source: src.sourceId, chunk: 3, around: 1 }));
    expect(one.chunks.map((c) => c.chunk)).toEqual([3]);
    expect(three.chunks.map((c) => c.chunk)).toEqual([2, 3, 4]);
    expect(three.text).toContain(one.text);
    expect(get(store, { source: src.sourceId, chunk: 999 }).ok).toBe(false);
  });

  test("a large selection is cut at the byte cap with the exact call to continue", async () => {
    const r = okGet(get(store, { source: src.sourceId }));
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(store.config.get.maxBytes);
    expect(r.text.endsWith("\n")).toBe(true);
    expect(r.next).toBe(`pi-sidecar get ${src.sourceId} --lines ${r.lineEnd + 1}-2000`);
    const rest = okGet(get(store, { source: src.sourceId, lines: { from: r.lineEnd + 1, to: r.lineEnd + 1 } }));
    expect(rest.text).toBe(`${lines[r.lineEnd]}\n`);
  });

  test("bad ranges and unknown sources are clear failures", async () => {
    const bad = get(store, { source: src.sourceId, lines: { from: 5000, to: 5001 } });
    expect(!bad.ok && bad.message).toContain("2000 lines");
    const none = get(store, { source: "ctx_missing1" });
    expect(!none.ok && none.code).toBe("NO_SUCH_SOURCE");
  });

  test("export writes the stored text exactly, 0600, and refuses to overwrite", async () => {
    const out = join(tempDir(), "out.log");
    const r = exportSource(store, src.sourceId, out);
    expect(r.ok).toBe(true);
    expect(readFileSync(out, "utf8")).toBe(log);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const again = exportSource(store, src.sourceId, out);
    expect(!again.ok && again.code).toBe("EXISTS");
    expect(exportSource(store, src.sourceId, out, true).ok).toBe(true);
  });
});

describe("purge and retention", () => {
  test("purge by source keeps a blob another source still uses", async () => {
    const store = testStore();
    const text = noisyLog(500, 8);
    const a = stored(await captureIndexed(store, { text, tool: "bash", project: "/p" }));
    const b = stored(await captureIndexed(store, { text, tool: "bash", project: "/p" }));
    expect(purge(store.db, { source: a.sourceId }, store.now())).toEqual({ sources: 1, blobs: 0, bytes: 0 });
    expect(okGet(get(store, { source: b.sourceId, lines: { from: 1, to: 1 } })).text).toBe(`${text.split("\n")[0]}\n`);
    const r = purge(store.db, { source: b.sourceId }, store.now());
    expect(r.blobs).toBe(1);
    expect(store.db.query("SELECT count(*) AS n FROM chunks").get()).toEqual({ n: 0 });
    // The indexes are clean too: nothing is found any more.
    expect(store.db.query("SELECT count(*) AS n FROM chunks_words WHERE chunks_words MATCH 'worker'").get()).toEqual({ n: 0 });
    store.db.exec("INSERT INTO chunks_words (chunks_words) VALUES ('integrity-check')");
    store.db.exec("INSERT INTO chunk_idents (chunk_idents) VALUES ('integrity-check')");
  });

  test("purge by age, session, project and all", async () => {
    const store = testStore();
    const day = 86_400_000;
    stored(await captureIndexed(store, { text: noisyLog(400, 1), tool: "bash", session: "old", project: "/p1" }));
    store.clock.t += 3 * day;
    stored(await captureIndexed(store, { text: noisyLog(400, 2), tool: "bash", session: "s2", project: "/p2" }));
    stored(await captureIndexed(store, { text: noisyLog(400, 3), tool: "bash", session: "s3", project: "/p3" }));
    expect(purge(store.db, { olderThanMs: 2 * day }, store.now()).sources).toBe(1);
    expect(purge(store.db, { session: "s2" }, store.now()).sources).toBe(1);
    expect(purge(store.db, { project: "/p3" }, store.now()).sources).toBe(1);
    stored(await captureIndexed(store, { text: noisyLog(400, 4), tool: "bash" }));
    stored(await captureIndexed(store, { text: noisyLog(400, 5), tool: "bash" }));
    expect(purge(store.db, { all: true }, store.now()).sources).toBe(2);
    expect(store.db.query("SELECT (SELECT count(*) FROM chunks) + (SELECT count(*) FROM blobs) AS n").get()).toEqual({ n: 0 });
    store.db.exec("INSERT INTO chunks_words (chunks_words) VALUES ('integrity-check')");
    expect(store.db.query(`SELECT count(*) AS n FROM chunk_idents WHERE chunk_idents MATCH '"id="'`).get()).toEqual({ n: 0 });
  });

  test("retention drops sources older than the configured days", async () => {
    const store = testStore((c) => (c.retention.days = 7));
    const old = stored(await captureMaintained(store, { text: noisyLog(400, 1), tool: "bash" }));
    store.clock.t += 8 * 86_400_000;
    const fresh = stored(await captureMaintained(store, { text: noisyLog(400, 2), tool: "bash" }));
    // The capture above ran retention (more than an hour since the last run).
    expect(get(store, { source: old.sourceId }).ok).toBe(false);
    expect(get(store, { source: fresh.sourceId, lines: { from: 1, to: 1 } }).ok).toBe(true);
  });

  test("retention keeps the stored text under the size cap, oldest first, and the file stops growing", async () => {
    const store = testStore((c) => (c.retention.maxStoredBytes = 1024 * 1024));
    const ids: string[] = [];
    const sizes: number[] = [];
    for (let i = 0; i < 12; i++) {
      store.clock.t += 1000;
      ids.push(stored(await captureMaintained(store, { text: noisyLog(3000, 100 + i), tool: "bash" })).sourceId);
      store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      sizes.push(statSync(store.path).size);
    }
    const total = store.db.query<{ b: number }, []>("SELECT total(bytes) AS b FROM blobs").get()!.b;
    expect(total).toBeLessThanOrEqual(1024 * 1024);
    expect(get(store, { source: ids[0]! }).ok).toBe(false);
    expect(get(store, { source: ids.at(-1)!, lines: { from: 1, to: 1 } }).ok).toBe(true);
    // Bounded: the file after 12 captures is no bigger than after the first few plus slack.
    expect(Math.max(...sizes.slice(6))).toBeLessThanOrEqual(Math.max(...sizes.slice(0, 6)) * 1.5);
    expect(runMaintenance(store).sources).toBe(0);
  });

  test("stats: stored minus receipts minus retrieved is the net saving", async () => {
    const store = testStore();
    const src = stored(await captureIndexed(store, { text: noisyLog(1000, 12), tool: "bash", session: "s" }));
    okGet(get(store, { source: src.sourceId, lines: { from: 1, to: 50 } }));
    await settleStore(store); // retrieved tokens are counted off the answer's path
    const s = getStats(store);
    expect(s.tokenizer).toBe("o200k_base");
    expect(s.totals.storedTokens).toBe(countTokensOf(store, src.sourceId));
    expect(s.totals.receiptTokens).toBe(countTokens(src.receipt));
    expect(s.totals.retrievedTokens).toBeGreaterThan(0);
    expect(s.totals.receiptBytes).toBe(Buffer.byteLength(src.receipt));
    expect(s.totals.retrievedBytes).toBeGreaterThan(0);
    expect(s.totals.netSavedTokens).toBe(s.totals.storedTokens - s.totals.receiptTokens - s.totals.retrievedTokens);
    expect(s.byTool[0]!.tool).toBe("bash");
    expect(getStats(store, { source: src.sourceId }).totals.captures).toBe(1);
    expect(getStats(store, { source: "ctx_other" }).totals.captures).toBe(0);
    expect(s.bySession[0]!.session).toBe("s");
    expect(existsSync(store.path)).toBe(true);
  });
});

describe("review fixes", () => {
  test("a line longer than the get cap can be read to its end: the cut points at a chunk", async () => {
    const store = testStore();
    const long = Array.from({ length: 8000 }, (_, i) => i.toString(36).padStart(4, "0")).join(" "); // ~40 KB, no repeats
    const text = `a\n${long}\nz\n`;
    const src = stored(await captureIndexed(store, { text, tool: "t", force: true }));
    const first = okGet(get(store, { source: src.sourceId, lines: { from: 2, to: 3 } }));
    expect(first.truncated).toBe(true);
    const chunk = Number(/--chunk (\d+)/.exec(first.next!)![1]);
    // The chunk named holds the cut point, so reading it makes progress past what was shown.
    const shownEnd = 2 + first.text.length;
    const next = okGet(get(store, { source: src.sourceId, chunk }));
    const at = text.indexOf(next.text, 2);
    expect(at).toBeLessThanOrEqual(shownEnd);
    expect(at + next.text.length).toBeGreaterThan(shownEnd);
    // And the chunks after it reach the end of the line and the next line.
    let last = "";
    for (let n = chunk; ; n++) {
      const g = get(store, { source: src.sourceId, chunk: n });
      if (!g.ok) break;
      last = g.text;
    }
    expect(last.endsWith("z\n")).toBe(true);
  });

  test("labels are redacted before they are stored; purge --all clears the read cache's copies", async () => {
    const store = testStore();
    const token = ["ghp_", "16C7e42F292c6912E7710c838347Ae178B4a"].join("");
    await captureIndexed(store, { text: noisyLog(400, 2), tool: "bash", label: `curl -H "Authorization: token ${token}"` });
    expect(JSON.stringify(store.db.query("SELECT label FROM sources").all())).not.toContain(token);
    store.db.query("INSERT INTO objects (hash, content, bytes, created_at, used_at) VALUES ('h', 'x', 1, 0, 0)").run();
    purgeAll(store.db, { all: true }, store.now());
    expect(store.db.query("SELECT count(*) AS n FROM objects").get()).toEqual({ n: 0 });
  });
});
