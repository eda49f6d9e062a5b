/**
 * Which of the hits are no longer current. A statement replaced by a later one (linked when the
 * later one was written, supersede.ts) brings the newest statement of its chain into the hits
 * right above itself, and is marked as replaced: a query that only the old statement's words
 * match still shows the correction first. The link was checked when it was made (shared subject,
 * a rejected value), so it holds whatever the query's words.
 */
import type { WeightedGroup } from "./candidates.ts";
import { COMMIT_TYPE } from "./change-cues.ts";
import { clauses, labelOf, statementOf, tokenKeys } from "./classify.ts";
import type { MemoryDeps } from "./deps.ts";
import { eventsById } from "./events.ts";
import { familyKey } from "./morphology.ts";
import { textScore } from "./rank.ts";
import { replacements } from "./supersede.ts";
import { eventUnit, type Hit, isRecord, type Unit } from "./units.ts";

/** A replaced statement keeps most of its score: shown, just below what replaced it. */
const REPLACED = 0.9;
/** What replaced a statement ranks this much above it. */
export const ABOVE = 1.02;

/** Every unit of the hits: an event's, and each line of a summary. */
export function units(hits: Hit[]): Unit[] {
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
      match: { score: 0, matched: 0, groups: new Map<number, number>(), held: 0, total: 0, forms: new Map<number, number>() },
      claim: true,
      record: isRecord(row.kind),
      replacedBy: null,
      repeats: 1,
    };
    hits.push({ type: "event", row, unit });
    byEvent.set(row.id, unit);
  }
  const texts = new Map<number, string>();
  for (const h of hits) if (h.type === "event") texts.set(h.row.id, h.row.content);
  for (const u of all) {
    const id = u.event === null ? undefined : newest.get(u.event);
    if (id === undefined || id === u.event) continue;
    const newerText = texts.get(id);
    // The part of the old statement this query found is one the newer statement left alone.
    if (newerText !== undefined && !touched(u.text, newerText, groups)) continue;
    u.replacedBy = id;
    const newer = byEvent.get(id);
    // One retention already dropped: the old statement is still marked.
    if (newer) newer.score = Math.max(newer.score, u.score * ABOVE);
    u.score *= REPLACED;
  }
}

const shape = (k: string) => k.replace(/\d+/g, "#");

/**
 * Does the newer statement replace the part of the old one the query found? The old statement's
 * clauses holding most of the query's words are that part; it is replaced when the newer
 * statement (what it says in its sentences of change) names a value it rejects there, or shares
 * two words with it, or one word when that clause opens the statement or the query asked for the
 * word ("btw merges to main need 2 approvals, one from Dana" and "Dana moved teams, Lee is the
 * approver now": a query about approvals). A statement the newer one rejects a value of is replaced as a whole. "tokens expire after 24h, refreshed by `login --refresh`" and "token
 * lifetime cut to 12h": a query about refreshing finds the second clause, which still holds. A
 * statement of one clause is replaced as a whole, and so is one whose label or commit scope
 * (conventionalcommits.org: the part of the project a commit is about) the newer one changes.
 */
function touched(oldText: string, newerText: string, groups: WeightedGroup[]): boolean {
  const parts = clauses(oldText);
  if (parts.length <= 1) return true;
  const said = statementOf(newerText, "correction");
  // What the newer statement says as a whole: the link was checked when it was made, and its
  // sentences besides the one of change say the new value ("dropped X. pinned Y 1.7.2").
  const whole = tokenKeys(newerText);
  const queried = new Set(groups.flatMap((g) => g.forms.map((f) => f.stem)));
  const oldKeys = tokenKeys(oldText);
  // It rejects what the old statement holds ("we replaced pino"): all of it is replaced.
  if ([...said.rejected].some((r) => oldKeys.has(r))) return true;
  // It names a value of the old statement beside a new one of its shape ("the 3 cap was too
  // low; 5 now"): that value is what it corrects, wherever the query's words are.
  const numbers = [...whole].filter((k) => /\d/.test(k));
  const named = numbers.filter((k) => oldKeys.has(k)).map(shape);
  if (named.length > 0 && numbers.some((k) => !oldKeys.has(k) && named.includes(shape(k)))) return true;
  // It changes what labels the old statement ("monitoring: X, checks on ..., alerts to ..." and
  // "moved monitoring to Y"): every clause under the label is about it.
  const label = labelOf(oldText);
  if (label !== null && said.slot.includes(label)) return true;
  // So does a Conventional Commits scope ("docs(release): ..."): the part of the project the whole commit is about.
  const scope = COMMIT_TYPE.exec(oldText)?.[2];
  if (scope !== undefined && said.slot.includes(familyKey(scope.toLowerCase()))) return true;
  let best = 0;
  let hit = false;
  for (const [i, clause] of parts.entries()) {
    // By weight: "renew my token" is about renewing, the rarer word.
    const matched = textScore(clause, groups).held;
    if (matched === 0 || matched < best) continue;
    const keys = [...tokenKeys(clause)];
    const shared = keys.filter((k) => said.keys.has(k) || whole.has(k));
    const common = shared.length;
    // One shared word is enough in the clause the statement opens with (its subject), or when the
    // query asked about it: the newer statement speaks of what the query found.
    const asked = i === 0 || shared.some((k) => queried.has(k));
    // A value of the same shape in its place (20 and 22, 24h and 12h).
    const values = new Set(keys.filter((k) => /\d/.test(k) && !said.keys.has(k)).map(shape));
    const replacedValue = [...said.keys, ...whole].some((k) => /\d/.test(k) && values.has(shape(k)));
    const shares = keys.some((k) => said.rejected.has(k)) || common >= 2 || (common >= 1 && (replacedValue || asked));
    hit = matched > best ? shares : hit || shares;
    best = matched;
  }
  return best === 0 || hit;
}
