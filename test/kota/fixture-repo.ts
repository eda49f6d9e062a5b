/** Small repositories written into temp folders, and a built-in index over each on a real SQLite file. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import schemaSql from "../../src/db/migrations/004-code-index.sql" with { type: "text" };
import { openDatabase } from "../../src/db/open.ts";
import { createBuiltinIndex } from "../../src/kota/builtin/backend.ts";
import { createParsePool, type ParsePool } from "../../src/kota/builtin/parse/parse-pool.ts";
import type { CodeIndexBackend } from "../../src/kota/contract.ts";

// Own temp folders: test/helpers.ts pulls in the whole engine, which these tests do not need.
const dirs: string[] = [];

export function tempDir(prefix = "kota-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

// One set of parser processes for the indexes a test file opens (as the service shares one).
let parser: ParsePool | null = null;
const sharedParser = (): ParsePool => (parser ??= createParsePool());

export function cleanupTempDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  void parser?.close();
  parser = null;
}

export function writeRepo(files: Record<string, string>, root = tempDir("kota-repo-")): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

export type TestIndex = { kota: CodeIndexBackend; root: string; dbPath: string; db: ReturnType<typeof openDatabase> };

/** freshnessMs 0: every query checks the disk, so tests see their own edits at once. */
export function openIndex(root: string, dbPath = join(tempDir("kota-db-"), "sidecar.db")): TestIndex {
  const db = openDatabase(dbPath, { migrations: [schemaSql] });
  return { kota: createBuiltinIndex({ db, root, freshnessMs: 0, parser: sharedParser() }), root, dbPath, db };
}

/** Fails the test with the backend's own message when a call returns a failure. */
export function ok<T>(r: ({ ok: true } & T) | { ok: false; code: string; message: string }): T {
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r;
}

/** Runs git in a fixture repository with a throwaway identity; fails the test with git's own message. */
export function git(root: string, ...args: string[]): void {
  const r = Bun.spawnSync(["git", "-c", "user.email=t@t", "-c", "user.name=t", ...args], {
    cwd: root,
    stderr: "pipe",
    env: { ...process.env, HOME: root },
  });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
}

/** A git work tree of `files` (one commit), indexed cold into a fresh database. */
export async function indexedRepo(files: Record<string, string>): Promise<TestIndex> {
  const root = writeRepo(files);
  git(root, "init", "-q");
  git(root, "add", "-A");
  git(root, "commit", "-qm", "fixture");
  const t = openIndex(root);
  ok(await t.kota.index());
  return t;
}
