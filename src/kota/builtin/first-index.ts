/**
 * A first index into a database that does not exist yet. Creating the database is tens of ms spent
 * waiting on the disk (each step of its creation syncs), listing the files tens more, and meanwhile
 * the parser, started already, had nothing to do. So the files are listed and the first batches
 * sent to the parser before the database is created; the index run then takes that listing and
 * those answers instead of listing and sending them again. The same files, parsed once.
 */
import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileView, type ScanResult, scanRepository } from "./files/scan.ts";
import { AHEAD_BATCHES, batchBounds } from "./indexer.ts";
import type { ParseOutcome, ParsePool } from "./parse/parse-pool.ts";

/** `parsed`: the outcome of each file sent ahead, by its path in the repository. */
export type FirstIndexStart = { root: string; scan: ScanResult; parsed: Map<string, Promise<ParseOutcome>> };

/** The repository root as the index stores it: absolute, symbolic links resolved. */
export function realRoot(root: string): string {
  const abs = resolve(root);
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

/** Lists the repository's files and sends the batches the index run would send first (null: stopped while listing). */
export function startFirstIndex(
  root: string,
  sensitive: readonly string[],
  parser: ParsePool,
  shouldStop: () => boolean = () => false,
): FirstIndexStart | null {
  const real = realRoot(root);
  const scan = scanRepository(real, fileView(real, sensitive), shouldStop);
  if (!scan) return null;
  const parsed = new Map<string, Promise<ParseOutcome>>();
  for (const [from, to] of batchBounds(scan.sources.length).slice(0, AHEAD_BATCHES)) {
    const files = scan.sources.slice(from, to);
    const batch = parser.parse(files.map((f) => ({ path: f.path, file: join(real, f.path), size: f.size })));
    files.forEach((f, i) => {
      const one = batch.then((outcomes) => outcomes[i]!);
      one.catch(() => undefined); // awaited by the index run, or dropped when it does not take them
      parsed.set(f.path, one);
    });
  }
  return { root: real, scan, parsed };
}
