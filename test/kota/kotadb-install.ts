/**
 * The real KotaDB for tests and benchmarks: the vendored snapshot (shared/vendor) unpacked under
 * .bench/kotadb/ and installed from the registry once (`bun install --production`, after removing
 * its out-of-date bun.lock); later runs reuse it. Null, with the reason, when the tarball is absent.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sharedDir } from "../../bench/kota/corpora.ts";

const ROOT = join(import.meta.dir, "../..");
export const VENDOR_DIR = join(sharedDir(ROOT), "vendor");
const CACHE = join(ROOT, ".bench/kotadb");

export type KotaDbInstall = { cli: string; dir: string } | { skip: string };

export function installKotaDb(vendor = VENDOR_DIR): KotaDbInstall {
  let tarball: string | undefined;
  try {
    tarball = readdirSync(vendor).find((f) => /^kotadb-.*\.tar\.gz$/.test(f));
  } catch {
    tarball = undefined;
  }
  if (!tarball) return { skip: `no kotadb-*.tar.gz in ${vendor}: the KotaDB tests need the vendored snapshot` };
  const dir = join(CACHE, "kotadb");
  const marker = join(dir, `.installed-${tarball}`);
  const cli = join(dir, "src/cli.ts");
  if (existsSync(marker) && existsSync(cli)) return { cli, dir };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(CACHE, { recursive: true });
  const untar = Bun.spawnSync(["tar", "xzf", join(vendor, tarball), "-C", CACHE], { stderr: "pipe" });
  if (untar.exitCode !== 0) throw new Error(`tar xzf ${tarball}: ${untar.stderr.toString()}`);
  rmSync(join(dir, "bun.lock"), { force: true });
  const install = Bun.spawnSync([process.execPath, "install", "--production"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (install.exitCode !== 0) throw new Error(`bun install --production in ${dir} failed: ${install.stderr.toString().slice(-2000)}`);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  return { cli, dir };
}
