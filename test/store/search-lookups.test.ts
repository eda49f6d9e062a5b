import { afterAll, describe, expect, test } from "bun:test";
import { purge } from "../../src/store/purge.ts";
import { type SearchAnswer, search } from "../../src/store/search/search.ts";
import { mayAllStartWords } from "../../src/store/search/typo.ts";
import { captureIndexed, cleanupTempDirs, noisyLog, testStore } from "../helpers.ts";

afterAll(cleanupTempDirs);

function ok(r: ReturnType<typeof search>): SearchAnswer {
  if (!r.ok) throw new Error(`search failed: ${r.message}`);
  return r;
}

async function stored(store: ReturnType<typeof testStore>, text: string, tool: string): Promise<string> {
  const r = await captureIndexed(store, { text, tool, force: true });
  if (!r.stored) throw new Error("not stored");
  return r.sourceId;
}

const needle = (word: string, n: number) => noisyLog(300, n, { line: 120 + n, text: `[w1] ${word} answered ${word}_${n}` });

describe("search: what is looked up once and remembered", () => {
  test("a text kept by several sources is shown as its newest source the filter allows", async () => {
    const store = testStore();
    const text = needle("quillwort", 7);
    const older = await stored(store, text, "bash");
    const newer = await stored(store, text, "read");
    const other = await stored(store, needle("quillwort", 9), "bash");
    const all = ok(search(store, { query: "quillwort" }));
    expect(new Set(all.hits.map((h) => h.sourceId))).toEqual(new Set([newer, other]));
    const bash = ok(search(store, { query: "quillwort", tool: "bash" }));
    expect(new Set(bash.hits.map((h) => h.sourceId))).toEqual(new Set([older, other]));
    expect(bash.hits.find((h) => h.sourceId === older)?.tool).toBe("bash");
  });

  test("a text read for one search is shown again as it is; a text stored under a freed id is read anew", async () => {
    const store = testStore();
    const a = await stored(store, needle("marshwren", 2), "bash");
    const first = ok(search(store, { query: "marshwren" }));
    expect(first.text).toContain("marshwren_2");
    expect(ok(search(store, { query: "marshwren answered" })).hits[0]!.text).toBe(first.hits[0]!.text);
    // The only text goes; the next one takes its freed ids (same chunk numbers, other lines).
    purge(store.db, { source: a }, store.now());
    const b = await stored(store, needle("marshwren", 4).replaceAll("[w1]", "[w9]"), "bash");
    const again = ok(search(store, { query: "marshwren" }));
    expect(again.hits[0]!.sourceId).toBe(b);
    expect(again.text).toContain("marshwren_4");
    expect(again.text).toContain("[w9]");
    expect(again.text).not.toContain("marshwren_2");
  });

  test("a source filter finds that source's text, searched again and after other sources come and go", async () => {
    const store = testStore();
    const a = await stored(store, needle("bramblecrest", 3), "bash");
    const b = await stored(store, needle("bramblecrest", 5), "bash");
    const onlyB = () => ok(search(store, { query: "bramblecrest", source: b }));
    const first = onlyB();
    expect(first.hits.length).toBeGreaterThan(0);
    expect(first.hits.every((h) => h.sourceId === b)).toBe(true);
    expect(first.text).toContain("bramblecrest_5");
    expect(first.text).not.toContain("bramblecrest_3");
    expect(onlyB().text).toBe(first.text);
    // Another source's text goes and a new one comes (its chunks may take freed ids): b is still b alone.
    purge(store.db, { source: a }, store.now());
    const c = await stored(store, needle("bramblecrest", 11), "bash");
    expect(onlyB().text).toBe(first.text);
    const onlyC = ok(search(store, { query: "bramblecrest", source: c }));
    expect(onlyC.hits.every((h) => h.sourceId === c)).toBe(true);
    expect(onlyC.text).toContain("bramblecrest_11");
    expect(onlyC.text).not.toContain("bramblecrest_5");
    // A purged source is said to be gone, not searched by what was remembered of it.
    purge(store.db, { source: b }, store.now());
    const gone = search(store, { query: "bramblecrest", source: b });
    expect(gone.ok).toBe(false);
  });

  test("word starts: a misspelt word that starts no word ends the stage, and the correction finds the place", async () => {
    const store = testStore();
    await stored(store, needle("rollback", 6).replace("answered", "session token refreshed after rollback"), "bash");
    expect(mayAllStartWords(store.db, ["sess", "rollb"])).toBe(true);
    expect(mayAllStartWords(store.db, ["session", "rolllback"])).toBe(false);
    const r = ok(search(store, { query: "rolllback session" }));
    expect(r.mode).toBe("typo-tolerant");
    expect(r.corrections).toEqual({ rolllback: "rollback" });
    expect(r.text).toContain("session token refreshed after rollback");
    expect(ok(search(store, { query: "rollb sess" })).mode).toBe("word starts");
  });
  test("an identifier whose every trigram is common is found whole, inside a longer token too, and only where it is whole", async () => {
    const store = testStore();
    // Hundreds of chunks hold each of its trigrams (and its inner word `cd34` alone), none the identifier.
    const lines = Array.from({ length: 12000 }, (_, i) => `step ${i}: ref ab12-cdq then d34-efz${i % 400 === 0 ? " and cd34 alone" : ""}`);
    const at = 9000 + Math.floor(Math.random() * 2500);
    lines[at] = `step ${at}: ref token=xab12-cd34-ef56y resolved`;
    const big = await stored(store, lines.join("\n"), "bash");
    const small = await stored(store, "request ab12-cd34-ef56 done\n", "bash");
    const r = ok(search(store, { query: "ab12-cd34-ef56" }));
    expect(new Set(r.hits.map((h) => h.sourceId))).toEqual(new Set([big, small]));
    const inBig = r.hits.find((h) => h.sourceId === big)!;
    expect(inBig.lines.some((l) => l.line === at + 1 && l.text.includes("xab12-cd34-ef56y"))).toBe(true);
    expect(r.hits.find((h) => h.sourceId === small)!.text).toContain("request ab12-cd34-ef56 done");
    // No place that holds only its trigrams or its inner word is a match.
    const matched = r.hits.flatMap((h) => h.lines.filter((l) => l.match));
    expect(matched.length).toBeGreaterThan(0);
    expect(matched.every((l) => l.text.includes("ab12-cd34-ef56"))).toBe(true);
    // Within one source the same.
    const only = ok(search(store, { query: "ab12-cd34-ef56", source: big }));
    expect(only.hits.map((h) => h.sourceId)).toEqual([big]);
    expect(only.hits[0]!.lines.some((l) => l.line === at + 1)).toBe(true);
  });
});

describe("search: one source's chunks as a row-id range", () => {
  test("the range holds the source's first and last chunks, and no other text's", async () => {
    const store = testStore();
    const lines = (seed: number) => {
      const log = noisyLog(600, seed).split("\n");
      log[0] = `[w0] tamarisk opened ${seed}`;
      log[log.length - 1] = `[w0] tamarisk closed ${seed}`;
      return log.join("\n");
    };
    const before = await stored(store, lines(1), "bash");
    const mine = await stored(store, lines(2), "bash");
    const after = await stored(store, lines(3), "bash");
    const chunks = store.db
      .query<{ n: number }, [string]>("SELECT b.chunk_count AS n FROM sources s JOIN blobs b ON b.id = s.blob_id WHERE s.handle = ?")
      .get(mine)!.n;
    expect(chunks).toBeGreaterThan(2);
    const r = ok(search(store, { query: "tamarisk", source: mine, limit: 10 }));
    expect(new Set(r.hits.map((h) => h.sourceId))).toEqual(new Set([mine]));
    expect(r.text).toContain("tamarisk opened 2");
    expect(r.text).toContain("tamarisk closed 2");
    for (const other of [before, after])
      expect(new Set(ok(search(store, { query: "tamarisk", source: other, limit: 10 })).hits.map((h) => h.sourceId))).toEqual(
        new Set([other]),
      );
  });
});
