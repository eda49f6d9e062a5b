/**
 * The secondary indexes of the facts tables (symbols, imports, exports, references), set aside while
 * a first index fills a new database: each row written then updated nine B-trees in random order;
 * built in one go from the rows there, the same indexes cost about half the CPU (a micro-benchmark:
 * 85 -> 50 ms). They are built once the last batches are sent to the parser (indexer.ts), while it
 * parses them, not after its last answer, when the build would add to the time nothing overlaps
 * (zod: some 40 ms there on a loaded machine). Nothing reads them meanwhile: writing goes by row
 * id, and the listing by file path (code_files' own unique index, never set aside).
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
