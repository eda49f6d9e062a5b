-- Episodic memory: raw events, rolling summaries of windows of them, and which later event
-- replaced which earlier one. Projects and sessions are small integers so a million events do
-- not repeat a path a million times. Order is the event id (insertion order), never the clock.

CREATE TABLE memory_projects (
  id         INTEGER PRIMARY KEY,
  path       TEXT    NOT NULL UNIQUE,
  enabled    INTEGER NOT NULL DEFAULT 1,   -- /memory off: nothing is captured or injected
  events     INTEGER NOT NULL DEFAULT 0,   -- live events, and their text in bytes (the size cap)
  text_bytes INTEGER NOT NULL DEFAULT 0,
  last_ts    INTEGER NOT NULL DEFAULT 0    -- the newest event's time: a clock that goes back never reorders
);

CREATE TABLE memory_sessions (
  id         INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES memory_projects (id) ON DELETE CASCADE,
  name       TEXT    NOT NULL,
  UNIQUE (project_id, name)
);

CREATE TABLE memory_events (
  id         INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL,
  session_id INTEGER NOT NULL,
  ts         INTEGER NOT NULL,             -- ms since the epoch
  kind       TEXT    NOT NULL,             -- prompt answer decision correction error command files note
  content    TEXT    NOT NULL,             -- redacted, cut at memory.maxEventBytes
  tokens     INTEGER NOT NULL,
  archived   INTEGER NOT NULL DEFAULT 0,   -- 0, or the summary that covers it
  source     TEXT                          -- context-store source of the whole text when cut
);
-- The unarchived window of a project (small: archived rows leave it); a session's recent events
-- are found in it too (older ones are in summaries), so there is no index per session.
CREATE INDEX memory_events_open ON memory_events (project_id, id) WHERE archived = 0;

CREATE TABLE memory_summaries (
  id          INTEGER PRIMARY KEY,
  project_id  INTEGER NOT NULL,
  first_event INTEGER NOT NULL,
  last_event  INTEGER NOT NULL,
  events      INTEGER NOT NULL,
  text        TEXT    NOT NULL,            -- lines `- e123 kind: ...` name the event they keep
  tokens      INTEGER NOT NULL,
  method      TEXT    NOT NULL,            -- extractive | model
  created_at  INTEGER NOT NULL
);
CREATE INDEX memory_summaries_project ON memory_summaries (project_id, id);

-- Which later event replaced which earlier one (an event may be replaced by several). Kept after
-- retention drops the old event, so a summary line that names it still reads as replaced.
CREATE TABLE memory_supersessions (
  old_id     INTEGER NOT NULL,
  new_id     INTEGER NOT NULL,
  project_id INTEGER NOT NULL,
  PRIMARY KEY (old_id, new_id)
) WITHOUT ROWID;
CREATE INDEX memory_supersessions_new ON memory_supersessions (new_id);

-- What recall injected into a prompt (ids and counts only: no text to forget twice).
CREATE TABLE memory_injections (
  id         INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL,
  session    TEXT,
  at         INTEGER NOT NULL,
  mode       TEXT    NOT NULL,
  tokens     INTEGER NOT NULL,
  items      TEXT    NOT NULL
);
CREATE INDEX memory_injections_project ON memory_injections (project_id, id);

CREATE TABLE memory_state (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- Stemmed, case- and diacritic-folded words. No positions and no sizes (detail=none,
-- columnsize=0): matching is per word and ranking happens in the service on the text itself, so
-- either would only make the index bigger.
CREATE VIRTUAL TABLE memory_events_fts USING fts5 (
  content,
  content = 'memory_events', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2',
  detail = none, columnsize = 0
);
CREATE VIRTUAL TABLE memory_summaries_fts USING fts5 (
  text,
  content = 'memory_summaries', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2',
  detail = none, columnsize = 0
);

CREATE TRIGGER memory_events_ai AFTER INSERT ON memory_events BEGIN
  INSERT INTO memory_events_fts (rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER memory_events_ad AFTER DELETE ON memory_events BEGIN
  INSERT INTO memory_events_fts (memory_events_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER memory_summaries_ai AFTER INSERT ON memory_summaries BEGIN
  INSERT INTO memory_summaries_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER memory_summaries_ad AFTER DELETE ON memory_summaries BEGIN
  INSERT INTO memory_summaries_fts (memory_summaries_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER memory_summaries_au AFTER UPDATE OF text ON memory_summaries BEGIN
  INSERT INTO memory_summaries_fts (memory_summaries_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO memory_summaries_fts (rowid, text) VALUES (new.id, new.text);
END;

-- Document frequencies of the index's terms (read-only views, no storage): rare words weigh more.
CREATE VIRTUAL TABLE memory_events_vocab USING fts5vocab (memory_events_fts, row);
CREATE VIRTUAL TABLE memory_summaries_vocab USING fts5vocab (memory_summaries_fts, row);
