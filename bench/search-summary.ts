/** Percentiles of the search run, overall and per query kind. */
import { QUERY_KINDS, type QueryKind } from "./queries.ts";
import type { QueryResult } from "./search.ts";
import { maxOf, median, percentile } from "./stats-math.ts";

export type KindSummary = {
  kind: QueryKind | "all";
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  modes: Record<string, number>;
  /** Needle queries whose source was among the hits. */
  found: { yes: number; of: number };
  /** Floor (i): primary-key fetch of the same chunks, over the queries with hits. */
  pkP50: number;
  pkP99: number;
  /** Floor (ii): the unranked word-index + identifier-index lookups. */
  unrankedP50: number;
  unrankedP99: number;
  /** Floor (iii) and the engine, on the same brute-force subset. */
  scanN: number;
  scanP50: number;
  scanMax: number;
  engineOnScanP50: number;
};

function summarize(kind: KindSummary["kind"], rs: readonly QueryResult[]): KindSummary {
  const modes: Record<string, number> = {};
  for (const r of rs) modes[r.mode] = (modes[r.mode] ?? 0) + 1;
  const needles = rs.filter((r) => r.found !== null);
  const pk = rs.map((r) => r.pkMs).filter((x): x is number => x !== null);
  const scanned = rs.filter((r) => r.scanMs !== null);
  const ms = rs.map((r) => r.ms);
  return {
    kind,
    n: rs.length,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    max: maxOf(ms),
    modes,
    found: { yes: needles.filter((r) => r.found).length, of: needles.length },
    pkP50: percentile(pk, 50),
    pkP99: percentile(pk, 99),
    unrankedP50: percentile(
      rs.map((r) => r.unrankedMs),
      50,
    ),
    unrankedP99: percentile(
      rs.map((r) => r.unrankedMs),
      99,
    ),
    scanN: scanned.length,
    scanP50: median(scanned.map((r) => r.scanMs!)),
    scanMax: maxOf(scanned.map((r) => r.scanMs!)),
    engineOnScanP50: median(scanned.map((r) => r.ms)),
  };
}

export function summarizeSearch(results: readonly QueryResult[]): KindSummary[] {
  return [
    summarize("all", results),
    ...QUERY_KINDS.map((k) =>
      summarize(
        k,
        results.filter((r) => r.query.kind === k),
      ),
    ),
  ];
}
