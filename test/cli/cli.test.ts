import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, noisyLog, runCli, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

function env() {
  const home = tempDir();
  return { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
}

describe("CLI (bun src/main.ts)", () => {
  test("--version, --help, help COMMAND", () => {
    expect(runCli(["--version"]).stdout).toMatch(/^pi-sidecar \d+\.\d+\.\d+\n$/);
    const help = runCli(["--help"]);
    expect(help.code).toBe(0);
    for (const c of ["capture", "search", "get", "list", "stats", "purge", "export"]) expect(help.stdout).toContain(c);
    for (const c of ["capture", "search", "get", "list", "stats", "purge", "export"]) {
      const r = runCli([c, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: pi-sidecar ${c}`);
    }
  });

  test("usage errors exit 2 with a message on stderr", () => {
    const e = env();
    for (const args of [
      ["frobnicate"],
      ["capture"],
      ["search"],
      ["get"],
      ["get", "x", "--lines", "9-2"],
      ["purge"],
      ["search", "x", "--limit", "zero"],
      ["list", "--nope"],
      ["export", "ctx_a"],
    ]) {
      const r = runCli(args, { env: e, stdin: "" });
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toStartWith("pi-sidecar: ");
      expect(r.stdout).toBe("");
    }
  });

  test("capture passes small output through byte for byte, on the default database path", () => {
    const e = env();
    const bytes = new Uint8Array([104, 105, 10, 0xff, 0xfe, 10]); // includes invalid UTF-8
    const r = runCli(["capture", "--tool", "bash"], { env: e, stdin: bytes });
    expect(r.code).toBe(0);
    expect(Buffer.from(r.stdoutBytes).equals(Buffer.from(bytes))).toBe(true);
    const json = JSON.parse(runCli(["--json", "capture", "--tool", "bash"], { env: e, stdin: "small\n" }).stdout);
    expect(json).toMatchObject({ stored: false, sourceId: null, bytes: 6, lines: 1, chunks: 0, receipt: null });
  });

  test("capture -> search -> get -> list -> stats -> export -> purge, as a script would", () => {
    const e = env();
    const uuid = crypto.randomUUID();
    const log = noisyLog(1400, 99, { line: 1234, text: `noise TARGET_VALUE=${uuid} noise` });
    const cap = runCli(["--json", "capture", "--tool", "bash", "--session", "s1"], { env: e, stdin: log });
    expect(cap.code).toBe(0);
    const stored = JSON.parse(cap.stdout);
    expect(Object.keys(stored)).toEqual(expect.arrayContaining(["stored", "sourceId", "bytes", "lines", "chunks", "receipt"]));
    expect(stored).toMatchObject({ stored: true, bytes: Buffer.byteLength(log), lines: 1400 });
    expect(existsSync(join(e.PI_CODING_AGENT_DIR, "sidecar.db"))).toBe(true);
    const id: string = stored.sourceId;

    const found = JSON.parse(runCli(["search", "TARGET_VALUE", "--json"], { env: e }).stdout);
    expect(found.hits[0]).toMatchObject({
      sourceId: id,
      chunk: expect.any(Number),
      lineStart: expect.any(Number),
      lineEnd: expect.any(Number),
      score: expect.any(Number),
    });
    expect(found.hits[0].text).toContain(`1234: noise TARGET_VALUE=${uuid}`);
    expect(runCli(["search", "TARGET_VALUE", "--source", id, "--tool", "bash", "--limit", "1"], { env: e }).stdout).toContain(uuid);

    const got = runCli(["get", id, "--lines", "1234-1234"], { env: e });
    expect(got.stdout).toBe(`noise TARGET_VALUE=${uuid} noise\n`);
    expect(runCli(["get", id, "--chunk", "1", "--json"], { env: e }).stdout).toContain('"chunk": 1');

    expect(runCli(["list"], { env: e }).stdout).toContain(id);
    const stats = JSON.parse(runCli(["stats", "--json"], { env: e }).stdout);
    expect(stats.totals.captures).toBe(1);
    expect(stats.totals.retrievedTokens).toBeGreaterThan(0);
    expect(runCli(["stats"], { env: e }).stdout).toContain("net saved");

    const out = join(tempDir(), "export.txt");
    expect(runCli(["export", id, "--out", out], { env: e }).code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(log);
    expect(runCli(["export", id, "--out", out], { env: e }).code).toBe(1);
    // A full disk: one line that says what happened, no stack, and the existing file untouched.
    const full = runCli(["export", id, "--out", "/dev/full", "--force"], { env: e });
    expect(full.code).toBe(1);
    expect(full.stderr).toContain("the disk is full");
    expect(full.stderr).not.toContain("    at ");
    const blocked = join(tempDir(), "missing-folder", "x.txt");
    const nowhere = runCli(["export", id, "--out", blocked], { env: e });
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain("choose another place");
    expect(existsSync(blocked)).toBe(false);

    const purged = runCli(["purge", "--source", id], { env: e });
    expect(purged.stdout).toContain("Purged 1 source");
    const gone = runCli(["get", id], { env: e });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`No source "${id}"`);
  });

  test("one of a thing is said in the singular: stats after one small capture", () => {
    const db = join(tempDir(), "one.db");
    expect(runCli(["--db", db, "capture", "--tool", "bash", "--force"], { stdin: "one line of output\n" }).code).toBe(0);
    const out = runCli(["--db", db, "stats"]).stdout;
    expect(out).toContain("1 distinct text, ");
    expect(out).toContain("in 1 chunk.");
    expect(out).not.toMatch(/\b1 (distinct texts|chunks|captures|sessions|sources)\b/);
  });

  test("a search query that looks like an option is searched for, as it is or after --", () => {
    const e = env();
    const css = `${noisyLog(400, 5)}\n:root{--primary-color:#336699;--gap:4px}\nbuild -Wall -Wextra ok\n`;
    const id = JSON.parse(runCli(["--json", "capture", "--tool", "bash", "--force"], { env: e, stdin: css }).stdout).sourceId;
    for (const args of [
      ["search", "--primary-color"],
      ["search", "--primary-color", "--source", id, "--limit", "1"],
      ["search", "--source", id, "--", "--primary-color"],
      ["search", `--source=${id}`, "--primary-color", "--json"],
    ]) {
      const r = runCli(args, { env: e });
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: "" });
      expect(r.stdout).toContain("--primary-color:#336699");
    }
    const wall = runCli(["search", "-Wall", "--source", id], { env: e });
    expect(wall.stdout).toContain('hit for "-Wall"');
    // An option still needs its value.
    expect(runCli(["search", "--limit"], { env: e }).code).toBe(2);
  });

  test("--db and PI_SIDECAR_DB choose the file; a corrupt file exits 1 with what to do", () => {
    const e = env();
    const dir = tempDir();
    const viaFlag = join(dir, "flag.db");
    runCli(["--db", viaFlag, "capture", "--tool", "t", "--force"], { env: e, stdin: "hello\n" });
    expect(existsSync(viaFlag)).toBe(true);
    const viaEnv = join(dir, "env.db");
    runCli(["capture", "--tool", "t", "--force"], { env: { ...e, PI_SIDECAR_DB: viaEnv }, stdin: "hello\n" });
    expect(existsSync(viaEnv)).toBe(true);
    const bad = join(dir, "bad.db");
    require("node:fs").writeFileSync(bad, "garbage".repeat(1000));
    const r = runCli(["--db", bad, "list"], { env: e });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(bad);
    expect(r.stderr).toContain("Move it aside");
  });

  test("config problems are reported on stderr and the command still works", () => {
    const e = env();
    require("node:fs").mkdirSync(e.PI_CODING_AGENT_DIR, { recursive: true });
    require("node:fs").writeFileSync(
      join(e.PI_CODING_AGENT_DIR, "pi-sidecar.json"),
      JSON.stringify({ capture: { thresholdLines: "many" } }),
    );
    const r = runCli(["capture", "--tool", "x"], { env: e, stdin: "ok\n" });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ok\n");
    expect(r.stderr).toContain('"capture.thresholdLines" must be a whole number');
  });
});
