-- What a capture saved is measured against its baseline: what the host would otherwise have put
-- in the model's context, as that host cuts it (pi's bash keeps the last 2,000 lines or 50 KB,
-- pi 1.x cuts MCP text over 20 KB in the middle), not against the whole output.
--   cut     the host's own cut: baseline_text holds it (redacted) until its tokens are counted
--   uncut   the host would have sent the whole output: the blob's tokens
--   none    not a capture: text the store keeps for pruning or memory (their own lines in stats)
--   unknown stored before baselines were kept; counted as 0, never guessed
ALTER TABLE sources ADD COLUMN baseline_kind TEXT NOT NULL DEFAULT 'unknown';
ALTER TABLE sources ADD COLUMN baseline TEXT;
ALTER TABLE sources ADD COLUMN baseline_bytes INTEGER;
ALTER TABLE sources ADD COLUMN baseline_tokens INTEGER;
ALTER TABLE sources ADD COLUMN baseline_text TEXT;

-- Old rows: what pruning and memory stored is known by how they name it; the rest is unknown.
UPDATE sources SET baseline_kind = 'none', baseline = 'kept for memory', baseline_bytes = 0, baseline_tokens = 0
  WHERE tool = 'memory' AND reason = 'storing was forced';
UPDATE sources SET baseline_kind = 'none', baseline = 'kept for pruning', baseline_bytes = 0, baseline_tokens = 0
  WHERE label LIKE 'pruned % result %' AND reason = 'storing was forced';
UPDATE sources SET baseline = 'unknown: stored before pi-sidecar kept baselines' WHERE baseline_kind = 'unknown';

-- What the read cache saved, one row per read it answered: the tokens pi's own read would have
-- sent and the tokens sent instead (the same for a read answered in full).
CREATE TABLE readcache_reads (
  id             INTEGER PRIMARY KEY,
  at             INTEGER NOT NULL,
  session        TEXT,
  project        TEXT,
  mode           TEXT    NOT NULL,
  builtin_tokens INTEGER NOT NULL,
  sent_tokens    INTEGER NOT NULL
);
CREATE INDEX readcache_reads_at ON readcache_reads (at);
CREATE INDEX readcache_reads_session ON readcache_reads (session);
