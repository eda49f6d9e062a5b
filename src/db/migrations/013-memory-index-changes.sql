-- Episodic memory: a count of the changes to what the word indexes hold other than new rows (an
-- event or summary deleted, a text rewritten), kept by triggers in memory_state. New rows only
-- ever come after the newest one (ids grow), so a search's newest rows for a word, worked out
-- before, stay right as they are plus the rows added since, as long as this count has not moved
-- (memory/newest-rows.ts). Triggers, not the code that deletes: every writer (another process, an
-- older build) counts its deletes too.
INSERT OR IGNORE INTO memory_state (key, value) VALUES ('index_changes', '0');

CREATE TRIGGER IF NOT EXISTS memory_events_changed AFTER DELETE ON memory_events BEGIN
  UPDATE memory_state SET value = CAST(value AS INTEGER) + 1 WHERE key = 'index_changes';
END;
CREATE TRIGGER IF NOT EXISTS memory_events_rewritten AFTER UPDATE OF id, content, terms ON memory_events BEGIN
  UPDATE memory_state SET value = CAST(value AS INTEGER) + 1 WHERE key = 'index_changes';
END;
CREATE TRIGGER IF NOT EXISTS memory_summaries_changed AFTER DELETE ON memory_summaries BEGIN
  UPDATE memory_state SET value = CAST(value AS INTEGER) + 1 WHERE key = 'index_changes';
END;
CREATE TRIGGER IF NOT EXISTS memory_summaries_rewritten AFTER UPDATE OF id, text, terms ON memory_summaries BEGIN
  UPDATE memory_state SET value = CAST(value AS INTEGER) + 1 WHERE key = 'index_changes';
END;
