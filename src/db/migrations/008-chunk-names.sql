-- The word index also holds each chunk's names: the words of its camelCase identifiers and of its
-- keys ("parallel gc threads" for ParallelGCThreads, "bs border radius lg" for
-- `--bs-border-radius-lg:`), a third column weighted up, so a query finds identifiers written
-- together and puts the chunk that defines a name before chunks that only use it. Those words are
-- not in the text, so the index stops reading it from the chunks table: it is contentless, and a
-- deleted chunk's row is deleted by id.
DROP TRIGGER chunks_ad;
DROP TABLE IF EXISTS chunks_words_vocab;
DROP TABLE chunks_words;
CREATE VIRTUAL TABLE chunks_words USING fts5 (
  title, content, names,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER chunks_ad AFTER DELETE ON chunks
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'bulk_delete')
  AND NOT EXISTS (SELECT 1 FROM index_queue WHERE blob_id = old.blob_id) BEGIN
  DELETE FROM chunks_words WHERE rowid = old.id;
  DELETE FROM chunk_idents WHERE rowid = old.id;
END;

-- Existing stores are indexed again, in the background or before the next search.
INSERT INTO chunk_idents (chunk_idents) VALUES ('delete-all');
DELETE FROM vocabulary;
INSERT OR IGNORE INTO index_queue (blob_id, queued_at) SELECT id, created_at FROM blobs;
