/**
 * How well a stored text answers a query: BM25 over the index's own stems (so a candidate scores
 * exactly the words the index matched; a query word's other forms count a little less than the
 * word itself), times how much of the query it covers, times its kind: what someone stated
 * (a decision, a correction, a note, a fact or preference in a prompt) outweighs chatter
 * (answers, errors, commands, file lists, questions). Recency only breaks near ties.
 */
import type { WeightedGroup } from "./candidates.ts";
import { statementKind } from "./classify.ts";
import { compoundParts, PART_WEIGHT } from "./compound-parts.ts";
import { type TextWords, textWords } from "./query.ts";
import { setsQueriedKey } from "./setting-lines.ts";
import type { EventKind } from "./types.ts";

const K1 = 1.2;
const B = 0.75;
/** Words in a typical event (BM25's average length; events are short and alike). */
const AVERAGE_WORDS = 30;
const DAY = 86_400_000;

/** How much a kind of event weighs when it answers a query: statements over chatter, questions least (they ask, not tell). */
const WEIGHTS = {
  correction: 1.3,
  decision: 1.25,
  note: 1.2,
  preference: 1.2,
  fact: 1.15,
  task: 0.7,
  question: 0.35,
  error: 0.8,
  command: 0.55,
  files: 0.5,
  answer: 0.75,
  claimAnswer: 0.85,
  summary: 0.9,
} as const;

/** claim: it states something a later statement can replace. */
export type Weighed = { weight: number; claim: boolean };

/**
 * The weight of an event for ranking, and whether it states something a later statement can replace.
 * A command whose output sets a key the query names (setting-lines.ts) states the project's state
 * for that query, like a note; it replaces nothing and is replaced by nothing (the output is what
 * the file held then, not something someone said). So does any command for a question asking how
 * something is done (`manner`, answer-type.ts asksManner): the command run is the way it is done.
 */
export function eventWeight(kind: EventKind, text: string, groups: readonly WeightedGroup[] = [], manner = false): Weighed {
  if (kind === "command" && (manner || setsQueriedKey(text, groups))) return { weight: WEIGHTS.note, claim: false };
  switch (kind) {
    case "correction":
    case "decision":
    case "note":
      return { weight: WEIGHTS[kind], claim: true };
    case "prompt": {
      const k = statementKind(text);
      return { weight: WEIGHTS[k], claim: k === "fact" || k === "preference" };
    }
    case "answer": {
      const claim = statementKind(text) === "fact";
      return { weight: claim ? WEIGHTS.claimAnswer : WEIGHTS.answer, claim };
    }
    default:
      return { weight: WEIGHTS[kind], claim: false };
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
      return { weight: WEIGHTS[label], claim: true };
    case "asked":
      return { weight: WEIGHTS.question, claim: false };
    case "answer":
      return { weight: WEIGHTS.answer, claim: true };
    case "error":
    case "command":
    case "files":
      return { weight: WEIGHTS[label], claim: false };
    default:
      return { weight: WEIGHTS.summary, claim: false };
  }
}

/** score: BM25 scaled by coverage; groups: the query groups matched, with their weight; held: their sum; total: the query's weight. */
export type TextScore = {
  score: number;
  matched: number;
  groups: Map<number, number>;
  held: number;
  total: number;
  /** The weight of the best form each matched group is held in (1: the word itself; less: a derived or short form). */
  forms: Map<number, number>;
};

/** BM25 of a bag of stems of `words` words for the groups, scaled by the share of the groups it holds (squared) and of their weight. */
function bagScore(counts: ReadonlyMap<string, number>, words: number, groups: WeightedGroup[], parts: ReadonlySet<number> = new Set()) {
  const norm = K1 * (1 - B + (B * words) / AVERAGE_WORDS);
  let score = 0;
  let held = 0;
  let total = 0;
  const matched = new Map<number, number>();
  const forms = new Map<number, number>();
  for (const g of groups) {
    total += g.idf;
    let best = 0;
    let form = 0;
    for (const f of g.forms) {
      const tf = counts.get(f.stem) ?? 0;
      if (tf === 0) continue;
      best = Math.max(best, (f.weight * g.idf * tf * (K1 + 1)) / (tf + norm));
      form = Math.max(form, f.weight);
    }
    if (best === 0 && parts.has(g.group)) {
      best = (PART_WEIGHT * g.idf * (K1 + 1)) / (1 + norm);
      form = PART_WEIGHT;
    }
    if (best === 0) continue;
    score += best;
    // A word held only in a lesser form (a short form, a derived word) holds that much of its weight.
    held += g.idf * Math.min(1, form);
    matched.set(g.group, g.idf);
    forms.set(g.group, form);
  }
  const share = matched.size / groups.length;
  const coverage = total > 0 ? held / total : 0;
  return { score: score * share * share * (0.5 + 0.5 * coverage), matched: matched.size, groups: matched, held, total, forms };
}

/**
 * BM25 of one text for the query groups, scaled by the share of the groups it holds (squared) and
 * of their weight. A group counts once, by its best-matching form, or as a part of a closed
 * compound (compoundParts).
 */
export function textScore(text: string, groups: WeightedGroup[]): TextScore {
  return wordsScore(textWords(text), groups);
}

/** textScore of a text's words (query.ts textWords, eventWords). */
export function wordsScore({ counts, long }: TextWords, groups: WeightedGroup[]): TextScore {
  if (groups.length === 0) return { score: 0, matched: 0, groups: new Map(), held: 0, total: 0, forms: new Map() };
  let words = 0;
  for (const n of counts.values()) words += n;
  const whole = bagScore(counts, words, groups);
  if (whole.matched === groups.length) return whole;
  // The words not held on their own may be inside a compound.
  const parts = compoundParts(long, groups, whole.groups);
  return parts.size === 0 ? whole : bagScore(counts, words, groups, parts);
}

/** Newer is likelier current, but only just: recency breaks near ties, it never outranks a better match. */
export function recencyWeight(ts: number, now: number): number {
  const ageDays = Math.max(0, now - ts) / DAY;
  return 0.97 + 0.03 * Math.exp(-ageDays / 60);
}

/**
 * Among the hits that answer, the newest counts 1 + this many times as much as the oldest (and
 * those between by their place in time). Later statements say how things are now more often than
 * earlier ones do, and an earlier one is still shown above a later one it matches three times as
 * well: recency breaks ties, it does not trump.
 */
export const NEWER_SPREAD = 2;

/** Times this close (one after another) are one sitting, said at the same time: an hour. */
export const SAME_SITTING = 3_600_000;

/**
 * Each item's weight by its place among the items in time (`at`: its time): 1 for the oldest,
 * 1 + NEWER_SPREAD for the newest, those between by how many sittings lie before theirs. Items said
 * in one sitting (times less than SAME_SITTING apart, one after another) weigh the same: a correction
 * and the answer acting on it a minute later are of one time.
 */
export function newerWeights<T>(items: readonly T[], at: (t: T) => number): Map<T, number> {
  const times = [...new Set(items.map(at))].sort((a, b) => a - b);
  const place = new Map<number, number>();
  let n = 0;
  times.forEach((t, i) => {
    if (i > 0 && t - times[i - 1]! > SAME_SITTING) n++;
    place.set(t, n);
  });
  const last = Math.max(1, n);
  return new Map(items.map((t) => [t, 1 + (NEWER_SPREAD * place.get(at(t))!) / last]));
}
