import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cleanupTempDirs, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const ROOT = join(import.meta.dir, "../..");

describe("kota builtin inside a compiled binary", () => {
  test("bun build --compile embeds the native parser: the binary indexes a repo from another folder", () => {
    const out = join(tempDir("kota-bin-"), "kota-smoke");
    const build = Bun.spawnSync([process.execPath, "build", "--compile", join(ROOT, "src/kota/builtin/smoke-entry.ts"), "--outfile", out], {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(build.stderr.toString()).not.toContain("error");
    expect(build.exitCode).toBe(0);
    const repo = writeRepo({
      "src/a.ts": 'import { b } from "./b";\nexport const a = b() + 1;\n',
      "src/b.ts": "export function b() { return 1 }\n",
    });
    // Run from an empty folder with no node_modules anywhere above it.
    const run = Bun.spawnSync([out, repo, "b"], {
      cwd: tempDir("kota-cwd-"),
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: "/usr/bin:/bin" },
    });
    expect(run.stderr.toString()).toBe("");
    const printed = JSON.parse(run.stdout.toString());
    expect(printed.index).toMatchObject({ ok: true, files: 2, symbols: 2 });
    expect(printed.usages.usages.map((u: { file: string; line: number; kind: string }) => `${u.file}:${u.line}:${u.kind}`)).toEqual([
      "src/a.ts:1:import",
      "src/a.ts:2:call",
    ]);
  }, 60_000);
});
