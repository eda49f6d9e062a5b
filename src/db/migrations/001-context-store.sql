-- The context store. Text is stored once, in chunks; both full-text indexes are
-- external-content indexes over that one table.

-- One row per distinct text (deduplicated by hash within a project).
CREATE TABLE blobs (
  id          INTEGER PRIMARY KEY,
  project     TEXT    NOT NULL,
  hash        TEXT    NOT NULL,
  bytes       INTEGER NOT NULL,
  lines       INTEGER NOT NULL,
  tokens      INTEGER NOT NULL,
  chunk_count INTEGER NOT NULL,
  kind        TEXT    NOT NULL,           -- text | markdown | json
  created_at  INTEGER NOT NULL,
  UNIQUE (project, hash)
);

-- One row per capture: every capture gets its own handle, even when its text is a duplicate.
CREATE TABLE sources (
  id               INTEGER PRIMARY KEY,
  handle           TEXT    NOT NULL UNIQUE,
  blob_id          INTEGER NOT NULL REFERENCES blobs (id),
  tool             TEXT    NOT NULL,
  session          TEXT,
  project          TEXT    NOT NULL,
  label            TEXT,
  reason           TEXT    NOT NULL,
  redactions       INTEGER NOT NULL DEFAULT 0,
  created_at       INTEGER NOT NULL,
  receipt_bytes    INTEGER NOT NULL DEFAULT 0,
  receipt_tokens   INTEGER NOT NULL DEFAULT 0,
  retrieved_bytes  INTEGER NOT NULL DEFAULT 0,
  retrieved_tokens INTEGER NOT NULL DEFAULT 0,
  retrievals       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sources_blob ON sources (blob_id);
CREATE INDEX sources_created ON sources (created_at);
CREATE INDEX sources_session ON sources (session);

CREATE TABLE chunks (
  id         INTEGER PRIMARY KEY,
  blob_id    INTEGER NOT NULL REFERENCES blobs (id),
  ordinal    INTEGER NOT NULL,            -- 1-based
  line_start INTEGER NOT NULL,
  line_end   INTEGER NOT NULL,
  title      TEXT    NOT NULL,
  content    TEXT    NOT NULL,
  UNIQUE (blob_id, ordinal)
);

-- Words: stemmed, diacritics folded. Positions kept (detail=full) so bm25 ranks from the index
-- instead of re-reading and re-tokenizing every matching chunk.
CREATE VIRTUAL TABLE chunks_words USING fts5 (
  title, content,
  content = 'chunks', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Trigrams: substrings, identifiers, paths, typo-tolerant matching. Never ranked by bm25 (no
-- positions to rank from); candidates are verified with instr() instead.
CREATE VIRTUAL TABLE chunks_trigrams USING fts5 (
  content,
  content = 'chunks', content_rowid = 'id',
  tokenize = 'trigram',
  detail = none
);

CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_words (rowid, title, content) VALUES (new.id, new.title, new.content);
  INSERT INTO chunks_trigrams (rowid, content) VALUES (new.id, new.content);
END;

-- Skipped while a purge of everything clears the indexes wholesale ('delete-all').
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'bulk_delete') BEGIN
  INSERT INTO chunks_words (chunks_words, rowid, title, content) VALUES ('delete', old.id, old.title, old.content);
  INSERT INTO chunks_trigrams (chunks_trigrams, rowid, content) VALUES ('delete', old.id, old.content);
END;

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- Read-only views of the index vocabularies (no storage): typo correction and trigram weights.
CREATE VIRTUAL TABLE chunks_words_vocab USING fts5vocab (chunks_words, row);
CREATE VIRTUAL TABLE chunks_trigrams_vocab USING fts5vocab (chunks_trigrams, row);
