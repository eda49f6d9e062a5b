/** The real repositories in shared/corpora, unpacked into a temp folder for one run (data only). */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The `shared/` folder beside the checkout (or beside the folder of worktrees it sits in). */
export function sharedDir(from = join(import.meta.dir, "../..")): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "shared"))) return join(dir, "shared");
    if (dirname(dir) === dir) return join(dirname(from), "shared");
  }
}

export const CORPORA_DIR = join(sharedDir(), "corpora");

export type Corpus = { name: "hono" | "vite"; root: string; remove(): void };

/** Unpacks `hono-*.tar.gz` or `vite-*.tar.gz`; fails with the folder it looked in when the tarball is missing. */
export function unpackCorpus(name: "hono" | "vite", dir = CORPORA_DIR): Corpus {
  let tarball: string | undefined;
  try {
    tarball = readdirSync(dir).find((f) => f.startsWith(`${name}-`) && f.endsWith(".tar.gz"));
  } catch {
    tarball = undefined;
  }
  if (!tarball) throw new Error(`no ${name}-*.tar.gz in ${dir}; the kota benchmarks need shared/corpora beside the repository`);
  const parent = mkdtempSync(join(tmpdir(), `kota-${name}-`));
  const untar = Bun.spawnSync(["tar", "xzf", join(dir, tarball), "-C", parent], { stderr: "pipe" });
  if (untar.exitCode !== 0) throw new Error(`tar xzf ${tarball} failed: ${untar.stderr.toString()}`);
  return { name, root: join(parent, name), remove: () => rmSync(parent, { recursive: true, force: true }) };
}
