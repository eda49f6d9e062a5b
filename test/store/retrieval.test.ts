import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.ts";
import { createEngine } from "../../src/engine.ts";
import { cleanupTempDirs, noisyLog, tempDir, testConfig } from "../helpers.ts";

afterAll(cleanupTempDirs);

describe("retrieval accounting in the engine", () => {
  test("is buffered off the search path, and complete whenever stats are read or the engine closes", async () => {
    const path = join(tempDir(), "s.db");
    const engine = createEngine({ config: testConfig(path) });
    const cap = await engine.capture({ text: noisyLog(600, 4, { line: 300, text: "needle-line marker" }), tool: "bash" });
    expect(cap.stored).toBe(true);
    for (let i = 0; i < 3; i++) expect((await engine.search({ query: "marker" })).ok).toBe(true);
    const stats = await engine.stats({});
    expect(stats.totals.retrievals).toBe(3);
    expect(stats.totals.retrievedTokens).toBeGreaterThan(0);
    await engine.search({ query: "marker" });
    await engine.close();
    const again = createEngine({ config: testConfig(path) });
    expect((await again.stats({})).totals.retrievals).toBe(4);
    await again.close();
  });
  test("a source's count and bytes add up every part of it an answer showed, several of one answer too", async () => {
    const path = join(tempDir(), "s.db");
    const engine = createEngine({ config: testConfig(path) });
    const lines = noisyLog(900, 6).split("\n");
    for (const at of [100, 400, 700]) lines[at] = `checkpoint quillfeather reached at step ${at}`;
    const one = await engine.capture({ text: lines.join("\n"), tool: "bash" });
    const other = await engine.capture({ text: "quillfeather once\n", tool: "bash", force: true });
    if (!one.stored || !other.stored) throw new Error("not stored");
    const r = await engine.search({ query: "quillfeather" });
    if (!r.ok) throw new Error(r.message);
    const shown = r.hits.filter((h) => h.sourceId === one.sourceId).length;
    expect(shown).toBeGreaterThan(1);
    expect(r.hits.some((h) => h.sourceId === other.sourceId)).toBe(true);
    await engine.stats({});
    await engine.close();
    // The project's own opening (a busy timeout): the last connection's checkpoint on close may still hold the file.
    const db = openDatabase(path, { readonly: true });
    try {
      const of = (id: string) =>
        db
          .query<{ n: number; bytes: number; parts: number; partBytes: number }, [string]>(
            `SELECT s.retrievals AS n, s.retrieved_bytes AS bytes,
               (SELECT count(*) FROM retrieval_parts p WHERE p.source = s.handle) AS parts,
               (SELECT total(bytes) FROM retrieval_parts p WHERE p.source = s.handle) AS partBytes
             FROM sources s WHERE s.handle = ?`,
          )
          .get(id)!;
      expect(of(one.sourceId)).toEqual({
        n: shown,
        bytes: of(one.sourceId).partBytes,
        parts: shown,
        partBytes: of(one.sourceId).partBytes,
      });
      expect(of(one.sourceId).bytes).toBeGreaterThan(0);
      expect(of(other.sourceId).n).toBe(1);
      // The answer's bytes are its parts' bytes.
      const answer = db.query<{ bytes: number }, []>("SELECT bytes FROM retrievals").get()!;
      expect(answer.bytes).toBe(of(one.sourceId).partBytes + of(other.sourceId).partBytes);
    } finally {
      db.close();
    }
  });
});
