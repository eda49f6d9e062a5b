/** Writes and reads of the code_* tables that indexing needs (queries have their own modules). */
import type { SQLQueryBindings, Statement } from "bun:sqlite";
import type { Db } from "../../db/open.ts";
import type { StoredFacts } from "./parse/facts.ts";

export type FileRow = { id: number; path: string; size: number; mtime_ms: number; hash: string };
export type WatchRow = { path: string; is_dir: number; mtime_ms: number };
/** One file to store: its row, facts, and the words it is found by (redacted, identifiers split: parse/redact-facts.ts). */
export type FileWrite = {
  file: { path: string; size: number; mtimeMs: number; hash: string; isTest: boolean };
  facts: StoredFacts;
  body: string;
};
export type RepoRow = { id: number; root: string; indexed_at: number | null; generation: number; needs_resolve: number };

/** Rows in one statement: a file's references, symbols and exports are many (tens of references on average), each one statement before. */
const ROWS_PER_INSERT = 32;

/**
 * Inserts rows given flat (`columns` values a row, in order), up to ROWS_PER_INSERT in one statement:
 * the same rows in the same order (so the same rowids), fewer statements run.
 */
function rowsInserter(db: Db, head: string, columns: number): (values: SQLQueryBindings[]) => void {
  const row = `(${Array(columns).fill("?").join(", ")})`;
  const statements: Statement[] = [];
  const statement = (rows: number) => (statements[rows] ??= db.prepare(`${head} ${Array(rows).fill(row).join(", ")}`));
  return (values) => {
    const per = ROWS_PER_INSERT * columns;
    for (let i = 0; i < values.length; i += per) {
      const part = i === 0 && values.length <= per ? values : values.slice(i, i + per);
      statement(part.length / columns).run(...part);
    }
  };
}

export function createCodeStore(db: Db) {
  const upsertFile = db.prepare<{ id: number }, [number, string, number, number, string, number, string | null]>(
    `INSERT INTO code_files (repo_id, path, size, mtime_ms, hash, is_test, error) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (repo_id, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash,
       is_test = excluded.is_test, error = excluded.error
     RETURNING id`,
  );
  const clearFacts = [
    db.prepare("DELETE FROM code_refs WHERE file_id = ?"),
    db.prepare("DELETE FROM code_exports WHERE file_id = ?"),
    db.prepare("DELETE FROM code_symbols WHERE file_id = ?"),
    db.prepare("DELETE FROM code_imports WHERE file_id = ?"),
  ];
  const deleteText = db.prepare("DELETE FROM code_text WHERE rowid = ?");
  const insertSymbols = rowsInserter(
    db,
    "INSERT INTO code_symbols (file_id, name, kind, parent, line_start, line_end, exported, signature) VALUES",
    8,
  );
  const insertImport = db.prepare<{ id: number }, [number, string, string, number]>(
    "INSERT INTO code_imports (file_id, specifier, kind, line) VALUES (?, ?, ?, ?) RETURNING id",
  );
  const insertExports = rowsInserter(db, "INSERT INTO code_exports (file_id, name, local, import_id, imported, line) VALUES", 6);
  const insertRefs = rowsInserter(db, "INSERT INTO code_refs (file_id, import_id, name, owner, member, n, sites) VALUES", 7);
  const insertText = db.prepare("INSERT INTO code_text (rowid, body) VALUES (?, ?)");
  const touch = db.prepare("UPDATE code_files SET mtime_ms = ?, size = ? WHERE id = ?");
  const deleteFile = db.prepare("DELETE FROM code_files WHERE id = ?");
  const fileByPath = db.prepare<FileRow, [number, string]>(
    "SELECT id, path, size, mtime_ms, hash FROM code_files WHERE repo_id = ? AND path = ?",
  );
  const watchByPath = db.prepare<WatchRow, [number, string]>(
    "SELECT path, is_dir, mtime_ms FROM code_watch WHERE repo_id = ? AND path = ?",
  );

  return {
    repo(root: string): RepoRow | null {
      return db.query<RepoRow, [string]>("SELECT * FROM code_repos WHERE root = ?").get(root);
    },
    ensureRepo(root: string): RepoRow {
      db.query("INSERT INTO code_repos (root) VALUES (?) ON CONFLICT (root) DO NOTHING").run(root);
      return db.query<RepoRow, [string]>("SELECT * FROM code_repos WHERE root = ?").get(root)!;
    },
    files(repoId: number): FileRow[] {
      return db.query<FileRow, [number]>("SELECT id, path, size, mtime_ms, hash FROM code_files WHERE repo_id = ?").all(repoId);
    },
    /** Whether the repository has any file stored. */
    hasFiles(repoId: number): boolean {
      return db.query<{ one: number }, [number]>("SELECT 1 AS one FROM code_files WHERE repo_id = ? LIMIT 1").get(repoId) !== null;
    },
    /** Whether any repository has a file stored. */
    anyFiles(): boolean {
      return db.query<{ one: number }, []>("SELECT 1 AS one FROM code_files LIMIT 1").get() !== null;
    },
    /** One file's row (a few changed files need no map of all of them). */
    file(repoId: number, path: string): FileRow | null {
      return fileByPath.get(repoId, path);
    },
    watchRow(repoId: number, path: string): WatchRow | null {
      return watchByPath.get(repoId, path);
    },
    watch(repoId: number): WatchRow[] {
      return db.query<WatchRow, [number]>("SELECT path, is_dir, mtime_ms FROM code_watch WHERE repo_id = ?").all(repoId);
    },
    setWatch(repoId: number, rows: WatchRow[], replace: boolean, removed: string[] = []): void {
      if (replace) db.query("DELETE FROM code_watch WHERE repo_id = ?").run(repoId);
      const del = db.prepare("DELETE FROM code_watch WHERE repo_id = ? AND path = ?");
      for (const p of removed) del.run(repoId, p);
      const put = db.prepare("INSERT OR REPLACE INTO code_watch (repo_id, path, is_dir, mtime_ms) VALUES (?, ?, ?, ?)");
      for (const r of rows) put.run(repoId, r.path, r.is_dir, r.mtime_ms);
    },
    /**
     * Replaces everything known about each file of a batch (inside the caller's transaction), and
     * returns their ids in order. The search words go in last, all together: FTS5 writes its pending
     * words out as a segment of their own whenever a statement opens a savepoint (an upsert, an
     * insert with RETURNING or a foreign key), so text written between one file's rows and the next
     * file's made one segment per file, each written and merged again (on a cold index about a third
     * of the time spent writing). Written together, a batch makes one. `importIds`, when given,
     * gets each file's import ids, in the order of its facts' imports.
     */
    writeFiles(repoId: number, batch: readonly FileWrite[], importIds?: number[][]): number[] {
      const ids: number[] = [];
      const known: boolean[] = [];
      for (const { file, facts } of batch) {
        const error = facts.error ? `line ${facts.error.line}: ${facts.error.message}` : null;
        // Asked inside the transaction: a file another process stored meanwhile is cleared too.
        const existed = fileByPath.get(repoId, file.path) !== null;
        const id = upsertFile.get(repoId, file.path, file.size, file.mtimeMs, file.hash, file.isTest ? 1 : 0, error)!.id;
        if (existed) for (const c of clearFacts) c.run(id);
        const imports: number[] = [];
        for (const imp of facts.imports) imports.push(insertImport.get(id, imp.specifier, imp.kind, imp.line)!.id);
        importIds?.push(imports);
        const symbols: SQLQueryBindings[] = [];
        for (const s of facts.symbols) symbols.push(id, s.name, s.kind, s.parent, s.lineStart, s.lineEnd, s.exported ? 1 : 0, s.signature);
        insertSymbols(symbols);
        const exports: SQLQueryBindings[] = [];
        for (const e of facts.exports)
          exports.push(id, e.name, e.local, e.importIdx === null ? null : imports[e.importIdx]!, e.imported, e.line);
        insertExports(exports);
        // One row per target: a file that calls a function forty times stores one row, not forty.
        const refs: SQLQueryBindings[] = [];
        for (const [importIdx, name, owner, member, n, sites] of facts.refs)
          refs.push(id, importIdx === null ? null : imports[importIdx]!, name, owner, member, n, sites);
        insertRefs(refs);
        ids.push(id);
        known.push(existed);
      }
      batch.forEach(({ body }, i) => {
        if (known[i]) deleteText.run(ids[i]!);
        insertText.run(ids[i]!, body);
      });
      return ids;
    },
    touchFile(id: number, mtimeMs: number, size: number): void {
      touch.run(mtimeMs, size, id);
    },
    /** Drops files and all their facts (their search words first, together: see writeFiles). */
    deleteFiles(ids: readonly number[]): void {
      for (const id of ids) deleteText.run(id);
      for (const id of ids) deleteFile.run(id);
    },
    markWriting(repoId: number): void {
      db.query("UPDATE code_repos SET needs_resolve = 1, generation = generation + 1 WHERE id = ?").run(repoId);
    },
    markDone(repoId: number, at: number, complete: boolean): void {
      db.query(
        "UPDATE code_repos SET needs_resolve = 0, generation = generation + 1, indexed_at = CASE WHEN ? THEN ? ELSE indexed_at END WHERE id = ?",
      ).run(complete ? 1 : 0, at, repoId);
    },
    totals(repoId: number): { files: number; symbols: number; references: number; errors: number } {
      return db
        .query<{ files: number; symbols: number; references: number; errors: number }, [number, number, number, number]>(
          `SELECT (SELECT count(*) FROM code_files WHERE repo_id = ?) AS files,
                  (SELECT count(*) FROM code_symbols s JOIN code_files f ON f.id = s.file_id WHERE f.repo_id = ?) AS symbols,
                  (SELECT coalesce(sum(r.n), 0) FROM code_refs r JOIN code_files f ON f.id = r.file_id WHERE f.repo_id = ? AND r.member = 0) AS "references",
                  (SELECT count(*) FROM code_files WHERE repo_id = ? AND error IS NOT NULL) AS errors`,
        )
        .get(repoId, repoId, repoId, repoId)!;
    },
  };
}

export type CodeStore = ReturnType<typeof createCodeStore>;
