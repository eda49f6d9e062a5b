/**
 * Whether two binaries build the same code index of a repository: each runs `kota index` cold into
 * a fresh database (scratch HOME), then every code_* table is compared row by row (ids included;
 * code_repos without its timestamp), and the search index by its content: every (word, file) pair
 * FTS5 holds (an fts5vocab table), not how its segments happen to be laid out.
 * Prints per table the rows and whether they match; exits 1 on any difference.
 * Run: bun bench/kota/index-same.ts REPO --a OLD_BINARY --b NEW_BINARY
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { sha256 } from "../../src/hash.ts";

const arg = (name: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) throw new Error(`--${name} is required: bun bench/kota/index-same.ts REPO --a BIN --b BIN`);
  return process.argv[i + 1]!;
};

const TABLES: Record<string, string> = {
  code_repos: "SELECT id, root, generation, needs_resolve, indexed_at IS NOT NULL FROM code_repos ORDER BY id",
  code_files: "SELECT * FROM code_files ORDER BY id",
  code_watch: "SELECT * FROM code_watch ORDER BY repo_id, path",
  code_symbols: "SELECT * FROM code_symbols ORDER BY id",
  code_imports: "SELECT * FROM code_imports ORDER BY id",
  code_exports: "SELECT rowid, * FROM code_exports ORDER BY rowid",
  code_refs: "SELECT rowid, * FROM code_refs ORDER BY rowid",
  "code_text (word, file)": "SELECT term, doc FROM temp.kota_same_words ORDER BY term, doc",
};

/** Each table: its row count and a hash of its rows in order. */
export function indexDigest(dbPath: string): Record<string, { rows: number; hash: string }> {
  const db = new Database(dbPath, { readonly: false });
  try {
    db.exec("CREATE VIRTUAL TABLE temp.kota_same_words USING fts5vocab(main, code_text, instance)");
    const out: Record<string, { rows: number; hash: string }> = {};
    for (const [name, sql] of Object.entries(TABLES)) {
      const rows = db.query(sql).values();
      out[name] = { rows: rows.length, hash: sha256(JSON.stringify(rows)) };
    }
    return out;
  } finally {
    db.close();
  }
}

function indexWith(binary: string, repo: string, dir: string): string {
  const db = join(dir, "s.db");
  const r = Bun.spawnSync([binary, "kota", "index", "--repo", repo, "--db", db, "--json"], {
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: join(dir, "home"), PI_CODING_AGENT_DIR: join(dir, "home"), TMPDIR: dir },
  });
  if (r.exitCode !== 0) throw new Error(`kota index failed: ${r.stderr.toString().slice(-500)}`);
  return db;
}

if (import.meta.main) {
  const repo = resolve(process.argv[2] ?? ".");
  const dirs = [mkdtempSync(join(tmpdir(), "kota-same-a-")), mkdtempSync(join(tmpdir(), "kota-same-b-"))];
  try {
    const a = indexDigest(indexWith(resolve(arg("a")), repo, dirs[0]!));
    const b = indexDigest(indexWith(resolve(arg("b")), repo, dirs[1]!));
    let same = true;
    for (const name of Object.keys(TABLES)) {
      const ok = a[name]!.rows === b[name]!.rows && a[name]!.hash === b[name]!.hash;
      same &&= ok;
      console.log(
        `${name.padEnd(22)} ${String(a[name]!.rows).padStart(7)} | ${String(b[name]!.rows).padStart(7)} rows  ${ok ? "same" : "DIFFERENT"}`,
      );
    }
    console.log(`${repo}: ${same ? "the same index" : "the indexes differ"}`);
    process.exitCode = same ? 0 : 1;
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
