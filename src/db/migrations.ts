import contextStore from "./migrations/001-context-store.sql" with { type: "text" };
import readcacheObjects from "./migrations/002-readcache-objects.sql" with { type: "text" };
import deferredIndex from "./migrations/003-deferred-index.sql" with { type: "text" };
import codeIndex from "./migrations/004-code-index.sql" with { type: "text" };
import memory from "./migrations/005-memory.sql" with { type: "text" };
import prune from "./migrations/006-prune.sql" with { type: "text" };
import blobCounts from "./migrations/007-blob-counts.sql" with { type: "text" };
import chunkNames from "./migrations/008-chunk-names.sql" with { type: "text" };
import memoryKeys from "./migrations/009-memory-keys.sql" with { type: "text" };
import baselines from "./migrations/010-baselines.sql" with { type: "text" };
import memoryArchiveFlag from "./migrations/011-memory-archive-flag.sql" with { type: "text" };
import memoryIndexContent from "./migrations/012-memory-index-content.sql" with { type: "text" };
import memoryIndexChanges from "./migrations/013-memory-index-changes.sql" with { type: "text" };
import retrievalsAtUnindexed from "./migrations/014-retrievals-at-unindexed.sql" with { type: "text" };

/** Schema migrations, applied in order; the database's user_version is the count applied. */
export const MIGRATIONS: readonly string[] = [
  contextStore,
  readcacheObjects,
  deferredIndex,
  codeIndex,
  memory,
  prune,
  blobCounts,
  chunkNames,
  memoryKeys,
  baselines,
  memoryArchiveFlag,
  memoryIndexContent,
  memoryIndexChanges,
  retrievalsAtUnindexed,
];
