-- A blob's tokens are counted after it is indexed, not with it: the text is searchable sooner,
-- and a one-shot command can leave the count (and the tokenizer's load) to the next process.
CREATE TABLE blob_count_queue (
  blob_id INTEGER PRIMARY KEY REFERENCES blobs (id) ON DELETE CASCADE
);
INSERT INTO blob_count_queue (blob_id) SELECT blob_id FROM index_queue;
