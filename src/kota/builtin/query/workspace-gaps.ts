/**
 * Imports that name a package of this repository but resolve to no file (code_imports.status 4):
 * the files holding them import something the index cannot follow, so uses and dependents through
 * them are missing. Answers that could be short because of them say so.
 */
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { QueryEnv } from "./env.ts";

export type WorkspaceGaps = { files: number; specifiers: string[] };

const SHOWN = 5;

/**
 * The imports of the repository's files that name a package of it but did not resolve. A CROSS JOIN
 * makes SQLite read code_imports once, in order, and look each such row's file up: joined the other
 * way it probed code_imports' file index once for every file of the repository and read every
 * import row at random to test its status (a generated index of 30k files and 300k imports, load
 * 5-7: 75-190 ms a query, against 13-15 ms), and usages and impact ask on every call.
 */
const GAP_ROWS = "code_imports i CROSS JOIN code_files f ON f.id = i.file_id WHERE f.repo_id = ? AND i.status = 4";

/** How many files hold such imports and the first few specifiers (sorted), or null when there are none. */
export function workspaceGaps(env: QueryEnv): WorkspaceGaps | null {
  const row = env.db.query<{ files: number }, [number]>(`SELECT COUNT(DISTINCT i.file_id) AS files FROM ${GAP_ROWS}`).get(env.repoId);
  if (!row || row.files === 0) return null;
  const specifiers = env.db
    .query<{ specifier: string }, [number, number]>(`SELECT DISTINCT i.specifier FROM ${GAP_ROWS} ORDER BY i.specifier LIMIT ?`)
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

/** The workspace package a file belongs to: the nearest package.json above it that has a name. */
function packageNameOf(env: QueryEnv, path: string): string | null {
  const has = env.db.prepare<{ x: number }, [number, string]>(
    "SELECT 1 AS x FROM code_watch WHERE repo_id = ? AND path = ? AND is_dir = 0",
  );
  for (let dir = posix.dirname(path); ; dir = posix.dirname(dir)) {
    const manifest = dir === "." ? "package.json" : `${dir}/package.json`;
    if (has.get(env.repoId, manifest)) {
      try {
        const name = (JSON.parse(readFileSync(join(env.root, manifest), "utf8")) as { name?: unknown }).name;
        if (typeof name === "string" && name) return name;
      } catch {
        // An unreadable manifest names no package: look further up.
      }
    }
    if (dir === ".") return null;
  }
}

/**
 * The files importing the package that `path` belongs to by a specifier that did not resolve: the
 * file's dependents may be among them. Null when there are none.
 */
export function unresolvedImporters(env: QueryEnv, path: string): { name: string; files: number } | null {
  const any = env.db.query<{ x: number }, [number]>(`SELECT 1 AS x FROM ${GAP_ROWS} LIMIT 1`).get(env.repoId);
  if (!any) return null;
  const name = packageNameOf(env, path);
  if (name === null) return null;
  const row = env.db
    .query<{ files: number }, [number, string, string, string]>(
      `SELECT COUNT(DISTINCT i.file_id) AS files FROM ${GAP_ROWS}
       AND (i.specifier = ? OR substr(i.specifier, 1, length(?) + 1) = ? || '/')`,
    )
    .get(env.repoId, name, name, name);
  return row && row.files > 0 ? { name, files: row.files } : null;
}
