/**
 * Which of the hits are no longer current. Two sources, both putting the newer statement first
 * and marking the older one as replaced:
 *
 * - replacements recorded when a correction came in (supersede.ts), honoured when the newer
 *   statement is about what this query asks (it matches what the older one matched), so a link
 *   made on shared words never hides an answer about something else;
 * - conflicts between hits found now: two statements that both answer most of the query and say
 *   mostly the same words, but each holds a value the other lacks. The query names the subject,
 *   so wording that no rule recognised at insert time is still caught.
 */
import type { WeightedTerm } from "./candidates.ts";
import { differentEnvironments, rejectedOf, tokenKeys } from "./classify.ts";
import type { MemoryDeps } from "./deps.ts";
import { eventsById } from "./events.ts";
import { replacers } from "./supersede.ts";
import { canonicalStem } from "./synonyms.ts";
import { eventUnit, type Hit, type Unit } from "./units.ts";

/** A replaced statement keeps a quarter of its score: shown, below what replaced it. */
const REPLACED = 0.25;
/**
 * Statements in conflict match this share of what the best statement matched, and share this
 * share of their words (more when one of them misses a query word the other matched).
 */
const ANSWERS = 0.6;
const SIMILAR = 0.5;
const SIMILAR_MISSING = 0.6;

/**
 * How many of the query words `old` matched `newer` misses. Up to one in three is the same
 * question worded differently ("pinned" and "node version"); a newer statement about another
 * subject misses the subject's words.
 */
function missing(old: Unit, newer: Unit): number {
  let n = 0;
  for (const group of old.match.groups.keys()) if (!newer.match.groups.has(group)) n++;
  return n;
}

const sameQuestion = (old: Unit, newer: Unit) => missing(old, newer) <= Math.floor(old.match.groups.size / 3);

/**
 * The newer one matches the rarest query word the older one matched: that word is what the query
 * asks about ("datastore" in "the datastore behind the feature flag service"), and a statement
 * without it is about another attribute of the same subject.
 */
function holdsRarest(old: Unit, newer: Unit): boolean {
  let rarest = -1;
  let weight = -1;
  for (const [group, idf] of old.match.groups) {
    if (idf > weight) {
      weight = idf;
      rarest = group;
    }
  }
  return rarest === -1 || newer.match.groups.has(rarest);
}

/** A recorded replacement (already checked when it was made) applies when the newer statement shares the query's words at all. */
const relevant = (old: Unit, newer: Unit) =>
  missing(old, newer) < old.match.groups.size && missing(old, newer) <= Math.ceil(old.match.groups.size / 2);

/**
 * The newer statement names a value of the older one as rejected ("no, use pnpm, not npm" and
 * "always use npm"): the link holds whatever the query's words, even when the correction shares
 * none of them.
 */
function rejectsValueOf(newer: Unit, old: Unit): boolean {
  const rejected = rejectedOf(newer.text);
  if (rejected.size === 0) return false;
  const keys = tokenKeys(old.text);
  for (const r of rejected) if (keys.has(r)) return true;
  return false;
}

function units(hits: Hit[]): Unit[] {
  return hits.flatMap((h) => (h.type === "event" ? [h.unit] : h.lines));
}

/** Marks `old` as replaced by `newer` and lifts `newer` above it. */
function replace(old: Unit, newer: Unit): void {
  if (newer.event === null) return;
  const before = old.score;
  old.replacedBy = newer.event;
  old.score *= REPLACED;
  newer.score = Math.max(newer.score, before * 1.05);
}

/**
 * Do two statements answer the same question differently? The newer one matches what the older
 * one matched of the query, they share most words, each holds one the other lacks, and the
 * newer one does not itself restate what the older one rejected.
 */
function conflict(a: Unit, b: Unit, keys: (u: Unit) => Set<string>, rejects: (u: Unit) => Set<string>, asked: Set<string>): boolean {
  if (!sameQuestion(a, b) || !holdsRarest(a, b)) return false;
  const rejected = rejects(a);
  for (const r of rejected) if (keys(b).has(r)) return false;
  // What the older statement rejected itself is not what it states.
  const ka = new Set([...keys(a)].filter((k) => !rejected.has(k)));
  const kb = keys(b);
  // Its value (the words the query did not ask for): a newer statement holding it (not to reject
  // it) says the same value, maybe of another subject ("we deploy X with helm", "... Y with helm").
  const value = [...ka].filter((k) => !asked.has(k));
  const theirs = new Set([...kb].filter((k) => !rejects(b).has(k)));
  const kept = value.filter((k) => theirs.has(k));
  if (kept.some((k) => /\d/.test(k)) || kept.length * 2 > value.length) return false;
  let shared = 0;
  for (const k of ka) if (kb.has(k)) shared++;
  const onlyA = ka.size - shared;
  const onlyB = kb.size - shared;
  const similar = missing(a, b) === 0 ? SIMILAR : SIMILAR_MISSING;
  return onlyA > 0 && onlyB > 0 && shared >= 2 && shared >= similar * Math.min(ka.size, kb.size) && !differentEnvironments(ka, kb);
}

export function resolveConflicts(deps: MemoryDeps, projectId: number, hits: Hit[], terms: WeightedTerm[]): void {
  const asked = new Set(terms.map((t) => canonicalStem(t.stem)));
  const all = units(hits);
  const byEvent = new Map<number, Unit>();
  for (const u of all) if (u.event !== null && !byEvent.has(u.event)) byEvent.set(u.event, u);
  // Recorded replacements, for the statements that are hits; the replacing events fetched when missing.
  const direct = replacers(
    deps,
    all.flatMap((u) => (u.event === null ? [] : [u.event])),
  );
  const missing = [...new Set([...direct.values()].flat())].filter((id) => !byEvent.has(id));
  const now = deps.now();
  for (const row of eventsById(deps, missing)) {
    if (row.project_id !== projectId) continue;
    const unit = eventUnit(row, terms, now) ?? {
      event: row.id,
      order: row.id,
      text: row.content,
      score: 0,
      match: { score: 0, matched: 0, groups: new Map<number, number>(), held: 0, total: 0 },
      claim: true,
      replaces: true,
      replacedBy: null,
    };
    hits.push({ type: "event", row, unit });
    byEvent.set(row.id, unit);
  }
  for (const u of all) {
    const by = u.event === null ? undefined : direct.get(u.event);
    if (by === undefined) continue;
    // The newest replacing event about what this query asks; one retention already dropped is trusted.
    for (const id of by) {
      const newer = byEvent.get(id);
      if (!newer) {
        u.replacedBy = id;
        u.score *= REPLACED;
        break;
      }
      if (relevant(u, newer) || rejectsValueOf(newer, u)) {
        replace(u, newer);
        break;
      }
    }
  }
  // Conflicts among current statements that answer the query.
  const cache = new Map<Unit, Set<string>>();
  const keys = (u: Unit) => {
    let k = cache.get(u);
    if (!k) {
      k = tokenKeys(u.text.replace(/^- e\d+ \w+(?: \(x\d+\))?: /, ""));
      cache.set(u, k);
    }
    return k;
  };
  const claims = units(hits).filter((u) => u.claim && u.replacedBy === null && u.match.groups.size >= 2);
  const best = Math.max(0, ...claims.map((u) => u.match.held));
  const answering = claims.filter((u) => u.match.held >= ANSWERS * best).sort((a, b) => a.order - b.order);
  const rejectedBy = new Map<Unit, Set<string>>();
  const rejects = (u: Unit) => {
    let r = rejectedBy.get(u);
    if (!r) {
      r = rejectedOf(u.text);
      rejectedBy.set(u, r);
    }
    return r;
  };
  for (let i = 0; i < answering.length; i++) {
    const a = answering[i]!;
    for (let j = answering.length - 1; j > i; j--) {
      const b = answering[j]!;
      if (b.order === a.order || b.replacedBy !== null || b.event === null || !b.replaces) continue;
      if (conflict(a, b, keys, rejects, asked)) {
        replace(a, b);
        break;
      }
    }
  }
}
