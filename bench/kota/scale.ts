/**
 * A repository of 50,000 small generated files: index time, progress, peak RSS (bounded memory),
 * a cancel part way and a resume that loses nothing. Runs in a child process for its own peak RSS.
 * Run: bun bench/kota/scale.ts [--files N]
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import schemaSql from "../../src/db/migrations/004-code-index.sql" with { type: "text" };
import { openDatabase } from "../../src/db/open.ts";
import { createBuiltinIndex } from "../../src/kota/builtin/backend.ts";
import { peakRssMb } from "../peak-rss.ts";
import { checkpointedSize } from "../temp.ts";

const PER_DIR = 100;

/** Files in folders of 100, each importing its predecessor and a shared module. */
function generate(root: string, files: number): void {
  writeFileSync(join(root, "shared.ts"), "export const shared = (n: number) => n + 1\n");
  for (let i = 0; i < files - 1; i++) {
    const dir = join(root, `pkg${Math.floor(i / PER_DIR)}`);
    if (i % PER_DIR === 0) mkdirSync(dir);
    const n = i % PER_DIR;
    const prev = n === 0 ? "" : `import { f${i - 1} } from "./m${n - 1}";\n`;
    writeFileSync(join(dir, `m${n}.ts`), `import { shared } from "../shared";\n${prev}export function f${i}() { return shared(${i}) }\n`);
  }
}

export type ScaleResult = {
  files: number;
  generateMs: number;
  cancel: { atFiles: number; keptFiles: number; ms: number };
  resume: { ms: number; files: number; symbols: number; progressEvents: number };
  usagesOfSharedMs: number;
  usagesOfShared: number;
  peakRssMb: number;
  dbBytes: number;
};

export async function measureScale(files = 50_000): Promise<ScaleResult> {
  const root = mkdtempSync(join(tmpdir(), "kota-scale-"));
  const dbDir = mkdtempSync(join(tmpdir(), "kota-scale-db-"));
  const dbPath = join(dbDir, "scale.db");
  try {
    let t = performance.now();
    generate(root, files);
    const generateMs = performance.now() - t;
    const db = openDatabase(dbPath, { migrations: [schemaSql] });
    const kota = createBuiltinIndex({ db, root });
    // Cancel once a fifth is done.
    const controller = new AbortController();
    t = performance.now();
    const first = await kota.index({ signal: controller.signal, onProgress: (done, total) => done >= total / 5 && controller.abort() });
    const cancelMs = performance.now() - t;
    if (first.ok) throw new Error("the cancelled run finished anyway");
    const kept = (db.query("SELECT count(*) AS n FROM code_files").get() as { n: number }).n;
    let events = 0;
    t = performance.now();
    const resumed = await kota.index({ onProgress: () => events++ });
    const resumeMs = performance.now() - t;
    if (!resumed.ok) throw new Error(resumed.message);
    t = performance.now();
    const usages = await kota.usages({ symbol: "shared", file: "shared.ts" });
    const usagesMs = performance.now() - t;
    if (!usages.ok) throw new Error(usages.message);
    await kota.close();
    const dbBytes = checkpointedSize(db, dbPath);
    db.close();
    return {
      files,
      generateMs: Math.round(generateMs),
      cancel: { atFiles: Math.round(files / 5), keptFiles: kept, ms: Math.round(cancelMs) },
      resume: { ms: Math.round(resumeMs), files: resumed.files, symbols: resumed.symbols, progressEvents: events },
      usagesOfSharedMs: Math.round(usagesMs),
      usagesOfShared: usages.usages.length,
      peakRssMb: peakRssMb(),
      dbBytes,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(dbDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const i = process.argv.indexOf("--files");
  console.log(JSON.stringify(await measureScale(i === -1 ? undefined : Number(process.argv[i + 1])), null, 2));
}
