-- Episodic memory: an archived event is marked 1 (a flag), no longer with its summary's id.
-- 0 and 1 take no bytes in a row, so archiving a window rewrites its rows in place; an id made
-- every row a few bytes longer, which split its full page and left a tenth of the events' pages
-- empty. The summary that holds an archived event is the one whose range holds it (rows archived
-- before this keep the summary's id, which says the same). This index finds it by range (IF NOT
-- EXISTS: a build that numbered this migration otherwise may have made it already).
CREATE INDEX IF NOT EXISTS memory_summaries_range ON memory_summaries (project_id, last_event);
