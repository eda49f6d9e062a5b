-- Built-in code index (kota backend "builtin"). One code_repos row per absolute repository root,
-- so one database holds several repositories. Paths are relative to the root with / separators.

CREATE TABLE code_repos (
  id INTEGER PRIMARY KEY,
  root TEXT NOT NULL UNIQUE,
  indexed_at INTEGER,                     -- ms epoch of the last completed run; NULL = never completed
  generation INTEGER NOT NULL DEFAULT 0,  -- bumped by every write, so readers know their caches are old
  needs_resolve INTEGER NOT NULL DEFAULT 1 -- an interrupted run left imports unresolved
);

CREATE TABLE code_files (
  id INTEGER PRIMARY KEY,
  repo_id INTEGER NOT NULL REFERENCES code_repos(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  hash TEXT NOT NULL,
  is_test INTEGER NOT NULL DEFAULT 0,
  error TEXT,                             -- first parse error: symbols and references may be missing
  UNIQUE (repo_id, path)
);

-- Files that shape resolution or the file set (tsconfig*.json, jsconfig.json, package.json, .gitignore)
-- and every walked directory: a changed mtime sends the next query looking for new files.
CREATE TABLE code_watch (
  repo_id INTEGER NOT NULL REFERENCES code_repos(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  is_dir INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  PRIMARY KEY (repo_id, path)
) WITHOUT ROWID;

CREATE TABLE code_symbols (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES code_files(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  parent TEXT,                            -- class, interface or namespace of a member
  line_start INTEGER NOT NULL,
  line_end INTEGER NOT NULL,
  exported INTEGER NOT NULL,
  signature TEXT
);
CREATE INDEX code_symbols_file ON code_symbols(file_id);
CREATE INDEX code_symbols_name ON code_symbols(name COLLATE NOCASE);

-- One row per import, re-export, dynamic import() or require() with a literal specifier.
CREATE TABLE code_imports (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES code_files(id) ON DELETE CASCADE,
  specifier TEXT NOT NULL,
  kind TEXT NOT NULL,                     -- import | type | reexport | export_all | dynamic | require
  line INTEGER NOT NULL,
  target_id INTEGER REFERENCES code_files(id) ON DELETE SET NULL,
  status INTEGER NOT NULL DEFAULT 0       -- 0 unresolved, 1 resolved to target_id, 2 package outside the repo, 3 non-code file
);
CREATE INDEX code_imports_file ON code_imports(file_id);
CREATE INDEX code_imports_target ON code_imports(target_id);

-- What a file exports: a local binding (local), or a name taken from an import (import_id + imported;
-- imported '*' with name '*' is `export *`, with another name `export * as name`).
CREATE TABLE code_exports (
  file_id INTEGER NOT NULL REFERENCES code_files(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  local TEXT,
  import_id INTEGER REFERENCES code_imports(id) ON DELETE CASCADE,
  imported TEXT,
  line INTEGER NOT NULL
);
CREATE INDEX code_exports_file ON code_exports(file_id, name);
CREATE INDEX code_exports_import ON code_exports(import_id);

-- References, resolved as far as one file can: through an import (import_id + the exported name
-- it names), to a top-level declaration of the same file (import_id NULL, member 0), or a member
-- access by name (member 1; owner = the class when `this.x` inside it). One row per file and
-- target; `sites` lists each occurrence as line:column plus a kind letter (see sites.ts), n counts them.
CREATE TABLE code_refs (
  file_id INTEGER NOT NULL REFERENCES code_files(id) ON DELETE CASCADE,
  import_id INTEGER REFERENCES code_imports(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  owner TEXT,
  member INTEGER NOT NULL,
  n INTEGER NOT NULL,
  sites TEXT NOT NULL
);
CREATE INDEX code_refs_import ON code_refs(import_id, name);
CREATE INDEX code_refs_file ON code_refs(file_id, name);
CREATE INDEX code_refs_member ON code_refs(name) WHERE member = 1;

-- File text for search; rowid = code_files.id. Words, with identifiers split at camelCase humps and
-- underscores (getPathNoStrict -> get path no strict), so a query finds words and word prefixes
-- inside identifiers; the matching lines are then read from the working tree (which the freshness
-- check keeps in step), and a query the words miss falls back to a scan of the files.
CREATE VIRTUAL TABLE code_text USING fts5(body, content = '', contentless_delete = 1, tokenize = 'unicode61', detail = none);
