import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
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

  // dist/pi-sidecar is built by `bun build.ts` (the hostile and CLI suites use it too).
  const BIN = join(ROOT, "dist/pi-sidecar");
  test.skipIf(!existsSync(BIN))(
    "the binary starts itself as its parser: not the sources it was built from, nor a pi-sidecar on PATH",
    () => {
      const dir = tempDir("kota-bin-");
      const log = join(dir, "argv.log");
      // Every helper goes through this wrapper, which writes down the command it was given.
      writeFileSync(join(dir, "wrap.sh"), `printf '%s\\n' "$*" >> ${log}\nexec "$@"\n`);
      const repo = writeRepo({
        "src/a.ts": 'import { b } from "./b";\nexport const a = b();\n',
        "src/b.ts": "export const b = () => 1;\n",
      });
      const run = Bun.spawnSync([BIN, "kota", "index", "--repo", repo, "--db", join(dir, "s.db"), "--json"], {
        cwd: dir,
        stdout: "pipe",
        stderr: "pipe",
        env: {
          PATH: "/usr/bin:/bin",
          HOME: dir,
          PI_CODING_AGENT_DIR: dir,
          TMPDIR: dir,
          PI_SIDECAR_HELPER_WRAPPER: `/bin/sh ${join(dir, "wrap.sh")}`,
        },
      });
      expect(run.stderr.toString()).toBe("");
      expect(JSON.parse(run.stdout.toString())).toMatchObject({ files: 2 });
      expect(readFileSync(log, "utf8").trim().split("\n")).toEqual([BIN]);
    },
    60_000,
  );
});
