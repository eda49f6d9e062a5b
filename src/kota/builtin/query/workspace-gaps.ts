/**
 * Imports that name a package of this repository but resolve to no file (code_imports.status 4):
 * the files holding them import something the index cannot follow, so uses and dependents through
 * them are missing. Answers that could be short because of them say so.
 */
import type { QueryEnv } from "./env.ts";

export type WorkspaceGaps = { files: number; specifiers: string[] };

const SHOWN = 5;

/** How many files hold such imports and the first few specifiers (sorted), or null when there are none. */
export function workspaceGaps(env: QueryEnv): WorkspaceGaps | null {
  const row = env.db
    .query<{ files: number }, [number]>(
      `SELECT COUNT(DISTINCT i.file_id) AS files FROM code_imports i JOIN code_files f ON f.id = i.file_id
       WHERE f.repo_id = ? AND i.status = 4`,
    )
    .get(env.repoId);
  if (!row || row.files === 0) return null;
  const specifiers = env.db
    .query<{ specifier: string }, [number, number]>(
      `SELECT DISTINCT i.specifier FROM code_imports i JOIN code_files f ON f.id = i.file_id
       WHERE f.repo_id = ? AND i.status = 4 ORDER BY i.specifier LIMIT ?`,
    )
    .all(env.repoId, SHOWN + 1)
    .map((r) => r.specifier);
  return { files: row.files, specifiers };
}

/** One sentence for an answer that may be short because of the gaps. */
export function gapsSentence(g: WorkspaceGaps, what: string): string {
  const list = g.specifiers.slice(0, SHOWN).join(", ") + (g.specifiers.length > SHOWN ? ", ..." : "");
  return (
    `${g.files} file(s) import packages of this repository that did not resolve (${list}): ${what} through them are not counted ` +
    "(kota deps on such a file lists them)."
  );
}
