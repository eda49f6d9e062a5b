/**
 * Imports that name a package of this repository but resolve to no file (code_imports.status 4):
 * the files holding them import something the index cannot follow, so uses and dependents through
 * them are missing. Answers that could be short because of them say so.
 */
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { levels } from "../graph.ts";
import type { QueryEnv } from "./env.ts";

/** Files holding unresolved workspace imports, the first few specifiers (sorted) and one such file. */
export type WorkspaceGaps = { files: number; specifiers: string[]; example: string };

const SHOWN = 5;

/**
 * The imports of the repository's files that name a package of it but did not resolve. A CROSS JOIN
 * makes SQLite read code_imports once, in order, and look each such row's file up: joined the other
 * way it probed code_imports' file index once for every file of the repository and read every
 * import row at random to test its status (a generated index of 30k files and 300k imports, load
 * 5-7: 75-190 ms a query, against 13-15 ms), and usages and impact ask on every call.
 */
const GAP_ROWS = "code_imports i CROSS JOIN code_files f ON f.id = i.file_id WHERE f.repo_id = ? AND i.status = 4";

/**
 * The gaps that can hide uses of what the files at `paths` define, or files they affect: unresolved
 * imports naming the package of one of those files or of any file that depends on them, however many
 * steps away (a package passes on what its files import, `export *` included). A gap elsewhere in
 * the repository hides nothing of theirs. Null when there is none.
 */
export function gapsReaching(env: QueryEnv, paths: readonly string[]): WorkspaceGaps | null {
  const rows = env.db.query<{ path: string; specifier: string }, [number]>(`SELECT f.path, i.specifier FROM ${GAP_ROWS}`).all(env.repoId);
  if (rows.length === 0) return null;
  const g = env.graph;
  const starts = paths.map((p) => g.indexOf.get(p)).filter((n): n is number => n !== undefined);
  const reached = [...starts, ...levels(g, starts, "in", g.paths.length).levels.flat()];
  const byDir = new Map<string, string | null>();
  const names = new Set<string>();
  for (const n of reached) {
    const name = packageNameOf(env, g.paths[n]!, byDir);
    if (name !== null) names.add(name);
  }
  const hiding = rows.filter((r) => {
    const name = gapPackage(env, r.path, r.specifier, byDir);
    return name !== null && names.has(name);
  });
  if (hiding.length === 0) return null;
  const files = [...new Set(hiding.map((r) => r.path))].sort();
  const specifiers = [...new Set(hiding.map((r) => r.specifier))].sort().slice(0, SHOWN + 1);
  return { files: files.length, specifiers, example: files[0]! };
}

/** The package a bare specifier names: its first segment, or its first two when scoped (`@s/p/sub` -> `@s/p`). */
function packageOfSpecifier(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/**
 * The package an unresolved workspace import of file `from` names: a bare specifier's package, or for
 * a relative one (a package's own build output that maps to no source, or its folder) the package of
 * the path it points at.
 */
function gapPackage(env: QueryEnv, from: string, specifier: string, byDir: Map<string, string | null>): string | null {
  if (!specifier.startsWith(".")) return packageOfSpecifier(specifier);
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  // The target may be the package's own folder (`from '..'`): its manifest is looked for there first.
  return target.startsWith("../") ? null : packageNameOf(env, posix.join(target, "package.json"), byDir);
}

/** One sentence for an answer that may be short because of the gaps. */
export function gapsSentence(g: WorkspaceGaps, what: string): string {
  const list = g.specifiers.slice(0, SHOWN).join(", ") + (g.specifiers.length > SHOWN ? ", ..." : "");
  return (
    `${g.files} file(s) import packages of this repository that did not resolve (${list}): ${what} through them are not counted ` +
    `(kota deps ${g.example} lists its unresolved imports).`
  );
}

/**
 * The workspace package a file belongs to: the nearest package.json above it that has a name. `byDir`
 * keeps each folder's answer between calls (a walk over thousands of files reads each manifest once).
 */
function packageNameOf(env: QueryEnv, path: string, byDir = new Map<string, string | null>()): string | null {
  const has = env.db.query<{ x: number }, [number, string]>("SELECT 1 AS x FROM code_watch WHERE repo_id = ? AND path = ? AND is_dir = 0");
  const walked: string[] = [];
  let name: string | null = null;
  for (let dir = posix.dirname(path); ; dir = posix.dirname(dir)) {
    const known = byDir.get(dir);
    if (known !== undefined) {
      name = known;
      break;
    }
    walked.push(dir);
    const manifest = dir === "." ? "package.json" : `${dir}/package.json`;
    if (has.get(env.repoId, manifest)) {
      try {
        const named = (JSON.parse(readFileSync(join(env.root, manifest), "utf8")) as { name?: unknown }).name;
        if (typeof named === "string" && named) {
          name = named;
          break;
        }
      } catch {
        // An unreadable manifest names no package: look further up.
      }
    }
    if (dir === ".") break;
  }
  for (const dir of walked) byDir.set(dir, name);
  return name;
}

/**
 * The files importing the package that `path` belongs to by a specifier that did not resolve: the
 * file's dependents may be among them. Null when there are none.
 */
export function unresolvedImporters(env: QueryEnv, path: string): { name: string; files: number } | null {
  const any = env.db.query<{ x: number }, [number]>(`SELECT 1 AS x FROM ${GAP_ROWS} LIMIT 1`).get(env.repoId);
  if (!any) return null;
  const byDir = new Map<string, string | null>();
  const name = packageNameOf(env, path, byDir);
  if (name === null) return null;
  // Bare specifiers naming the package, and relative ones (its own build output that maps to no source),
  // which name the package of the path they point at.
  const rows = env.db
    .query<{ file_id: number; path: string; specifier: string }, [number, string, string, string]>(
      `SELECT DISTINCT i.file_id, f.path, i.specifier FROM ${GAP_ROWS}
       AND (i.specifier = ? OR substr(i.specifier, 1, length(?) + 1) = ? || '/' OR substr(i.specifier, 1, 1) = '.')`,
    )
    .all(env.repoId, name, name, name);
  const files = new Set(rows.filter((r) => gapPackage(env, r.path, r.specifier, byDir) === name).map((r) => r.file_id));
  return files.size > 0 ? { name, files: files.size } : null;
}
