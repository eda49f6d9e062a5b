-- Context pruning: which tool results were replaced by pointers, and to what. A result is known by
-- its call id and the hash of its text, so a resumed or forked session applies the same pointers
-- (the prefix sent stays byte-identical) and a changed result is judged again.

CREATE TABLE prune_pointers (
  call_id       TEXT    NOT NULL,
  text_hash     TEXT    NOT NULL,
  source        TEXT    NOT NULL,          -- the context-store source holding the text (or the receipt's)
  pointer       TEXT    NOT NULL,          -- what is sent instead, redacted
  tool          TEXT    NOT NULL,
  session       TEXT,
  tokens_before INTEGER NOT NULL,
  tokens_after  INTEGER NOT NULL,
  at            INTEGER NOT NULL,
  PRIMARY KEY (call_id, text_hash)
) WITHOUT ROWID;

-- One row per batch: when the sent prefix changed, and what it cleared.
CREATE TABLE prune_batches (
  id            INTEGER PRIMARY KEY,
  at            INTEGER NOT NULL,
  session       TEXT,
  results       INTEGER NOT NULL,
  tokens_before INTEGER NOT NULL,
  tokens_after  INTEGER NOT NULL,
  adaptive      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX prune_batches_at ON prune_batches (at);
