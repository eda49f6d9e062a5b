/**
 * Candidate rows for a query, in time bounded by the query, not by the store: a million events
 * must answer in milliseconds. Each term brings its rows newest first (FTS5 walks a term's rows
 * in rowid order and stops), at most PER_TERM of them; a term with fewer rows than that is rare
 * and its count is exact, a common one's frequency is estimated from how far back its newest
 * PER_TERM rows reach. The rarest words together bring the rows that hold them all, back to
 * ALL_TERMS_REACH rows (an AND of common words costs in proportion to the rows it walks: 10 ms
 * over a million events; older events are found by their rare words and through the summaries
 * that hold them). Ranking the candidates happens afterwards, on their text (rank.ts).
 */
import type { Db } from "../db/open.ts";
import { newestRows } from "./newest-rows.ts";
import { ftsGroup, type QueryGroup } from "./query.ts";

export type Table = "events" | "summaries";

/** A query group with how many rows hold it (exact, or estimated for a common one), of how many (the project's rows), and its weight. */
export type WeightedGroup = QueryGroup & { df: number; rows: number; idf: number };

const NAMES = {
  events: { fts: "memory_events_fts", base: "memory_events" },
  summaries: { fts: "memory_summaries_fts", base: "memory_summaries" },
} as const;

/** Rows fetched per group (the newest ones), and by the all-rare-groups query. */
const PER_TERM: Record<Table, number> = { events: 150, summaries: 100 };
const ALL_TERMS = 300;
const ALL_TERMS_REACH = 200_000;
/** Query groups looked up at most. */
const MAX_GROUPS = 8;

export type CandidateOptions = {
  projectId: number;
  /** Skip the project join (the database holds one project; rows are filtered again afterwards). */
  single: boolean;
  /** Only rows older than this id (supersession looks back only). */
  beforeId?: number;
  /** How many best candidates to keep. */
  keep: number;
  /** Only events of these kinds (supersession compares statements only: a common word in commands must not crowd them out). */
  kinds?: readonly string[];
  /** Rows fetched per group (default PER_TERM): supersession, which compares a few dozen, fetches fewer. */
  perTerm?: number;
  /** Groups looked up at most (default MAX_GROUPS). */
  maxGroups?: number;
};

/** `groups`: the query groups the index holds at all; `unknown`: how many it holds none of. */
export type Candidates = { groups: WeightedGroup[]; unknown: number; ids: number[] };

function statementSql(table: Table, single: boolean, limit: number, kinds?: readonly string[]): string {
  const n = NAMES[table];
  // Kinds are our own constants, never user text.
  const kind = kinds && table === "events" ? ` AND b.kind IN (${kinds.map((k) => `'${k.replace(/[^a-z]/g, "")}'`).join(",")})` : "";
  const sql =
    single && kind === ""
      ? `SELECT rowid AS id FROM ${n.fts} WHERE ${n.fts} MATCH ?1 AND rowid < ?2 AND rowid > ?3 ORDER BY rowid DESC LIMIT ${limit}`
      : `SELECT f.rowid AS id FROM ${n.fts} f JOIN ${n.base} b ON b.id = f.rowid
       WHERE f.${n.fts} MATCH ?1 AND f.rowid < ?2 AND f.rowid > ?3${single ? "" : " AND b.project_id = ?4"}${kind} ORDER BY f.rowid DESC LIMIT ${limit}`;
  return sql;
}

/** The longest run of rows counted one by one for how many of them are the project's; beyond it, its share of all rows is assumed. */
const COUNT_REACH = 20_000;

/**
 * How many rows the project holds, and how many of its rows lie between two ids (`since`: at least
 * one): counted when the run is short, else estimated by the project's share of every row (`span`:
 * ids in the table).
 */
function projectScope(db: Db, table: Table, projectId: number, span: number) {
  const rows =
    table === "events"
      ? (db.query<{ n: number }, [number]>("SELECT events AS n FROM memory_projects WHERE id = ?").get(projectId)?.n ?? 0)
      : (db.query<{ n: number }, [number]>("SELECT count(*) AS n FROM memory_summaries WHERE project_id = ?").get(projectId)?.n ?? 0);
  const count = db.query<{ n: number }, [number, number, number]>(
    `SELECT count(*) AS n FROM ${NAMES[table].base} WHERE id BETWEEN ?1 AND ?2 AND project_id = ?3`,
  );
  const between = (from: number, to: number): number => {
    const run = to - from + 1;
    if (run <= 0) return 0;
    if (run > COUNT_REACH) return Math.round((run * Math.max(1, rows)) / Math.max(1, span));
    return count.get(from, to, projectId)?.n ?? 0;
  };
  return { rows, between, since: (from: number, to: number) => Math.max(1, between(from, to)) };
}

/**
 * How many of the project's events lie up to an id: what a word's weight is counted among when
 * looking back from that event. In a database of one project, the id itself; with other
 * projects' events before and between, the project's events less those after the id (counted
 * when they are few, as supersession trails the newest events; else estimated by the project's
 * share), so that a word weighs the same whether or not other projects share the database.
 */
export function projectEventsThrough(db: Db, projectId: number, id: number, single: boolean): number {
  if (single) return Math.max(1, id);
  const ids = db
    .query<{ lo: number | null; hi: number | null }, []>(
      "SELECT (SELECT min(rowid) FROM memory_events) AS lo, (SELECT max(rowid) FROM memory_events) AS hi",
    )
    .get();
  const hi = ids?.hi ?? id;
  const scope = projectScope(db, "events", projectId, hi - (ids?.lo ?? 0) + 1);
  return Math.max(1, scope.rows - scope.between(id + 1, hi));
}

export const idfOf = (df: number, total: number) => {
  const n = Math.max(total, df);
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
};

/** Candidate ids (best first, by the weights of the groups each is known to hold) and the weighted groups. */
export function candidates(db: Db, table: Table, groups: QueryGroup[], o: CandidateOptions): Candidates {
  if (groups.length === 0) return { groups: [], unknown: 0, ids: [] };
  const n = NAMES[table];
  // Subqueries: SQLite answers a lone min() or max() from the b-tree's ends, both together by a scan.
  // The newest id and the count of deletes and rewrites are read together (one snapshot): what
  // newestRows keeps is checked against them.
  const span = db
    .query<{ lo: number | null; hi: number | null; changes: string | null }, []>(
      `SELECT (SELECT min(rowid) FROM ${n.base}) AS lo, (SELECT max(rowid) FROM ${n.base}) AS hi,
        (SELECT value FROM memory_state WHERE key = 'index_changes') AS changes`,
    )
    .get();
  const lo = span?.lo ?? 0;
  const hi = span?.hi ?? 0;
  const before = o.beforeId ?? Number.MAX_SAFE_INTEGER;
  // Searches keep what they find (newest-rows.ts); supersession, which looks back from each new event, asks each once.
  const changes = o.beforeId === undefined ? (span?.changes ?? null) : null;
  const rowsFor = (sql: string, match: string, limit: number, floor: number): readonly number[] =>
    newestRows(db, { table, key: `${sql}\0${o.single ? "" : o.projectId}\0${match}`, before, floor, limit, hi, changes }, (from) =>
      db
        .query<{ id: number }, [string, number, number] | [string, number, number, number]>(sql)
        .all(...args(match, from))
        .map((r) => r.id),
    );
  // A word's weight is counted among the project's own rows, as its rows are: with every
  // project's rows as the whole, a word common in this project would weigh as if rare.
  const scope = o.single ? null : projectScope(db, table, o.projectId, hi - lo + 1);
  const total = Math.max(1, scope ? scope.rows : hi - lo + 1);
  const args = (match: string, floor = 0): [string, number, number] | [string, number, number, number] =>
    o.single ? [match, before, floor] : [match, before, floor, o.projectId];
  const limit = o.perTerm ?? PER_TERM[table];
  const perGroup = statementSql(table, o.single, limit, o.kinds);
  const rowsOf = new Map<number, readonly number[]>();
  const weighted: WeightedGroup[] = [];
  let unknown = 0;
  for (const g of groups.slice(0, o.maxGroups ?? MAX_GROUPS)) {
    const rows = rowsFor(perGroup, ftsGroup(g), limit, 0);
    if (rows.length === 0) {
      unknown++;
      continue;
    }
    rowsOf.set(g.group, rows);
    // All its rows, or an estimate from how far back the newest PER_TERM reach (in the project's rows).
    const newest = Math.min(before, hi);
    const reach = scope ? scope.since(rows.at(-1)!, newest) : Math.max(1, newest - rows.at(-1)! + 1);
    const df = rows.length < limit ? rows.length : Math.min(total, Math.round((limit * total) / reach));
    weighted.push({ ...g, df, rows: total, idf: idfOf(df, total) });
  }
  const score = new Map<number, number>();
  for (const g of weighted) for (const id of rowsOf.get(g.group)!) score.set(id, (score.get(id) ?? 0) + g.idf);
  const rare = [...weighted].sort((a, b) => a.df - b.df).slice(0, 3);
  // When the rarest group's list is whole (fewer rows than PER_TERM), every row holding all the
  // rare groups is in it already: the AND query would find nothing new.
  if (rare.length >= 2 && rare[0]!.df >= limit) {
    // Old rows holding every rare group, which the newest-first lists of common words may miss.
    const sum = rare.reduce((s, g) => s + g.idf, 0);
    const floor = Math.min(before, hi + 1) - ALL_TERMS_REACH;
    for (const id of rowsFor(statementSql(table, o.single, ALL_TERMS, o.kinds), rare.map(ftsGroup).join(" AND "), ALL_TERMS, floor)) {
      score.set(id, Math.max(score.get(id) ?? 0, sum));
    }
  }
  const ids = [...score]
    .sort((a, b) => b[1] - a[1] || b[0] - a[0])
    .slice(0, o.keep)
    .map(([id]) => id);
  return { groups: weighted, unknown, ids };
}
