/**
 * How well a stored text answers a query: BM25 over the index's own stems (so a candidate scores
 * exactly the words the index matched), times how much of the query it covers, its kind (a
 * correction or a decision outweighs chatter) and its age (newer is likelier current).
 */
import type { WeightedTerm } from "./candidates.ts";
import { statementKind } from "./classify.ts";
import { stemCounts } from "./query.ts";
import type { EventKind } from "./types.ts";

const K1 = 1.2;
const B = 0.75;
/** Words in a typical event (BM25's average length; events are short and alike). */
const AVERAGE_WORDS = 30;
const DAY = 86_400_000;

/** How much a kind of event weighs when it answers a query: statements over chatter, questions least (they ask, not tell). */
const WEIGHTS = {
  correction: 1.15,
  decision: 1.1,
  note: 1.1,
  preference: 1.15,
  fact: 1.1,
  task: 0.8,
  question: 0.3,
  error: 0.9,
  command: 0.75,
  files: 0.65,
  answer: 0.8,
  claimAnswer: 0.9,
  summary: 0.9,
} as const;

/** claim: it states something a later statement can replace; replaces: it can replace one (the user's word, not an answer's). */
export type Weighed = { weight: number; claim: boolean; replaces: boolean };

/** The weight of an event for ranking, and whether it states something a later statement can replace. */
export function eventWeight(kind: EventKind, text: string): Weighed {
  switch (kind) {
    case "correction":
    case "decision":
    case "note":
      return { weight: WEIGHTS[kind], claim: true, replaces: true };
    case "prompt": {
      const k = statementKind(text);
      const claim = k === "fact" || k === "preference";
      return { weight: WEIGHTS[k], claim, replaces: claim };
    }
    case "answer": {
      const k = statementKind(text);
      const claim = k === "fact" || k === "preference";
      return { weight: claim ? WEIGHTS.claimAnswer : WEIGHTS.answer, claim, replaces: false };
    }
    default:
      return { weight: WEIGHTS[kind], claim: false, replaces: false };
  }
}

/** The same for a summary line, by its label (`- e123 fact: ...`). */
export function lineWeight(line: string): Weighed {
  const label = /^- e\d+ (\w+)/.exec(line)?.[1];
  switch (label) {
    case "correction":
    case "decision":
    case "note":
    case "preference":
    case "fact":
      return { weight: WEIGHTS[label], claim: true, replaces: true };
    case "asked":
      return { weight: WEIGHTS.question, claim: false, replaces: false };
    case "answer":
      return { weight: WEIGHTS.answer, claim: true, replaces: false };
    case "error":
    case "command":
    case "files":
      return { weight: WEIGHTS[label], claim: false, replaces: false };
    default:
      return { weight: WEIGHTS.summary, claim: false, replaces: false };
  }
}

/** score: BM25 scaled by coverage; groups: the query words matched, with their weight; held: their sum; total: the query's weight. */
export type TextScore = { score: number; matched: number; groups: Map<number, number>; held: number; total: number };

/**
 * BM25 of one text for the terms, scaled by the share of the query's words it holds (squared) and
 * of their weight. A query word and its synonyms are one group: the group counts once, by its
 * best-matching member.
 */
export function textScore(text: string, terms: WeightedTerm[]): TextScore {
  if (terms.length === 0) return { score: 0, matched: 0, groups: new Map(), held: 0, total: 0 };
  const counts = stemCounts(text);
  let words = 0;
  for (const n of counts.values()) words += n;
  const norm = K1 * (1 - B + (B * words) / AVERAGE_WORDS);
  const best = new Map<number, { score: number; idf: number }>();
  const weight = new Map<number, number>();
  for (const t of terms) {
    weight.set(t.group, Math.max(weight.get(t.group) ?? 0, t.idf));
    const tf = counts.get(t.stem) ?? 0;
    if (tf === 0) continue;
    const score = (t.idf * tf * (K1 + 1)) / (tf + norm);
    if (score > (best.get(t.group)?.score ?? 0)) best.set(t.group, { score, idf: t.idf });
  }
  let score = 0;
  let held = 0;
  for (const b of best.values()) {
    score += b.score;
    held += b.idf;
  }
  let total = 0;
  for (const w of weight.values()) total += w;
  // How many of the query's words it holds (coordination), and how much of their weight.
  const share = weight.size > 0 ? best.size / weight.size : 0;
  const coverage = total > 0 ? Math.min(1, held / total) : 0;
  const groups = new Map([...best].map(([g, b]) => [g, b.idf]));
  return { score: score * share * share * (0.5 + 0.5 * coverage), matched: best.size, groups, held, total };
}

/** Newer is likelier current, mildly: an old event keeps 80% of its weight. Future times count as now. */
export function recencyWeight(ts: number, now: number): number {
  const ageDays = Math.max(0, now - ts) / DAY;
  return 0.8 + 0.2 * Math.exp(-ageDays / 60);
}
