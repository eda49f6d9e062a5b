/**
 * Two processes writing the same project's memory at once lose nothing; the spool pi's capture
 * writes is taken in exactly once, even by two processes at once, and a project whose memory is
 * off drops what was spooled for it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { spoolDir, spoolFiles, writeSpool } from "../../src/memory/spool-file.ts";
import { BUN, cleanupTempDirs, tempDir } from "../helpers.ts";
import { openMemoryDb, PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const CHILD = join(import.meta.dir, "writer-child.ts");

function child(args: string[]) {
  return Bun.spawn([BUN, CHILD, ...args], { stdout: "pipe", stderr: "pipe" });
}

async function finished(p: ReturnType<typeof child>): Promise<void> {
  const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
  expect({ code, out: out.trim(), err: err.slice(0, 500) }).toEqual({ code: 0, out: "done", err: "" });
}

describe("memory across processes", () => {
  test("two processes adding to the same project at once: every event is stored once, in order per process", async () => {
    const path = join(tempDir("memory-two-"), "sidecar.db");
    openMemoryDb(path).close(); // schema first, so neither child races to migrate
    const n = 150;
    const a = child([path, "alpha", String(n)]);
    const b = child([path, "beta", String(n)]);
    await Promise.all([finished(a), finished(b)]);
    const db = openMemoryDb(path);
    const rows = db
      .query<{ id: number; name: string; content: string }, []>(
        "SELECT e.id, s.name, e.content FROM memory_events e JOIN memory_sessions s ON s.id = e.session_id ORDER BY e.id",
      )
      .all();
    for (const who of ["alpha", "beta"]) {
      const mine = rows.filter((r) => r.name === who);
      expect(mine).toHaveLength(n);
      // Each process's events keep its order: event i before event i+1.
      expect(mine.map((r) => Number(/worker (\d+)/.exec(r.content)![1]))).toEqual(Array.from({ length: n }, (_, i) => i));
    }
    // The counters agree with the rows, and the index holds every event.
    expect(db.query<{ events: number }, []>("SELECT events FROM memory_projects").get()!.events).toBe(2 * n);
    expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_events_fts WHERE memory_events_fts MATCH 'worker'").get()!.n).toBe(
      rows.filter((r) => /worker/.test(r.content)).length,
    );
    db.close();
  }, 60_000);

  test("the spool is taken in exactly once, even by two processes at once", async () => {
    const m = testMemory();
    const dir = spoolDir(m.path);
    const files = 40;
    for (let f = 0; f < files; f++) {
      const events = Array.from({ length: 5 }, (_, i) => ({
        project: PROJECT,
        session: `pi-${f}`,
        kind: "prompt",
        text: `spooled ${f}-${i}: look at src/f${f}.ts`,
        ts: Date.now(),
      }));
      expect(writeSpool(dir, events)).toBe(true);
    }
    expect(spoolFiles(dir)).toHaveLength(files);
    const a = child([m.path, "--take"]);
    const b = child([m.path, "--take"]);
    await Promise.all([finished(a), finished(b)]);
    const texts = m.db
      .query<{ content: string }, []>("SELECT content FROM memory_events ORDER BY id")
      .all()
      .map((r) => r.content);
    expect(texts).toHaveLength(files * 5);
    expect(new Set(texts).size).toBe(files * 5);
    expect(spoolFiles(dir)).toEqual([]);
    expect(readdirSync(dir).filter((f) => f !== "disabled.json" && f !== "projects")).toEqual([]);
  }, 60_000);

  test("the spool: taken in by the next request; a project whose memory is off drops its events; prompts that correct are corrections", async () => {
    const m = testMemory();
    const dir = spoolDir(m.path);
    expect(existsSync(dir)).toBe(false);
    writeSpool(dir, [
      { project: PROJECT, session: "pi-1", kind: "prompt", text: "Always use npm to install packages.", ts: m.clock.t },
      { project: PROJECT, session: "pi-1", kind: "prompt", text: "no, use pnpm, not npm", ts: m.clock.t + 1 },
    ]);
    const found = await m.ok({ type: "search", project: PROJECT, query: "pnpm" }, "search");
    expect(found.hits[0]).toMatchObject({ kind: "correction", session: "pi-1" });
    await m.ok({ type: "setEnabled", project: "/work/quiet", enabled: false }, "setEnabled");
    writeSpool(dir, [
      { project: "/work/quiet", session: "pi-2", kind: "prompt", text: "secret plans for the quiet project", ts: m.clock.t },
    ]);
    await m.ok({ type: "stats" }, "stats");
    expect(m.db.query("SELECT 1 FROM memory_events WHERE content LIKE '%quiet project%'").get()).toBeNull();
    expect(spoolFiles(dir)).toEqual([]);
  });
});
