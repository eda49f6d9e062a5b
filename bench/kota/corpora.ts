/** The real repositories in shared/corpora, unpacked into a temp folder for one run (data only). */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CORPORA_DIR = join(import.meta.dir, "../../../shared/corpora");

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
