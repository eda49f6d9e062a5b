/**
 * The parser pool on its own: parsers started ahead of their work, the watch that kills a parser
 * silent for `timeoutMs` (and only that one: a slow parser that keeps answering is left alone).
 * The parsers are the real parser (parse-child.ts) behind an input that can be slowed or stopped
 * per file, run by Bun as the pool runs its helper.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../../src/hash.ts";
import { createParsePool, type ParseJob } from "../../src/kota/builtin/parse/parse-pool.ts";
import { prestartParser, takeEarlyParser } from "../../src/kota/builtin/parse/parser-process.ts";
import { storedOutcome } from "../../src/kota/builtin/parse/redact-facts.ts";
import { cleanupTempDirs, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const CHILD = join(import.meta.dir, "../../src/kota/builtin/parse/parse-child.ts");

/** A parser that waits `delayMs` before each request and never answers a file whose path contains "hang". */
function slowParser(delayMs: number): { command: string; args: string[]; env: Record<string, string> } {
  const script = join(tempDir("kota-slow-parser-"), "slow-parser.ts");
  writeFileSync(
    script,
    `import { runParseChild } from ${JSON.stringify(CHILD)};
async function* input() {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of Bun.stdin.stream()) {
    pending += decoder.decode(chunk, { stream: true });
    for (let nl = pending.indexOf("\\n"); nl !== -1; nl = pending.indexOf("\\n")) {
      const line = pending.slice(0, nl + 1);
      pending = pending.slice(nl + 1);
      if (line.includes("hang")) await new Promise(() => {});
      await Bun.sleep(${delayMs});
      yield new TextEncoder().encode(line);
    }
  }
}
process.exit(await runParseChild(input()));
`,
  );
  return { command: process.execPath, args: [script], env: {} };
}

function jobs(root: string, names: string[]): ParseJob[] {
  return names.map((path) => ({ path, file: join(root, path) }));
}

function sources(n: number, extra: Record<string, string> = {}): { root: string; names: string[] } {
  const files: Record<string, string> = { ...extra };
  for (let i = 0; i < n; i++) files[`src/f${i}.ts`] = `export const v${i} = ${i};\n`;
  return { root: writeRepo(files), names: Object.keys(files) };
}

describe("parser pool", () => {
  test("prestart starts parsers before any work (one per 50 files, within the pool's size); they then parse", async () => {
    const pool = createParsePool({ size: 2 });
    try {
      pool.prestart(1);
      expect(pool.stats()).toMatchObject({ started: 1, running: 1 });
      pool.prestart(500);
      expect(pool.stats()).toMatchObject({ started: 2, running: 2 });
      pool.prestart(500);
      expect(pool.stats().started).toBe(2);
      const { root, names } = sources(3);
      const out = await pool.parse(jobs(root, names));
      expect(out.map((o) => o.facts.symbols.map((s) => s.name))).toEqual([["v0"], ["v1"], ["v2"]]);
      expect(pool.stats()).toMatchObject({ started: 2, crashed: 0 });
    } finally {
      await pool.close();
    }
  }, 30_000);

  test("two parsers get up to 256 requests in flight at once, shared; a pool of one parser gets them all", async () => {
    // 512 KiB of source is the other limit: small files (sizes given: the pool counts 4 KiB for a file without one) reach the request limit first.
    const { root, names } = sources(300);
    const small = jobs(root, names).map((j) => ({ ...j, size: 30 }));
    for (const [size, each] of [
      [1, [300]],
      [2, [128, 128]],
    ] as const) {
      const pool = createParsePool({ size, helper: slowParser(0) });
      try {
        const out = pool.parse(small);
        // Sent at once, before any answer: the parser's queue, not the pool's, holds the work.
        expect(pool.stats()).toMatchObject({ running: each.length, inFlight: each.reduce((a, b) => a + b, 0) });
        expect((await out).every((o) => o.facts.error === null)).toBe(true);
        expect(pool.stats().inFlight).toBe(0);
      } finally {
        await pool.close();
      }
    }
  }, 60_000);

  test("a pool of one parser sends up to 4 MiB of source or 1,024 requests ahead; two parsers 512 KiB between them", async () => {
    const { root, names } = sources(1100);
    // A request is sent while less than the byte limit is in flight: 210 x 20,000 bytes pass 4 MiB, 14 pass 256 KiB.
    for (const [size, bytes, each] of [
      [1, 20_000, [210]],
      [2, 20_000, [14, 14]],
      [1, 30, [1024]],
    ] as const) {
      const pool = createParsePool({ size, helper: slowParser(0) });
      try {
        const out = pool.parse(jobs(root, names).map((j) => ({ ...j, size: bytes })));
        expect(pool.stats()).toMatchObject({ running: each.length, inFlight: each.reduce((a, b) => a + b, 0) });
        expect((await out).every((o) => o.facts.error === null)).toBe(true);
      } finally {
        await pool.close();
      }
    }
  }, 120_000);

  test("a parser started ahead is the pool's first one when it runs the pool's command; one started with another command is ended", async () => {
    const { root, names } = sources(3);
    const helper = slowParser(0);
    const early = prestartParser(() => helper)!;
    expect(prestartParser(() => helper)).toBe(early); // one at a time
    const pool = createParsePool({ size: 1, helper });
    try {
      const out = await pool.parse(jobs(root, names));
      expect(out.map((o) => o.facts.symbols.map((s) => s.name))).toEqual([["v0"], ["v1"], ["v2"]]);
      expect(pool.stats()).toMatchObject({ started: 1, running: 1 });
      expect(takeEarlyParser(helper)).toBeNull(); // taken
      expect(early.exitCode).toBeNull(); // the pool's parser now
    } finally {
      await pool.close();
    }
    expect(await early.exited).toBe(0); // ended by the pool: its input closed

    const other = prestartParser(() => slowParser(0))!;
    const second = createParsePool({ size: 1, helper });
    try {
      expect((await second.parse(jobs(root, names))).every((o) => o.facts.error === null)).toBe(true);
      await other.exited;
      expect(other.signalCode).toBe("SIGTERM"); // not the pool's command: ended, not taken
      expect(second.stats().started).toBe(1);
    } finally {
      await second.close();
    }
  }, 30_000);

  test("a parser that keeps answering is not killed, however long the whole batch takes", async () => {
    const pool = createParsePool({ size: 1, helper: slowParser(100), timeoutMs: 1500 });
    try {
      const { root, names } = sources(20);
      const started = performance.now();
      const out = await pool.parse(jobs(root, names));
      expect(performance.now() - started).toBeGreaterThan(1500);
      expect(out.every((o) => o.facts.error === null && o.facts.symbols.length === 1)).toBe(true);
      expect(pool.stats()).toMatchObject({ started: 1, crashed: 0 });
    } finally {
      await pool.close();
    }
  }, 30_000);

  test("a parser silent for timeoutMs is killed: its file is skipped, the others are parsed by a new one", async () => {
    const pool = createParsePool({ size: 1, helper: slowParser(0), timeoutMs: 500 });
    try {
      const { root, names } = sources(4, { "src/hang.ts": "export const h = 1;\n" });
      const out = await pool.parse(jobs(root, names));
      const byPath = Object.fromEntries(names.map((n, i) => [n, out[i]!]));
      expect(byPath["src/hang.ts"]!.facts.error?.message).toContain("took over");
      expect(byPath["src/hang.ts"]!.body).toContain("const h");
      for (const n of names.filter((x) => x !== "src/hang.ts")) expect(byPath[n]!.facts.error).toBeNull();
      expect(pool.stats()).toMatchObject({ started: 2, crashed: 1 });
    } finally {
      await pool.close();
    }
  }, 30_000);

  test("the parser's facts are redacted, and the search words made, by the pool; a file changed since it was parsed is parsed again", async () => {
    const TOKEN = "ghp_4f9Qx2LmZ8rT1vB6nK3wY7sD0aH5jE2cU9pR";
    const text = `export const GITHUB_TOKEN = "${TOKEN}";\nexport function getPathNoStrict() {}\n`;
    const { root, names } = sources(1, { "src/secret.ts": text });
    const pool = createParsePool({ size: 1 });
    try {
      const out = (await pool.parse(jobs(root, names)))[names.indexOf("src/secret.ts")];
      expect(out!.hash).toBe(sha256(text));
      expect(out!.retry).toBeUndefined();
      expect(out!.facts.symbols.find((s) => s.name === "GITHUB_TOKEN")?.signature).toContain("[REDACTED:");
      expect(JSON.stringify(out)).not.toContain(TOKEN);
      expect(out!.body).toContain("get Path No Strict");
    } finally {
      await pool.close();
    }
    // What the parser read is no longer the file: its words are the file's now, and it is marked to be parsed again.
    writeFileSync(join(root, "src/secret.ts"), "export const renamed = 1;\n");
    const changed = storedOutcome(
      join(root, "src/secret.ts"),
      { symbols: [], imports: [], exports: [], refs: [], error: null },
      sha256(text),
    );
    expect(changed).toMatchObject({ retry: true, hash: sha256(text) });
    expect(changed.body).toContain("renamed");
  }, 30_000);
});
