/**
 * The repository's rule for test files (kota/test-files.ts), from the config files the index
 * watches: kept while those files are unchanged, read again when one changes. Applied when a file
 * is written, and to every file when a config changed.
 */
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { Db } from "../../db/open.ts";
import { projectTestMatcher, TEST_CONFIG, type TestMatcher } from "../test-files.ts";

export type TestRule = { key: string; match: TestMatcher };

const readText = (root: string, path: string): string | null => {
  try {
    return readFileSync(join(root, path), "utf8");
  } catch {
    return null;
  }
};

/** The rule for these config files (path -> mtime), reusing `cached` when they are the same. */
export function testRule(root: string, configs: ReadonlyMap<string, number>, cached: TestRule | null): TestRule {
  const relevant = [...configs].filter(([p]) => posix.basename(p) === "package.json" || TEST_CONFIG.test(posix.basename(p))).sort();
  const key = relevant.map(([p, m]) => `${p}:${m}`).join("\n");
  if (cached?.key === key) return cached;
  return { key, match: projectTestMatcher(relevant.map(([path]) => ({ path, text: readText(root, path) }))) };
}

/** Marks every file of the repository by the rule (after a config changed); returns how many changed. */
export function applyTestRule(db: Db, repoId: number, rule: TestRule): number {
  const rows = db
    .query<{ id: number; path: string; is_test: number }, [number]>("SELECT id, path, is_test FROM code_files WHERE repo_id = ?")
    .all(repoId);
  const update = db.prepare("UPDATE code_files SET is_test = ? WHERE id = ?");
  let n = 0;
  for (const r of rows) {
    const t = rule.match(r.path) ? 1 : 0;
    if (t !== r.is_test) {
      update.run(t, r.id);
      n++;
    }
  }
  return n;
}
