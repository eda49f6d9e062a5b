-- The read cache's base versions: file contents the model has been shown, by content hash.
CREATE TABLE objects (
  hash       TEXT    PRIMARY KEY,
  content    TEXT    NOT NULL,
  bytes      INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  used_at    INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX objects_used ON objects (used_at);
