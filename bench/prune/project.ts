/**
 * The project the benchmark session works in: hono's real tree (unpacked from shared/corpora,
 * file times as in the tarball, so `ls -l` prints the same in both runs) plus two made-up files a
 * developer would look at, a dev-server log and a test-run log. `changeProject` is what happens
 * before the questions: some files the agent read are edited, the server restarts (a new log),
 * the tests are run again, so reading or running anything now shows other text than before.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Corpus, unpackCorpus } from "../kota/corpora.ts";
import { createRng, type Rng } from "../prng.ts";

export const DEV_LOG = "logs/dev-server.log";
export const TEST_LOG = "logs/test-run.txt";

/** Lines edited before the questions: the first line matching each pattern gets a comment appended, and a header goes on top. */
export const EDITS: readonly { path: string; pattern: RegExp }[] = [
  { path: "src/hono-base.ts", pattern: /#dispatch\(/ },
  { path: "src/context.ts", pattern: /^\s*header\b.*=/ },
  { path: "src/jsx/dom/render.ts", pattern: /^export const createPortal/ },
  { path: "src/types.ts", pattern: /^export interface HandlerInterface/ },
];

const ROUTES = ["/api/users", "/api/session", "/api/orders", "/api/health", "/static/app.js", "/api/cart", "/login", "/api/search"];
const AGENTS = ["Mozilla/5.0 (X11; Linux x86_64)", "curl/8.5.0", "okhttp/4.12.0", "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)"];

function stamp(t: number): string {
  return new Date(t).toISOString();
}

/** A dev-server log: requests, a few warnings, two 500s on /api/session with a stack trace. */
export function devServerLog(seed: number, lines: number): string {
  const r = createRng(seed);
  let t = Date.UTC(2026, 7, 21, 12, 0, 0) + r.int(3_600_000);
  const out: string[] = [`${stamp(t)} INFO  dev server listening on http://localhost:8787 (pid ${r.range(2000, 60000)})`];
  const errorsAt = new Set([Math.floor(lines * 0.35), Math.floor(lines * 0.7)]);
  while (out.length < lines) {
    t += r.range(5, 2500);
    const id = r.hex(12);
    if (errorsAt.has(out.length)) {
      out.push(
        `${stamp(t)} ERROR POST /api/session 500 ${r.range(3, 90)}ms req=${id} TypeError: Cannot read properties of undefined (reading 'get')`,
      );
      out.push(`    at getCookie (src/helper/cookie/index.ts:${r.range(20, 80)}:${r.range(5, 40)})`);
      out.push(`    at sessionMiddleware (app/middleware/session.ts:${r.range(10, 60)}:${r.range(5, 30)})`);
      out.push(`    at dispatch (src/compose.ts:${r.range(30, 70)}:${r.range(10, 30)})`);
      continue;
    }
    if (r.chance(0.05)) {
      out.push(`${stamp(t)} WARN  slow request ${r.pick(ROUTES)} took ${r.range(800, 4000)}ms req=${id}`);
      continue;
    }
    const route = r.pick(ROUTES);
    const status = r.chance(0.08) ? r.pick([301, 304, 404, 401]) : 200;
    out.push(
      `${stamp(t)} INFO  ${r.pick(["GET", "GET", "GET", "POST"])} ${route}${r.chance(0.3) ? `/${r.range(1, 9999)}` : ""} ${status} ${r.range(1, 120)}ms req=${id} ua="${r.pick(AGENTS)}"`,
    );
  }
  return `${out.slice(0, lines).join("\n")}\n`;
}

/** A vitest-like run over hono's test files: mostly passes, `failing` of them fail with a diff. */
export function testRunLog(seed: number, files: readonly string[], failing: number): string {
  const r = createRng(seed);
  const out: string[] = [" RUN  v3.2.4 /work/hono", ""];
  const failed = new Set(files.slice(0, failing));
  let tests = 0;
  let failures = 0;
  for (const f of files) {
    const n = r.range(4, 60);
    tests += n;
    if (failed.has(f)) {
      failures++;
      out.push(` ❯ ${f} (${n} tests | 1 failed) ${r.range(20, 400)}ms`);
      out.push(`   × ${f.replace(/.*\//, "").replace(/\.test\.ts$/, "")} > parses a cookie with an empty value ${r.range(1, 30)}ms`);
      out.push(`     → expected { name: '' } to deeply equal { name: undefined }`);
    } else out.push(` ✓ ${f} (${n} tests) ${r.range(5, 300)}ms`);
  }
  out.push("", ` Test Files  ${failures} failed | ${files.length - failures} passed (${files.length})`);
  out.push(`      Tests  ${failures} failed | ${tests - failures} passed (${tests})`);
  out.push(`   Start at  12:${String(r.range(10, 59)).padStart(2, "0")}:${String(r.range(10, 59)).padStart(2, "0")}`);
  out.push(`   Duration  ${(r.range(40, 200) / 10).toFixed(2)}s (transform 1.2s, setup 0ms, collect 4.1s, tests 2.3s)`);
  return `${out.join("\n")}\n`;
}

function testFiles(root: string): string[] {
  const r = Bun.spawnSync(["find", "src", "-name", "*.test.ts"], { cwd: root, stdout: "pipe" });
  return r.stdout.toString().trim().split("\n").filter(Boolean).sort();
}

export type Project = { root: string; remove(): void };

/** hono's tree with the two logs, ready for a session. */
export function createProject(seed: number): Project {
  const corpus: Corpus = unpackCorpus("hono");
  mkdirSync(join(corpus.root, "logs"));
  writeFileSync(join(corpus.root, DEV_LOG), devServerLog(seed, 170));
  // The cookie tests fail first (the session is about a cookie bug), so they lead the list.
  const files = testFiles(corpus.root);
  const cookieFirst = [...files.filter((f) => f.includes("cookie")), ...files.filter((f) => !f.includes("cookie"))];
  writeFileSync(join(corpus.root, TEST_LOG), testRunLog(seed + 1, cookieFirst.slice(0, 110), 2));
  return { root: corpus.root, remove: corpus.remove };
}

/** What changes on disk before the questions: edited files, a restarted server, a passing test run. */
export function changeProject(root: string, seed: number): void {
  const rng: Rng = createRng(seed + 7);
  for (const { path, pattern } of EDITS) {
    const full = join(root, path);
    const lines = readFileSync(full, "utf8").split("\n");
    const at = lines.findIndex((l) => pattern.test(l));
    if (at === -1) throw new Error(`changeProject: no line of ${path} matches ${pattern}`);
    lines[at] = `${lines[at]} // reviewed ${rng.hex(6)}`;
    writeFileSync(full, [`// Patched while investigating the session bug (${rng.hex(8)}).`, "", ...lines].join("\n"));
  }
  writeFileSync(join(root, DEV_LOG), devServerLog(seed + 100, 60));
  const files = testFiles(root);
  writeFileSync(join(root, TEST_LOG), testRunLog(seed + 101, files.slice(0, 110), 0));
}
