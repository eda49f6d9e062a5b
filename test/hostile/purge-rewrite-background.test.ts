/**
 * The rewrite a purge or forget owes the file runs off the host's thread and survives what a
 * user's machine does meanwhile: the purge answers before it ends (pi keeps drawing and answering;
 * the user is told when it ended), another process keeps capturing during it and loses nothing, a
 * host killed mid-rewrite loses nothing and leaves the debt in the file, and the next writing
 * engine pays it: no copy of the purged text is left.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { markRewrite, pendingRewrite } from "../../src/db/rewrite.ts";
import { createEngine } from "../../src/engine.ts";
import { TOOL_CALLS } from "../../src/store/index.ts";
import { BUN, cleanupTempDirs, noisyLog, rng, runCli, tempDir, testConfig, testSeed, waitingDb } from "../helpers.ts";

afterAll(() => cleanupTempDirs());

function wordsFor(r: () => number, n: number): string[] {
  return Array.from({ length: n }, () => `zq${Array.from({ length: 12 }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join("")}`);
}

function readable(path: string, words: readonly string[]): string[] {
  const bytes: string[] = [];
  for (const f of [path, `${path}-wal`]) {
    try {
      bytes.push(readFileSync(f).toString("latin1"));
    } catch {
      // not there (the last connection removed it)
    }
  }
  return words.filter((w) => bytes.some((b) => b.includes(w) || b.includes(w.toLowerCase())));
}

/** A pi-like engine (worker thread, short busy timeout) over a store of `count` sources, one planted word each. */
async function filled(path: string, seed: number, count: number) {
  const engine = createEngine({ config: testConfig(path), calls: TOOL_CALLS, busyTimeoutMs: 250 });
  const r = rng(seed);
  const planted: { sourceId: string; word: string }[] = [];
  for (let i = 0; i < count; i++) {
    const [word] = wordsFor(r, 1) as [string];
    const text = noisyLog(400 + Math.floor(r() * 600), seed + i, { line: 30, text: `ERROR ${word} failed` });
    const c = await engine.capture({ text, tool: "bash", session: "s", project: "/repo", label: `make ${word}`, force: true });
    if (!c.stored) throw new Error(c.reason);
    planted.push({ sourceId: c.sourceId, word });
  }
  await engine.settle();
  return { engine, planted };
}

const integrity = (path: string) => {
  const db = waitingDb(path);
  try {
    return (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
  } finally {
    db.close();
  }
};

describe("the rewrite after a purge runs in the background", () => {
  const seed = testSeed("purge rewrite background");

  test("purge answers before the rewrite ends; another process captures meanwhile and loses nothing; the user learns when it ended", async () => {
    const path = join(tempDir(), "sidecar.db");
    const { engine, planted } = await filled(path, seed, 24);
    const gone = planted.slice(0, 6);
    const r = await engine.purge({ source: gone[0]!.sourceId });
    expect(r.sources).toBe(1);
    // On pi's thread only the deletes ran: the rewrite is on a worker and the answer says so.
    expect(r.rewrite).toBe("running");
    expect(r.note).toContain("rewritten in the background");
    // Meanwhile another process stores output (pi-sidecar capture), and this engine keeps answering.
    const other = runCli(["--db", path, "capture", "--tool", "bash", "--label", "during the rewrite"], {
      stdin: noisyLog(3000, seed + 99),
    });
    expect(other.code).toBe(0);
    const search = await engine.search({ query: planted[10]!.word });
    expect(search.ok).toBe(true);
    const done = await engine.rewritten();
    // The whole outcome, so a failed rewrite shows its reason.
    expect(done).toMatchObject({ ok: true });
    // The other purges, one after another: each owes its own rewrite, run in order.
    for (const p of gone.slice(1)) expect((await engine.purge({ source: p.sourceId })).sources).toBe(1);
    await engine.close();
    expect(integrity(path)).toBe("ok");
    const check = createEngine({ config: testConfig(path), background: "inline" });
    const list = await check.list({}, 100);
    expect(list.length).toBe(24 - gone.length + 1);
    expect(list.some((s) => s.label?.includes("during the rewrite"))).toBe(true);
    await check.close();
    expect(
      readable(
        path,
        gone.map((p) => p.word),
      ),
    ).toEqual([]);
    expect(
      readable(
        path,
        planted.slice(6).map((p) => p.word),
      ).length,
    ).toBe(planted.length - 6);
  }, 120_000);

  test("a host killed mid-rewrite loses nothing; the next writing engine finishes the rewrite", async () => {
    const path = join(tempDir(), "sidecar.db");
    const { engine, planted } = await filled(path, seed + 1, 24);
    await engine.close();
    const gone = planted[3]!;
    const host = Bun.spawn([BUN, join(import.meta.dir, "purge-then-die.ts"), path, gone.sourceId], { stdout: "pipe", stderr: "pipe" });
    const first = new TextDecoder().decode((await host.stdout.getReader().read()).value);
    expect(first).toContain("purged 1 running");
    host.kill("SIGKILL");
    await host.exited;
    // Whether the kill came before, during or after the rewrite: the file is whole and every kept source is there.
    expect(integrity(path)).toBe("ok");
    const db = waitingDb(path);
    expect((db.query("SELECT count(*) AS n FROM sources").get() as { n: number }).n).toBe(23);
    db.close();
    // The worst case for sure: the rewrite never ran (the debt is in the file, as the purge left it).
    const w = waitingDb(path, false);
    markRewrite(w);
    w.close();
    const next = createEngine({ config: testConfig(path), calls: TOOL_CALLS, busyTimeoutMs: 250 });
    await next.stats();
    const paid = await next.rewritten();
    expect(paid).toMatchObject({ ok: true });
    await next.close();
    const after = waitingDb(path);
    expect(pendingRewrite(after)).toBeNull();
    after.close();
    expect(readable(path, [gone.word])).toEqual([]);
    expect(
      readable(
        path,
        planted.filter((p) => p !== gone).map((p) => p.word),
      ).length,
    ).toBe(23);
    expect(existsSync(path)).toBe(true);
  }, 120_000);

  test("memory forget in a host: answered before the rewrite, and the forgotten words are gone from the file once it ended", async () => {
    const path = join(tempDir(), "sidecar.db");
    const engine = createEngine({ config: testConfig(path), calls: TOOL_CALLS, busyTimeoutMs: 250 });
    const [secret, ...others] = wordsFor(rng(seed + 2), 6) as [string, ...string[]];
    const ids: string[] = [];
    for (const w of [secret, ...others]) {
      const a = await engine.memory({
        type: "add",
        project: "/repo",
        session: "s",
        kind: "note",
        text: `The ${w} service runs on port 8080.`,
      });
      if (!a.ok || a.type !== "add") throw new Error(JSON.stringify(a));
      ids.push(a.id);
    }
    const f = await engine.memory({ type: "forget", project: "/repo", id: ids[0]! });
    if (!f.ok || f.type !== "forget") throw new Error(JSON.stringify(f));
    expect(f.text).toContain("rewritten in the background");
    expect(await engine.rewritten()).toMatchObject({ ok: true });
    await engine.close();
    expect(readable(path, [secret])).toEqual([]);
    expect(readable(path, others)).toEqual(others);
  }, 60_000);
});
