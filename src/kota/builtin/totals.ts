/**
 * The index's totals (files, symbols, references, files with errors), kept up to date by deltas:
 * summing every reference row of a large repository costs several ms, counting one changed
 * file's rows almost nothing. The cache holds only while no one else wrote the repository (its
 * generation moved exactly as our own run moved it); otherwise it is counted again in full.
 */
import type { Db } from "../../db/open.ts";
import type { CodeStore, RepoRow } from "./store.ts";

export type Totals = { files: number; symbols: number; references: number; errors: number };

function countsOf(db: Db, ids: number[]): Totals {
  const list = JSON.stringify(ids);
  return db
    .query<Totals, [string, string, string, string]>(
      `SELECT (SELECT count(*) FROM code_files WHERE id IN (SELECT value FROM json_each(?))) AS files,
              (SELECT count(*) FROM code_symbols WHERE file_id IN (SELECT value FROM json_each(?))) AS symbols,
              (SELECT coalesce(sum(n), 0) FROM code_refs WHERE file_id IN (SELECT value FROM json_each(?)) AND member = 0) AS "references",
              (SELECT count(*) FROM code_files WHERE id IN (SELECT value FROM json_each(?)) AND error IS NOT NULL) AS errors`,
    )
    .get(list, list, list, list)!;
}

export type TotalsSnapshot = { generation: number; counts: Totals } | null;

export function createTotals(db: Db, store: CodeStore) {
  let cached: { generation: number; totals: Totals } | null = null;
  const idsOf = (repoId: number, paths: string[]) =>
    db
      .query<{ id: number }, [number, string]>("SELECT id FROM code_files WHERE repo_id = ? AND path IN (SELECT value FROM json_each(?))")
      .all(repoId, JSON.stringify(paths))
      .map((r) => r.id);
  return {
    get(repo: RepoRow): Totals {
      if (cached?.generation !== repo.generation) cached = { generation: repo.generation, totals: store.totals(repo.id) };
      return cached.totals;
    },
    /** The totals a run counted as it wrote (a first index: indexer.ts), for the generation it left. */
    set(repo: RepoRow, totals: Totals): void {
      cached = { generation: repo.generation, totals };
    },
    /** Before a run changes `paths`: their counts now (null when there is nothing cached to adjust). */
    before(repo: RepoRow, paths: string[]): TotalsSnapshot {
      if (cached?.generation !== repo.generation) return null;
      return { generation: repo.generation, counts: countsOf(db, idsOf(repo.id, paths)) };
    },
    /** After the run (one markWriting and one markDone: generation + 2): adjusts the totals by the difference. */
    after(repo: RepoRow, snap: TotalsSnapshot, paths: string[]): void {
      if (!snap || !cached || cached.generation !== snap.generation || repo.generation !== snap.generation + 2) {
        cached = null;
        return;
      }
      const now = countsOf(db, idsOf(repo.id, paths));
      const t = cached.totals;
      cached = {
        generation: repo.generation,
        totals: {
          files: t.files + now.files - snap.counts.files,
          symbols: t.symbols + now.symbols - snap.counts.symbols,
          references: t.references + now.references - snap.counts.references,
          errors: t.errors + now.errors - snap.counts.errors,
        },
      };
    },
  };
}
