/**
 * The retrieval log as a reader sees it: every search and get, newest first, and how the calls
 * for one source went. Calls are grouped by the first source they returned (and by session, when
 * the row has one): a group of one is a question its first call answered, a longer group needed
 * more calls. A capture no
 * call ever returned was served by its receipt alone (or was never needed: the log cannot tell).
 */
import type { Db } from "../db/open.ts";

export type RetrievalQuery = {
  /** Rows per page (1-500, default 100). */
  limit?: number;
  /** Only rows with a smaller id (the next page). */
  before?: number;
  session?: string;
  kind?: "search" | "get";
  /** Only calls that returned this source. */
  source?: string;
};

export type RetrievalEntry = {
  id: number;
  at: number;
  kind: "search" | "get";
  query: string | null;
  mode: string | null;
  session: string | null;
  hits: number;
  bytes: number;
  /** Tokens returned (o200k); null until the writer has counted them. */
  tokens: number | null;
  sources: string[];
  firstSource: string | null;
  /** This is call `nth` of `calls` in its session that returned the same first source. */
  nth: number;
  calls: number;
};

export type RetrievalSummary = {
  searches: number;
  gets: number;
  tokens: number;
  /** Calls whose tokens are not counted yet. */
  uncounted: number;
  /** Groups (session + first source) answered by their first call, and those that needed more. */
  firstCall: number;
  moreCalls: number;
  /** Calls in the groups that needed more. */
  moreCallsCalls: number;
  /** Captures that no search or get ever returned: the receipt was all the model saw. */
  receiptOnly: number;
  captures: number;
};

export type RetrievalPage = { entries: RetrievalEntry[]; summary: RetrievalSummary; next: number | null };

type Row = Omit<RetrievalEntry, "sources" | "firstSource"> & { first_source: string | null };

function conditions(q: RetrievalQuery): { where: string; params: (string | number)[] } {
  const conds: string[] = [];
  const params: (string | number)[] = [];
  if (q.before !== undefined) {
    conds.push("r.id < ?");
    params.push(q.before);
  }
  if (q.session !== undefined) {
    conds.push("r.session = ?");
    params.push(q.session);
  }
  if (q.kind !== undefined) {
    conds.push("r.kind = ?");
    params.push(q.kind);
  }
  if (q.source !== undefined) {
    conds.push("r.id IN (SELECT retrieval_id FROM retrieval_parts WHERE source = ?)");
    params.push(q.source);
  }
  return { where: conds.length > 0 ? `WHERE ${conds.join(" AND ")}` : "", params };
}

function summary(db: Db): RetrievalSummary {
  const calls = db
    .query<{ searches: number; gets: number; tokens: number; uncounted: number }, []>(
      `SELECT total(kind = 'search') AS searches, total(kind = 'get') AS gets, total(tokens) AS tokens,
       total(tokens IS NULL) AS uncounted FROM retrievals`,
    )
    .get()!;
  const groups = db
    .query<{ firstCall: number; moreCalls: number; moreCallsCalls: number }, []>(
      `SELECT total(n = 1) AS firstCall, total(n > 1) AS moreCalls, total(CASE WHEN n > 1 THEN n ELSE 0 END) AS moreCallsCalls
       FROM (SELECT count(*) AS n FROM retrievals GROUP BY coalesce(session, ''), first_source)`,
    )
    .get()!;
  const captures = db
    .query<{ receiptOnly: number; captures: number }, []>("SELECT total(retrievals = 0) AS receiptOnly, count(*) AS captures FROM sources")
    .get()!;
  return { ...calls, ...groups, ...captures };
}

export function retrievalLog(db: Db, q: RetrievalQuery = {}): RetrievalPage {
  const limit = Math.max(1, Math.min(500, Math.floor(q.limit ?? 100)));
  const { where, params } = conditions(q);
  // The group position of every call (a window over the whole log: it is small next to the text).
  const rows = db
    .query<Row, (string | number)[]>(
      `WITH chain AS (
         SELECT id, row_number() OVER (PARTITION BY coalesce(session, ''), first_source ORDER BY id) AS nth,
                count(*) OVER (PARTITION BY coalesce(session, ''), first_source) AS calls
         FROM retrievals)
       SELECT r.id, r.at, r.kind, r.query, r.mode, r.session, r.hits, r.bytes, r.tokens, r.first_source, c.nth, c.calls
       FROM retrievals r JOIN chain c ON c.id = r.id ${where} ORDER BY r.id DESC LIMIT ?`,
    )
    .all(...params, limit + 1);
  const page = rows.slice(0, limit);
  const sources = new Map<number, string[]>();
  if (page.length > 0) {
    const parts = db
      .query<{ retrieval_id: number; source: string }, [number, number]>(
        "SELECT retrieval_id, source FROM retrieval_parts WHERE retrieval_id BETWEEN ? AND ? ORDER BY rowid",
      )
      .all(page.at(-1)!.id, page[0]!.id);
    for (const p of parts) {
      const list = sources.get(p.retrieval_id) ?? [];
      list.push(p.source);
      sources.set(p.retrieval_id, list);
    }
  }
  return {
    entries: page.map(({ first_source, ...r }) => ({ ...r, firstSource: first_source, sources: sources.get(r.id) ?? [] })),
    summary: summary(db),
    next: rows.length > limit ? page.at(-1)!.id : null,
  };
}
