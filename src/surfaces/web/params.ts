/** Query parameters to engine inputs: one reading for the page and the API, so both filter alike. */
import type { RetrievalQuery } from "../../store/index.ts";
import { parseLineRange } from "../../units.ts";
import type { Filters } from "./render/parts.ts";

type Query = (name: string) => string | undefined;

const text = (q: Query, name: string): string | undefined => {
  const v = q(name)?.trim();
  return v ? v : undefined;
};

export function filtersOf(q: Query): Filters {
  return { session: text(q, "session"), tool: text(q, "tool"), project: text(q, "project"), source: text(q, "source") };
}

/** A whole number within [min, max], else the default. */
export function intOf(q: Query, name: string, fallback: number, min: number, max: number): number {
  const v = text(q, name);
  if (v === undefined || !/^\d+$/.test(v)) return fallback;
  return Math.max(min, Math.min(max, Number(v)));
}

export function retrievalQueryOf(q: Query): RetrievalQuery {
  const kind = text(q, "kind");
  const before = text(q, "before");
  return {
    limit: intOf(q, "limit", 100, 1, 500),
    before: before && /^\d+$/.test(before) ? Number(before) : undefined,
    session: text(q, "session"),
    kind: kind === "search" || kind === "get" ? kind : undefined,
    source: text(q, "source"),
  };
}

/** `lines=A-B` or `chunk=N` of a source view; lines 1 to `page` when neither is given. */
export function rangeOf(q: Query, page: number): { lines?: { from: number; to: number }; chunk?: number } | { bad: string } {
  const chunk = text(q, "chunk");
  if (chunk !== undefined) return /^\d+$/.test(chunk) ? { chunk: Number(chunk) } : { bad: `chunk must be a whole number, got ${chunk}` };
  const lines = text(q, "lines");
  if (lines === undefined) return { lines: { from: 1, to: page } };
  const range = parseLineRange(lines);
  return range ? { lines: range } : { bad: `lines must look like 120-180, got ${lines}` };
}
