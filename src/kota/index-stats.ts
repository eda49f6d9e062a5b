/**
 * The built-in code index at a glance, one row per indexed repository: files, symbols, imports
 * and how many of them resolved, files that did not parse, and when the last run finished. Reads
 * only (a viewer's connection may be read-only).
 */
import type { Db } from "../db/open.ts";

export type CodeIndexRepo = {
  root: string;
  /** When the last complete run finished; null when none has. */
  indexedAt: number | null;
  /** An interrupted run left imports to resolve: the next query finishes them. */
  needsResolve: boolean;
  files: number;
  testFiles: number;
  parseErrors: number;
  symbols: number;
  exportedSymbols: number;
  imports: number;
  resolvedImports: number;
  packageImports: number;
  bytes: number;
};

export type CodeIndexStats = { repos: CodeIndexRepo[] };

export function codeIndexStats(db: Db): CodeIndexStats {
  const repos = db
    .query<{ id: number; root: string; indexed_at: number | null; needs_resolve: number }, []>(
      "SELECT id, root, indexed_at, needs_resolve FROM code_repos ORDER BY root",
    )
    .all();
  const files = db.query<{ files: number; testFiles: number; parseErrors: number; bytes: number }, [number]>(
    `SELECT count(*) AS files, total(is_test) AS testFiles, total(error IS NOT NULL) AS parseErrors, total(size) AS bytes
     FROM code_files WHERE repo_id = ?`,
  );
  const symbols = db.query<{ symbols: number; exportedSymbols: number }, [number]>(
    `SELECT count(*) AS symbols, total(exported) AS exportedSymbols FROM code_symbols
     WHERE file_id IN (SELECT id FROM code_files WHERE repo_id = ?)`,
  );
  const imports = db.query<{ imports: number; resolvedImports: number; packageImports: number }, [number]>(
    `SELECT count(*) AS imports, total(status = 1) AS resolvedImports, total(status = 2) AS packageImports FROM code_imports
     WHERE file_id IN (SELECT id FROM code_files WHERE repo_id = ?)`,
  );
  return {
    repos: repos.map((r) => ({
      root: r.root,
      indexedAt: r.indexed_at,
      needsResolve: r.needs_resolve === 1,
      ...files.get(r.id)!,
      ...symbols.get(r.id)!,
      ...imports.get(r.id)!,
    })),
  };
}
