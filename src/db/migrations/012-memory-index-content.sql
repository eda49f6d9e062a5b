-- Episodic memory: each word index reads its rows through a view that gives what it indexes.
-- The triggers index an event's text with its extra terms (009: content, a newline, terms), but
-- the index named the bare table as its content, so FTS5 read the text without the terms:
-- 'integrity-check' against the rows failed on any row with terms, and a 'rebuild' would have
-- dropped them. The view joins them as the triggers do; the index is made again from it (idempotent:
-- run twice it builds the same index).
DROP TABLE IF EXISTS memory_events_fts;
DROP TABLE IF EXISTS memory_summaries_fts;
DROP VIEW IF EXISTS memory_events_indexed;
DROP VIEW IF EXISTS memory_summaries_indexed;

CREATE VIEW memory_events_indexed (id, content) AS
  SELECT id, content || coalesce(char(10) || terms, '') FROM memory_events;
CREATE VIEW memory_summaries_indexed (id, text) AS
  SELECT id, text || coalesce(char(10) || terms, '') FROM memory_summaries;

CREATE VIRTUAL TABLE memory_events_fts USING fts5 (
  content,
  content = 'memory_events_indexed', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2',
  detail = none, columnsize = 0
);
CREATE VIRTUAL TABLE memory_summaries_fts USING fts5 (
  text,
  content = 'memory_summaries_indexed', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2',
  detail = none, columnsize = 0
);
INSERT INTO memory_events_fts (memory_events_fts) VALUES ('rebuild');
INSERT INTO memory_summaries_fts (memory_summaries_fts) VALUES ('rebuild');
INSERT INTO memory_events_fts (memory_events_fts) VALUES ('optimize');
INSERT INTO memory_summaries_fts (memory_summaries_fts) VALUES ('optimize');

-- Import keys are written to a small table first and moved into memory_import_keys in key order
-- when it fills (memory/import-keys.ts): random keys written straight into the big table changed
-- nearly every page of it in every batch.
-- creates table: memory_import_keys_recent
CREATE TABLE IF NOT EXISTS memory_import_keys_recent (
  key INTEGER PRIMARY KEY
);
