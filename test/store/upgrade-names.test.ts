/**
 * A store made before the word index held chunk names (schema 7) upgrades in place: migration 8
 * queues every stored text to be indexed again, the next search waits for it, and then finds
 * what only the new index can (camelCase words, keys); nothing stored is lost, and purging
 * afterwards leaves both indexes consistent.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createEngine } from "../../src/engine.ts";
import { sha256 } from "../../src/hash.ts";
import { chunkText } from "../../src/store/chunk.ts";
import { identifierText } from "../../src/store/idents.ts";
import { detectKind, titleChunks } from "../../src/store/titles.ts";
import { countLines } from "../../src/text.ts";
import { cleanupTempDirs, noisyLog, tempDir, testConfig } from "../helpers.ts";

afterAll(cleanupTempDirs);

/** What a schema-7 pi-sidecar stored and indexed for one capture (text, title, identifiers; no names). */
function captureAsSchema7(path: string, text: string, handle: string): void {
  const db = openDatabase(path, { migrations: MIGRATIONS.slice(0, 7) });
  const chunks = chunkText(text, 4096);
  const titles = titleChunks(text, detectKind(text), chunks);
  const blob = Number(
    db
      .query("INSERT INTO blobs (project, hash, bytes, lines, tokens, chunk_count, kind, created_at) VALUES ('/p', ?, ?, ?, 0, ?, ?, 1)")
      .run(sha256(text), Buffer.byteLength(text), countLines(text), chunks.length, detectKind(text)).lastInsertRowid,
  );
  chunks.forEach((c, i) => {
    const id = Number(
      db
        .query("INSERT INTO chunks (blob_id, ordinal, line_start, line_end, title, content) VALUES (?, ?, ?, ?, ?, ?)")
        .run(blob, i + 1, c.lineStart, c.lineEnd, titles[i]!, c.text).lastInsertRowid,
    );
    db.query("INSERT INTO chunks_words (rowid, title, content) VALUES (?, ?, ?)").run(id, titles[i]!, c.text);
    db.query("INSERT INTO chunk_idents (rowid, idents) VALUES (?, ?)").run(id, identifierText(c.text));
  });
  db.query("INSERT INTO sources (handle, blob_id, tool, project, reason, created_at) VALUES (?, ?, 'bash', '/p', 'forced', 1)").run(
    handle,
    blob,
  );
  db.close();
}

describe("upgrading a schema-7 store", () => {
  test("is indexed again, finds camelCase words and keys, and purges cleanly", async () => {
    const path = join(tempDir(), "old.db");
    const text = `${noisyLog(2000, 3)}uint ParallelGCThreads = 2\nmaxRetryCount: 7\n${noisyLog(500, 4)}`;
    captureAsSchema7(path, text, "ctx_oldstore");
    const before = openDatabase(path, { migrations: MIGRATIONS.slice(0, 7) });
    expect(before.query("SELECT count(*) AS n FROM chunks_words WHERE chunks_words MATCH 'parallelgcthreads'").get()).toEqual({ n: 1 });
    before.close();

    const engine = createEngine({ config: testConfig(path), background: "inline" });
    const camel = await engine.search({ query: "parallel gc threads" });
    expect(camel.ok && camel.hits[0]?.sourceId).toBe("ctx_oldstore");
    expect(camel.ok && camel.hits[0]?.text).toContain("2001: uint ParallelGCThreads = 2");
    const key = await engine.search({ query: "retry count", source: "ctx_oldstore" });
    expect(key.ok && key.hits[0]?.text).toContain("2002: maxRetryCount: 7");
    const plain = await engine.search({ query: "ParallelGCThreads" });
    expect(plain.ok && plain.hits.length).toBe(1);
    expect((await engine.get({ source: "ctx_oldstore" })).ok).toBe(true);
    await engine.close();

    const db = openDatabase(path);
    expect(db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
    expect(db.query("SELECT count(*) AS n FROM index_queue").get()).toEqual({ n: 0 });
    db.exec("INSERT INTO chunks_words (chunks_words) VALUES ('integrity-check')");
    db.close();

    const again = createEngine({ config: testConfig(path), background: "inline" });
    expect((await again.purge({ source: "ctx_oldstore" })).sources).toBe(1);
    const gone = await again.search({ query: "parallel gc threads" });
    expect(gone.ok && gone.hits.length).toBe(0);
    await again.close();
    const after = openDatabase(path);
    after.exec("INSERT INTO chunks_words (chunks_words) VALUES ('integrity-check')");
    after.exec("INSERT INTO chunk_idents (chunk_idents) VALUES ('integrity-check')");
    expect(after.query("SELECT count(*) AS n FROM chunks_words WHERE chunks_words MATCH 'parallel'").get()).toEqual({ n: 0 });
    after.close();
  });
});
