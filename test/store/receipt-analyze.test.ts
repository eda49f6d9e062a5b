/**
 * analyzeOutput on real tool outputs: the kind, and a summary that names what failed (package,
 * command, exit code, failing tests, counts); words that only contain "error" never count.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { analyzeOutput, type OutputAnalysis } from "../../src/store/receipt/analyze.ts";
import { SCORE, scoreLine } from "../../src/store/receipt/line-score.ts";
import { cleanupTempDirs, ROOT, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

const BENCH = join(ROOT, "bench/retrieval/fixtures");
const OURS = join(ROOT, "test/store/fixtures/receipts");

function read(dir: string, name: string): string {
  const raw = readFileSync(join(dir, name));
  return name.endsWith(".gz") ? gunzipSync(raw).toString("utf8") : raw.toString("utf8");
}

const bench = (name: string) => analyzeOutput(read(BENCH, name));
const ours = (name: string) => analyzeOutput(read(OURS, name));
const summaryOf = (a: OutputAnalysis) => a.summary.join("\n");
const importantText = (a: OutputAnalysis) => a.important.map((l) => l.text).join("\n");

describe("package managers", () => {
  test("npm install --verbose: the package whose postinstall failed, its command and exit code", () => {
    const a = bench("npm-install-node-sass.txt");
    expect(a.kind).toBe("npm");
    expect(a.summary[0]).toBe("Failed: node-sass@4.14.1 postinstall script (node_modules/node-sass), code: 1, signal: null");
    expect(a.summary).toContain("Command: node scripts/build.js");
    expect(a.summary).toContain("npm exit code 1");
    // The line npm wrote the exit code on comes first; the cause (no python2) is among the lines shown.
    expect(a.important[0]).toMatchObject({ line: 560, text: "npm info run node-sass@4.14.1 postinstall { code: 1, signal: null }" });
    expect(a.important.map((l) => l.line)).toContain(599);
    expect(importantText(a)).toContain("python2: command not found");
  });

  test("npm install: sharp's install script, the path and the download that failed", () => {
    const a = bench("npm-install-sharp.txt");
    expect(a.kind).toBe("npm");
    expect(summaryOf(a)).toContain("sharp@0.32.6 install script (node_modules/sharp), code: 1");
    expect(importantText(a)).toContain("getaddrinfo ENOTFOUND github.com");
  });

  test("pnpm: the failing postinstall, its command and pnpm's exit code", () => {
    const a = ours("pnpm-install-postinstall.txt");
    expect(a.kind).toBe("pnpm");
    expect(a.summary).toContain("Failed: native-dep postinstall script (node_modules/native-dep)");
    expect(a.summary).toContain("Command: node build.js");
    expect(summaryOf(a)).toContain("Command failed with exit code 3.");
    expect(importantText(a)).toContain("cannot find a C++ compiler");
  });

  test("yarn: the failing package, exit code and command", () => {
    const a = ours("yarn-install-postinstall.txt");
    expect(a.kind).toBe("yarn");
    expect(a.summary).toEqual(["Failed: native-dep (node_modules/native-dep), Exit code: 3", "Command: node build.js"]);
    expect(importantText(a)).toContain("cannot find a C++ compiler");
  });
});

describe("type checkers and linters", () => {
  test("tsc (plain): error count, codes, files with most errors and the missing modules", () => {
    const text = read(BENCH, "tsc-hono.txt");
    const a = analyzeOutput(text);
    expect(a.kind).toBe("tsc");
    const errorLines = text.split("\n").filter((l) => / error TS\d+: /.test(l)).length;
    expect(a.summary[0]).toStartWith(`${errorLines} errors in `);
    expect(a.summary[1]).toStartWith("Codes: TS2532 ×67, TS18048 ×57, TS2345 ×33");
    expect(summaryOf(a)).toContain("TS2307 ×5: Cannot find module 'node:fs/promises', 'node:path', 'node:crypto', 'node:async_hooks'");
    expect(a.important[0]!.line).toBe(1);
  });

  test("tsc --pretty: tsc's own verdict and its Errors/Files table, colours stripped", () => {
    const a = bench("tsc-hono-spec-pretty.txt.gz");
    expect(a.kind).toBe("tsc");
    expect(a.summary[0]).toBe("Found 10336 errors in 128 files.");
    expect(summaryOf(a)).toContain("Errors  Files: 859  src/hono.test.ts");
    expect(summaryOf(a) + importantText(a)).not.toContain("\x1b");
  });

  test("eslint: problems, rules and files; '0 errors ... fixable' is no failure", () => {
    const a = ours("eslint-stylish.txt");
    expect(a.kind).toBe("eslint");
    expect(a.summary[0]).toBe("✖ 13 problems (8 errors, 5 warnings)");
    expect(summaryOf(a)).toContain("no-undef ×2");
    expect(summaryOf(a)).toContain("/tmp/rx/eslint/src/report.js ×12");
    expect(importantText(a)).toContain("'setTimeout' is not defined");
    expect(importantText(a)).not.toContain("potentially fixable");
  });
});

describe("test runners", () => {
  test("mocha: 9 failing and every failing test by name", () => {
    const a = bench("mocha-failing.txt");
    expect(a.kind).toBe("mocha");
    expect(a.summary[0]).toBe("44 passing (542ms), 9 failing");
    const failed = a.summary.filter((s) => s.startsWith("✗ "));
    expect(failed).toHaveLength(9);
    expect(failed[0]).toBe("✗ rounds the total with tax to the cent");
    expect(failed).toContain("✗ does not end a cut slug with a dash");
    expect(importantText(a)).toContain("TypeError: Cannot read properties of undefined (reading 'toFixed')");
  });

  test("cargo test: per-target results, failed targets, failing and ignored tests", () => {
    const a = bench("cargo-test.txt");
    expect(a.kind).toBe("cargo-test");
    expect(a.summary[0]).toBe("src/lib.rs: FAILED. 9 passed; 6 failed; 1 ignored");
    expect(a.summary).toContain("failed targets: `--lib`, `--test statement`");
    expect(a.summary.filter((s) => s.startsWith("✗ "))).toHaveLength(7);
    expect(a.summary).toContain("✗ tests::overdraft_boundary_is_exact");
    expect(a.summary).toContain("ignored: tests::replays_a_year (slow: replays a year of entries)");
  });

  test("pytest: the verdict and the failed tests", () => {
    const a = bench("pytest-failing.txt");
    expect(a.kind).toBe("pytest");
    expect(a.summary[0]).toBe("4 failed, 9 passed, 1 skipped, 1 xfailed in 0.86s");
    expect(a.summary.slice(1)).toHaveLength(4);
    expect(summaryOf(a)).toContain("test_inventory.py::test_low_stock_is_sorted");
    expect(importantText(a)).toContain("E       KeyError: 'SPROCKET-9'");
  });

  for (const [file, kind, counts] of [
    ["jest-failing.txt", "jest", "Tests: 5 failed, 16 passed, 21 total"],
    ["vitest-failing.txt", "vitest", "Tests 5 failed | 16 passed (21)"],
    ["bun-test-failing.txt", "bun-test", "16 pass, 5 fail, Ran 21 tests across 2 files."],
  ] as const) {
    test(`${kind}: counts, the 5 failing tests, never the passing "should pass error to callback"`, () => {
      const a = ours(file);
      expect(a.kind).toBe(kind);
      expect(summaryOf(a)).toContain(counts);
      const failed = a.summary.filter((s) => s.startsWith("✗ "));
      expect(failed).toHaveLength(5);
      expect(failed.some((s) => s.endsWith("level of an unknown sku is zero"))).toBe(true);
      expect(summaryOf(a) + importantText(a)).not.toContain("should pass error to callback");
      expect(importantText(a)).toMatch(/TypeError: /);
    });
  }

  test("go test: failed packages (build failure included), failing tests and the panic", () => {
    const a = ours("go-test-failing.txt");
    expect(a.kind).toBe("go-test");
    expect(a.summary[0]).toBe("packages: 2 failed, 1 ok; tests: 3 failed");
    expect(a.summary).toContain("FAIL example.com/shop/broken [build failed]");
    expect(a.summary).toContain("--- FAIL: TestFormatCents/-0.05 (0.00s)");
    expect(a.summary).toContain("panic: assignment to entry in nil map [recovered]");
    expect(importantText(a)).toContain("broken/broken.go:5:3: undefined: sum");
    const verbose = ours("go-test-v.txt");
    expect(verbose.summary[0]).toBe("packages: 1 failed, 1 ok; tests: 3 failed, 4 passed");
    expect(summaryOf(verbose)).not.toContain("TestShouldPassErrorToCaller");
  });

  test("cargo build: the verdict, error count and codes, each error with its location", () => {
    const a = ours("cargo-build-errors.txt");
    expect(a.kind).toBe("cargo");
    expect(a.summary).toEqual([
      "error: could not compile `shop` (lib) due to 4 previous errors",
      "4 errors, 0 warnings",
      "codes: E0277 ×1, E0308 ×2, E0609 ×1",
    ]);
    expect(importantText(a)).toContain(" --> src/lib.rs:16:15");
  });
});

describe("listings and tools", () => {
  test("apt-get install -s: the verdict and which packages are upgraded or new", () => {
    const a = bench("apt-get-install-s.txt");
    expect(a.kind).toBe("apt");
    expect(a.summary[0]).toBe("7 upgraded, 43 newly installed, 0 to remove and 99 not upgraded.");
    expect(a.summary).toContain("Upgraded (7): curl libcurl3-gnutls libcurl3-nss libcurl4 libssl-dev libssl3 openssl");
    expect(summaryOf(a)).toContain("New (43): fonts-droid-fallback");
  });

  test("git log --stat: commits, dates, first and last subject", () => {
    const text = read(BENCH, "git-log-stat.txt");
    const a = analyzeOutput(text);
    expect(a.kind).toBe("git-log");
    const commits = text.split("\n").filter((l) => /^commit [0-9a-f]{40}$/.test(l)).length;
    expect(a.summary[0]).toBe(`${commits} commits by 1 author`);
    expect(summaryOf(a)).toContain("newest Mon Nov 23 11:08:11 2026 +0000");
    expect(summaryOf(a)).toContain("oldest: Context store: SQLite FTS5 store");
  });

  test("git log --oneline: commits, newest and oldest", () => {
    const text = read(OURS, "git-log-oneline.txt");
    const a = analyzeOutput(text);
    expect(a.kind).toBe("git-log");
    expect(a.summary[0]).toBe(`${text.trimEnd().split("\n").length} commits`);
    expect(a.summary[1]).toStartWith("newest: 7592230 ");
    expect(a.summary[2]).toStartWith(`oldest: ${text.trimEnd().split("\n").at(-1)!.slice(0, 40)}`);
  });

  test("dpkg -l: package states counted; libgpg-error is a package, not an error", () => {
    const text = read(BENCH, "dpkg-l.txt");
    const a = analyzeOutput(text);
    expect(a.kind).toBe("dpkg");
    const installed = text.split("\n").filter((l) => l.startsWith("ii ")).length;
    expect(a.summary[0]).toBe(`${installed} packages: ${installed} ii (installed)`);
    expect(a.important).toEqual([]);
  });

  test("JSON after an npm warning: shape, keys and what npm says it is", () => {
    const ls = bench("npm-ls-all.json");
    expect(ls.kind).toBe("json");
    expect(ls.summary).toContain("JSON object with 3 keys: version, name, dependencies");
    const lock = bench("pi-sidecar-package-lock.json");
    expect(summaryOf(lock)).toMatch(/lockfileVersion 3: [\d,]+ package entries/);
  });

  test("docker and kubectl without a daemon or cluster: the connection error", () => {
    const d = ours("docker-build-no-daemon.txt");
    expect(d.kind).toBe("docker");
    expect(d.summary[0]).toBe("Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?");
    const k = ours("kubectl-get-no-server.txt");
    expect(k.kind).toBe("kubectl");
    expect(k.summary[0]).toBe("The connection to the server localhost:8080 was refused - did you specify the right host or port?");
    expect(k.summary[1]).toStartWith("5 client log errors");
  });
});

describe("unknown kinds and misfires", () => {
  test("make + gcc (no recogniser): the compiler errors and make's Error 1, nothing else", () => {
    const a = ours("make-gcc-errors.txt");
    expect(a.kind).toBeNull();
    expect(a.summary).toEqual([]);
    expect(a.important[0]).toMatchObject({ line: 20, text: "make: *** [<builtin>: main.o] Error 1" });
    expect(a.important.map((l) => l.line).sort((x, y) => x - y)).toEqual([3, 10, 16, 20]);
  });

  test("a Python traceback after 371 'errors=0' lines: the traceback, never the zero counts", () => {
    const a = ours("python-traceback.txt");
    expect(a.kind).toBeNull();
    expect(a.important[0]).toMatchObject({ line: 372, text: "Traceback (most recent call last):" });
    expect(importantText(a)).toContain("ValueError: invalid literal for int() with base 10: 'seven'");
    expect(importantText(a)).not.toContain("errors=0");
  });

  test("a node_modules listing: http-errors, es-errors and friends are package names", () => {
    const text = read(BENCH, "find-node-modules.txt.gz");
    expect(text).toContain("node_modules/http-errors");
    expect(text).toContain("node_modules/es-errors");
    const a = analyzeOutput(text);
    expect(a.kind).toBe("file-listing");
    expect(a.important).toEqual([]);
  });

  test("a log whose lines start and end with brackets is not JSON: its failure lines still show", () => {
    const log = Array.from({ length: 400 }, (_, i) =>
      i === 250 ? "[250] Error: ECONNREFUSED 127.0.0.1:5432 [retry]" : `[${i}] step ${i} [ok]`,
    );
    const a = analyzeOutput(log.join("\n"));
    expect(a.kind).toBeNull();
    expect(a.important[0]).toMatchObject({ line: 251, text: "[250] Error: ECONNREFUSED 127.0.0.1:5432 [retry]" });
  });

  test("lines that only mention errors score nothing; failures score by what they are", () => {
    for (const harmless of [
      "node_modules/http-errors/index.js",
      "node_modules/es-errors/type.js",
      "ii  libgpg-error0:amd64   1.46-1   amd64   GnuPG development runtime library",
      "      ✔ should pass error to callback",
      "    ✓ should pass error to callback (1 ms)",
      "(pass) callbacks > should pass error to callback [1.46ms]",
      "Found 0 errors. Watching for file changes.",
      "errors: 0, warnings: 0",
      "  0 errors and 2 warnings potentially fixable with the `--fix` option.",
      "import { onError } from './errors.ts'",
    ]) {
      // At most a warning (1): never a line that looks like a failure.
      expect([harmless, scoreLine(harmless) <= SCORE.warning]).toEqual([harmless, true]);
    }
    expect(scoreLine("make: *** [Makefile:3: app] Error 2")).toBeGreaterThan(scoreLine("main.c:5:13: error: expected ';'"));
    expect(scoreLine("Error: ENOENT: no such file or directory")).toBeGreaterThan(0);
    expect(scoreLine("    at Object.<anonymous> (src/app.ts:12:5)")).toBeGreaterThan(0);
    expect(scoreLine("    at Module._compile (node:internal/modules/cjs/loader:1554:14)")).toBe(0);
  });
});

describe("file listings", () => {
  test("a name holding fail or ERROR is data in ls -l, ls -1 and find output, never an important line", () => {
    const dir = tempDir("listing-");
    mkdirSync(join(dir, "src/failures"), { recursive: true });
    for (let i = 0; i < 120; i++) writeFileSync(join(dir, "src", `module-${i}.ts`), "");
    for (const name of ["failed", "ERROR.md", "FAIL-2024.txt", "why it failed.txt"]) writeFileSync(join(dir, name), "");
    const run = (cmd: string[]) => Bun.spawnSync(cmd, { cwd: dir, stdout: "pipe" }).stdout.toString();
    for (const [name, out] of [
      ["ls -l", run(["ls", "-l", "src", "."])],
      ["ls -1", run(["ls", "-1", "src", "."])],
      ["find", run(["find", "."])],
    ] as const) {
      const a = analyzeOutput(out);
      expect({ name, kind: a.kind, important: a.important }).toEqual({ name, kind: "file-listing", important: [] });
    }
    expect(analyzeOutput(run(["ls", "-l", "src"])).summary[0]).toBe("121 entries: 120 files, 1 directory");
  });

  test("a log that names files is no listing: its failures are still found", () => {
    const log = [
      ...Array.from({ length: 40 }, (_, i) => `compiling src/module-${i}.ts`),
      "src/module-7.ts:3:1 error: Cannot find name 'x'",
      "FAILED: 1 file",
    ].join("\n");
    const a = analyzeOutput(log);
    expect(a.kind).not.toBe("file-listing");
    expect(a.important.map((f) => f.text)).toContain("FAILED: 1 file");
  });
});
