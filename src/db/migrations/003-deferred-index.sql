-- Capture returns its receipt once the text is stored; indexing and token counting follow
-- (index_queue, count_queue), in the background or before the next search that needs them.
-- A process killed in between leaves its queue rows, and the next one finishes the work.

-- Indexes are written by the indexer, not by triggers.
DROP TRIGGER chunks_ai;
DROP TRIGGER chunks_ad;

-- Substrings are searched in identifier-like tokens only (paths, ids, hex, camelCase, code
-- words); plain words go through the word index. Contentless: the tokens are derived text.
DROP TABLE chunks_trigrams_vocab;
DROP TABLE chunks_trigrams;
CREATE VIRTUAL TABLE chunk_idents USING fts5 (
  idents,
  content = '', contentless_delete = 1,
  tokenize = 'trigram',
  detail = none
);

-- Blobs whose chunks are not yet in the indexes and whose tokens are not yet counted.
CREATE TABLE index_queue (
  blob_id   INTEGER PRIMARY KEY REFERENCES blobs (id) ON DELETE CASCADE,
  queued_at INTEGER NOT NULL
);

-- Sources whose receipt tokens are not yet counted (the receipt is kept for that, and for review).
ALTER TABLE sources ADD COLUMN receipt TEXT;
CREATE TABLE count_queue (
  source_id INTEGER PRIMARY KEY REFERENCES sources (id) ON DELETE CASCADE
);

-- A deleted chunk leaves both indexes, unless it was never indexed.
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'bulk_delete')
  AND NOT EXISTS (SELECT 1 FROM index_queue WHERE blob_id = old.blob_id) BEGIN
  INSERT INTO chunks_words (chunks_words, rowid, title, content) VALUES ('delete', old.id, old.title, old.content);
  DELETE FROM chunk_idents WHERE rowid = old.id;
END;

-- Every word seen, as written (lower-cased, not stemmed), with how many texts hold it: the
-- vocabulary typo correction picks from.
CREATE TABLE vocabulary (
  word TEXT PRIMARY KEY,
  docs INTEGER NOT NULL
) WITHOUT ROWID;

-- What searches and gets returned. Text is kept until its tokens are counted, then dropped.
CREATE TABLE retrievals (
  id          INTEGER PRIMARY KEY,
  at          INTEGER NOT NULL,
  kind        TEXT    NOT NULL,            -- search | get
  query       TEXT,
  mode        TEXT,
  session     TEXT,
  hits        INTEGER NOT NULL,
  bytes       INTEGER NOT NULL,
  tokens      INTEGER,                     -- null until counted
  first_source TEXT
);
CREATE INDEX retrievals_at ON retrievals (at);
CREATE TABLE retrieval_parts (
  retrieval_id INTEGER NOT NULL REFERENCES retrievals (id) ON DELETE CASCADE,
  source       TEXT    NOT NULL,           -- source handle
  bytes        INTEGER NOT NULL,
  text         TEXT                        -- null once counted
);
CREATE INDEX retrieval_parts_uncounted ON retrieval_parts (retrieval_id) WHERE text IS NOT NULL;

-- Existing stores are indexed again under the new scheme, in the background.
INSERT INTO chunks_words (chunks_words) VALUES ('delete-all');
INSERT INTO index_queue (blob_id, queued_at) SELECT id, created_at FROM blobs;
