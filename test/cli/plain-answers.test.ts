/**
 * The CLI as a script and a person meet it: --json failures are a JSON object on stdout with the
 * exit code, parseArgs' own phrasing never leaks, a read command on a missing database says so and
 * creates nothing, `stats --source` of an unknown id fails as `get` does, `--limit` keeps to its
 * documented range, `servers --json` is JSON, and `stats` shows the saving against the baseline.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, noisyLog, runCli, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

function env() {
  const home = tempDir();
  return { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
}

describe("plain answers from the CLI", () => {
  test("under --json a failure is a JSON error object on stdout, with the exit code", () => {
    const e = env();
    const usage = runCli(["search", "x", "--limit", "zero", "--json"], { env: e });
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toEqual({
      error: {
        kind: "usage",
        message: '--limit takes a whole number from 1 to 50, got "zero"',
        usage: expect.stringContaining("pi-sidecar search"),
      },
      exitCode: 2,
    });
    runCli(["capture", "--tool", "bash", "--force"], { env: e, stdin: noisyLog(50, 1) });
    const failure = runCli(["--json", "get", "ctx_nope"], { env: e });
    expect(failure.code).toBe(1);
    const j = JSON.parse(failure.stdout);
    expect(j.exitCode).toBe(1);
    expect(j.error.kind).toBe("failure");
    expect(j.error.message).toContain('No source "ctx_nope"');
    // Without --json, stdout stays empty and the text goes to stderr.
    const plain = runCli(["get", "ctx_nope"], { env: e });
    expect(plain.stdout).toBe("");
    expect(plain.stderr).toContain('No source "ctx_nope"');
  });

  test("parseArgs' own phrasing does not leak", () => {
    const e = env();
    const dash = runCli(["search", "x", "--limit", "-3"], { env: e });
    expect(dash.code).toBe(2);
    expect(dash.stderr).toStartWith('pi-sidecar: --limit needs a value, got "-3"');
    expect(dash.stderr).not.toContain("XYZ");
    const missing = runCli(["list", "--limit"], { env: e });
    expect(missing.stderr).toStartWith("pi-sidecar: --limit needs a value\n");
    const unknown = runCli(["list", "--frob"], { env: e });
    expect(unknown.stderr).toStartWith("pi-sidecar: unknown option --frob.");
    const valued = runCli(["stats", "--json=yes"], { env: e });
    expect(valued.stderr).toStartWith("pi-sidecar: --json is a switch and takes no value");
  });

  test("a read command on a missing database says so and creates nothing", () => {
    const e = env();
    const dir = join(tempDir(), "no", "such");
    for (const args of [["stats"], ["search", "x"], ["get", "ctx_a"], ["list"], ["export", "ctx_a", "--out", join(tempDir(), "o")]]) {
      const r = runCli(["--db", join(dir, "x.db"), ...args], { env: e });
      expect({ args, code: r.code }).toEqual({ args, code: 1 });
      expect(r.stderr).toContain(`no database at ${join(dir, "x.db")}`);
      expect(existsSync(join(dir, ".."))).toBe(false);
    }
  });

  test("stats --source of an unknown id fails; a known one answers", () => {
    const e = env();
    const cap = JSON.parse(runCli(["--json", "capture", "--tool", "bash", "--force"], { env: e, stdin: noisyLog(80, 2) }).stdout);
    const nope = runCli(["stats", "--source", "ctx_nope"], { env: e });
    expect(nope.code).toBe(1);
    expect(nope.stderr).toContain('No source "ctx_nope"');
    const known = JSON.parse(runCli(["stats", "--json", "--source", cap.sourceId], { env: e }).stdout);
    expect(known.totals.captures).toBe(1);
  });

  test("--limit keeps to the range its help gives", () => {
    const e = env();
    runCli(["capture", "--tool", "bash", "--force"], { env: e, stdin: noisyLog(50, 3) });
    const big = runCli(["search", "event", "--limit", "500"], { env: e });
    expect(big.code).toBe(2);
    expect(big.stderr).toContain("--limit takes a whole number from 1 to 50");
    expect(runCli(["search", "event", "--limit", "50"], { env: e }).code).toBe(0);
  });

  test("servers --json is JSON", () => {
    const r = runCli(["servers", "--json"], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ servers: [], unapproved: [], problems: [] });
  });

  test("stats prints the saving against the baseline, stored beside, the same numbers as --json", () => {
    const e = env();
    runCli(["capture", "--tool", "bash", "--force"], { env: e, stdin: noisyLog(600, 4) });
    const j = JSON.parse(runCli(["stats", "--json"], { env: e }).stdout);
    const text = runCli(["stats"], { env: e }).stdout;
    expect(text).toContain("Net saved = baseline (what the host would have sent) - receipts - retrieved");
    const all = text.split("\n").find((l) => l.trimStart().startsWith("all "))!;
    const n = (k: string) => j.totals[k].toLocaleString("en-US");
    expect(all.trim().split(/\s+/)).toEqual([
      "all",
      n("captures"),
      n("baselineTokens"),
      n("receiptTokens"),
      n("retrievedTokens"),
      n("netSavedTokens"),
      n("storedTokens"),
    ]);
    expect(text).toContain("Baselines: uncut: the whole output (the caller's limit is not known) for 1 output.");
  });
});
