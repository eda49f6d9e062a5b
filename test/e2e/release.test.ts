/**
 * `npm run release`'s parts on real cross-compiles: the linux-arm64 binary run under Debian's
 * qemu-user-static (when it and the arm64 C library are installed), and a darwin-x64 binary whose
 * code signature must match every page. The Bun runtimes and oxc bindings come from the npm
 * registry into the release cache (scripts/release-fetch.ts) the first time.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { adHocSign, checkMachOSignature } from "../../scripts/macho-signature.ts";
import { releaseBinary, releaseFile, TARGETS, writeChecksums } from "../../scripts/release.ts";
import { fetchPackage } from "../../scripts/release-fetch.ts";
import { cleanupTempDirs, noisyLog, ROOT, tempDir } from "../helpers.ts";

const ARM64_LIBC = "/usr/aarch64-linux-gnu";
const QEMU = Bun.which("qemu-aarch64-static") !== null && existsSync(join(ARM64_LIBC, "lib", "ld-linux-aarch64.so.1"));
const FILE = Bun.which("file") !== null;

function run(cmd: string[], env: Record<string, string> = {}, stdin?: string, cwd?: string) {
  const r = Bun.spawnSync(cmd, {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdin: stdin === undefined ? "ignore" : Buffer.from(stdin),
    stdout: "pipe",
    stderr: "pipe",
    cwd,
    timeout: 300_000,
  });
  return { code: r.exitCode ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

beforeAll(async () => {
  // The binaries embed the extension's files: build them when the test runs alone.
  if (!existsSync(join(ROOT, "dist", "extension", "sidecar.cjs.txt"))) await (await import("../../build.ts")).buildExtension();
}, 300_000);
afterAll(cleanupTempDirs);

describe.skipIf(!QEMU)("linux-arm64 under qemu", () => {
  test("answers --version, capture and search, and parses TypeScript with its own arm64 parser binding", async () => {
    const out = tempDir("release-arm64-");
    const bin = await releaseBinary("linux-arm64", out);
    expect(bin).toBe(join(out, "pi-sidecar-linux-arm64"));
    if (FILE) expect(run(["file", "-b", bin]).stdout).toContain("ARM aarch64");
    const arm = (args: string[], stdin?: string, cwd?: string) =>
      run(["qemu-aarch64-static", "-L", ARM64_LIBC, bin, ...args], { HOME: home }, stdin, cwd);
    const home = tempDir();
    expect(arm(["--version"]).stdout).toBe(`pi-sidecar ${(await Bun.file(join(ROOT, "package.json")).json()).version}\n`);
    const uuid = crypto.randomUUID();
    const cap = arm(["capture", "--tool", "bash", "--json"], noisyLog(1400, 5, { line: 900, text: `x ARM=${uuid} y` }));
    expect(cap.code).toBe(0);
    const hit = JSON.parse(arm(["search", `ARM=${uuid}`, "--json"]).stdout).hits[0];
    expect(hit).toMatchObject({ sourceId: JSON.parse(cap.stdout).sourceId });
    expect(hit.text).toContain(`900: x ARM=${uuid} y`);
    const repo = tempDir("arm-repo-");
    await Bun.write(join(repo, "package.json"), '{"name":"r"}\n');
    await Bun.write(join(repo, "src/a.ts"), "export function helper(n: number): number {\n  return n + 1;\n}\n");
    await Bun.write(join(repo, "src/b.ts"), 'import { helper } from "./a";\nexport const x = helper(2);\n');
    expect(arm(["kota", "index"], undefined, repo).code).toBe(0);
    const usages = JSON.parse(arm(["kota", "usages", "helper", "--json"], undefined, repo).stdout);
    expect(usages.usages.map((u: { file: string; line: number }) => `${u.file}:${u.line}`)).toContain("src/b.ts:2");
  }, 600_000);
});

describe("darwin", () => {
  test("the checker accepts Apple's own signature on Bun's runtime and rejects one changed byte", () => {
    const runtime = join(fetchPackage(TARGETS["darwin-x64"].runtime, Bun.version), "bin", "bun");
    expect(checkMachOSignature(runtime)).toMatchObject({ ok: true });
    const copy = join(tempDir("macho-"), "bun");
    copyFileSync(runtime, copy);
    const fd = openSync(copy, "r+");
    writeSync(fd, Buffer.from([0x5a]), 0, 1, 40_000_000);
    expect(checkMachOSignature(copy)).toMatchObject({ ok: false, problem: expect.stringContaining("does not match") });
    adHocSign(copy); // what the release does to a binary whose signature no longer fits
    expect(checkMachOSignature(copy)).toMatchObject({ ok: true });
  }, 300_000);

  test("a darwin-x64 release binary is signed so that every page matches (macOS kills it otherwise)", async () => {
    const out = tempDir("release-darwin-");
    const bin = await releaseBinary("darwin-x64", out);
    expect(bin).toBe(join(out, releaseFile("darwin-x64")));
    expect(checkMachOSignature(bin)).toMatchObject({ ok: true });
    if (FILE) expect(run(["file", "-b", bin]).stdout).toContain("Mach-O 64-bit x86_64 executable");
    const sums = await writeChecksums([bin], out);
    const hash = new Bun.CryptoHasher("sha256").update(await Bun.file(bin).arrayBuffer()).digest("hex");
    expect(await Bun.file(sums).text()).toBe(`${hash}  pi-sidecar-darwin-x64\n`);
    if (Bun.which("sha256sum"))
      expect(run(["sha256sum", "-c", "SHA256SUMS"], {}, undefined, out).stdout).toBe("pi-sidecar-darwin-x64: OK\n");
  }, 600_000);
});
