/**
 * The secondary indexes of the facts tables (symbols, imports, exports, references), set aside while
 * a first index fills a new database: each row written then updated nine B-trees in random order;
 * built once at the end from sorted rows, the same indexes cost about half the CPU (a cold index of
 * zod or vue-core: 20-30 ms less in the indexing process). Nothing reads them meanwhile: writing
 * and resolving the imports go by row id and by file path.
 *
 * Their definitions are the schema's own (the migration that creates them), so the two cannot
 * drift apart. A run that stops before it puts them back (a crash, a kill) leaves them missing:
 * `restoreIndexes` puts back any that is missing, and runs whenever a store opens the database.
 * Every creation says IF NOT EXISTS, since another process may restore them meanwhile.
 */
import schemaSql from "../../db/migrations/004-code-index.sql" with { type: "text" };
import { type Db, immediate } from "../../db/open.ts";

type IndexDef = { name: string; sql: string };

/** The code index's secondary indexes, as its migration creates them (with IF NOT EXISTS). */
export const FACT_INDEXES: readonly IndexDef[] = [...schemaSql.matchAll(/^CREATE INDEX (\w+) ON [^;]+;/gm)].map((m) => ({
  name: m[1]!,
  sql: m[0].replace(/^CREATE INDEX /, "CREATE INDEX IF NOT EXISTS "),
}));

const missing = (db: Db): IndexDef[] => {
  const present = new Set(
    db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'code\\_%' ESCAPE '\\'")
      .all()
      .map((r) => r.name),
  );
  return FACT_INDEXES.filter((d) => !present.has(d.name));
};

/** Drops the secondary indexes (inside the caller's transaction). */
export function setIndexesAside(db: Db): void {
  for (const d of FACT_INDEXES) db.exec(`DROP INDEX IF EXISTS ${d.name}`);
}

/** Creates those missing (inside the caller's transaction). */
export function putIndexesBack(db: Db): void {
  for (const d of missing(db)) db.exec(d.sql);
}

/** Puts back any index a stopped first index left missing (a transaction of its own, only when one is). */
export function restoreIndexes(db: Db): void {
  if (missing(db).length > 0) immediate(db, () => putIndexesBack(db));
}
