-- The retrieval log is read newest first by id (ids only grow, as `at` does); nothing looks rows
-- up by time, so the index on `at` only cost every search a page written before its answer.
-- Idempotent: run twice (a build that numbered it otherwise) it changes nothing.
DROP INDEX IF EXISTS retrievals_at;
