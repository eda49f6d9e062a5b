import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
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
});
