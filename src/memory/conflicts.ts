/**
 * Which of the hits are no longer current. A statement replaced by a later one (linked when the
 * later one was written, supersede.ts) brings the newest statement of its chain into the hits
 * right above itself, and is marked as replaced: a query that only the old statement's words
 * match still shows the correction first. The link was checked when it was made (shared subject,
 * a rejected value), so it holds whatever the query's words.
 */
import type { WeightedGroup } from "./candidates.ts";
import type { MemoryDeps } from "./deps.ts";
import { eventsById } from "./events.ts";
import { replacements } from "./supersede.ts";
import { eventUnit, type Hit, type Unit } from "./units.ts";

/** A replaced statement keeps most of its score: shown, just below what replaced it. */
const REPLACED = 0.9;
const ABOVE = 1.02;

function units(hits: Hit[]): Unit[] {
  return hits.flatMap((h) => (h.type === "event" ? [h.unit] : h.lines));
}

export function resolveReplacements(deps: MemoryDeps, projectId: number, hits: Hit[], groups: WeightedGroup[]): void {
  const all = units(hits);
  const byEvent = new Map<number, Unit>();
  for (const u of all) if (u.event !== null && !byEvent.has(u.event)) byEvent.set(u.event, u);
  const newest = replacements(
    deps,
    all.flatMap((u) => (u.event === null ? [] : [u.event])),
  );
  if (newest.size === 0) return;
  const now = deps.now();
  const missing = [...new Set(newest.values())].filter((id) => !byEvent.has(id));
  for (const row of eventsById(deps, missing)) {
    if (row.project_id !== projectId) continue;
    const unit = eventUnit(row, groups, now) ?? {
      event: row.id,
      order: row.id,
      text: row.content,
      score: 0,
      match: { score: 0, matched: 0, groups: new Map<number, number>(), held: 0, total: 0 },
      claim: true,
      replacedBy: null,
      repeats: 1,
    };
    hits.push({ type: "event", row, unit });
    byEvent.set(row.id, unit);
  }
  for (const u of all) {
    const id = u.event === null ? undefined : newest.get(u.event);
    if (id === undefined || id === u.event) continue;
    u.replacedBy = id;
    const newer = byEvent.get(id);
    // One retention already dropped: the old statement is still marked.
    if (newer) {
      newer.score = Math.max(newer.score, u.score * ABOVE);

    }
    u.score *= REPLACED;
  }
}
