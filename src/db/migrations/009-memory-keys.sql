-- Episodic memory, second step.
-- creates table: memory_import_keys
--
-- Import keys: one stable key per imported event (a hash of the project, the line's session,
-- kind, time, text and how many identical lines came before it, or the line's own id), so an
-- import that was killed and is run again stores each event once. Only the hash is kept: no text.
CREATE TABLE memory_import_keys (
  key INTEGER PRIMARY KEY
);

-- Extra words an event is found by that its text does not hold as such: the parts of a camelCase
-- identifier (rateLimiter: rate, limiter) and the joined form of a split one (rate_limiter:
-- ratelimiter). NULL for most events. The word index indexes the text and these together.
ALTER TABLE memory_events ADD COLUMN terms TEXT;
ALTER TABLE memory_summaries ADD COLUMN terms TEXT;

DROP TRIGGER memory_events_ai;
DROP TRIGGER memory_events_ad;
DROP TRIGGER memory_summaries_ai;
DROP TRIGGER memory_summaries_ad;
DROP TRIGGER memory_summaries_au;

CREATE TRIGGER memory_events_ai AFTER INSERT ON memory_events BEGIN
  INSERT INTO memory_events_fts (rowid, content) VALUES (new.id, new.content || coalesce(char(10) || new.terms, ''));
END;
CREATE TRIGGER memory_events_ad AFTER DELETE ON memory_events BEGIN
  INSERT INTO memory_events_fts (memory_events_fts, rowid, content)
  VALUES ('delete', old.id, old.content || coalesce(char(10) || old.terms, ''));
END;
CREATE TRIGGER memory_summaries_ai AFTER INSERT ON memory_summaries BEGIN
  INSERT INTO memory_summaries_fts (rowid, text) VALUES (new.id, new.text || coalesce(char(10) || new.terms, ''));
END;
CREATE TRIGGER memory_summaries_ad AFTER DELETE ON memory_summaries BEGIN
  INSERT INTO memory_summaries_fts (memory_summaries_fts, rowid, text)
  VALUES ('delete', old.id, old.text || coalesce(char(10) || old.terms, ''));
END;
CREATE TRIGGER memory_summaries_au AFTER UPDATE OF text, terms ON memory_summaries BEGIN
  INSERT INTO memory_summaries_fts (memory_summaries_fts, rowid, text)
  VALUES ('delete', old.id, old.text || coalesce(char(10) || old.terms, ''));
  INSERT INTO memory_summaries_fts (rowid, text) VALUES (new.id, new.text || coalesce(char(10) || new.terms, ''));
END;
