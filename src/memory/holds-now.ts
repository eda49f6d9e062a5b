/**
 * What holds now, among the hits of one query: a later record on the same subject, or a later
 * statement that says it changes something, ranks right above the earlier one it would replace,
 * unless the earlier one answers a narrower question (a rare word, a more specific word of the
 * query the later one lacks). Scores only; search.ts orders by them.
 */
import { statementOf, subjectOf } from "./classify.ts";
import { ABOVE, units } from "./conflicts.ts";
import { familyKey } from "./morphology.ts";
import type { QueryGroup } from "./query.ts";
import { lineBody } from "./summary-line.ts";
import type { Hit, Unit } from "./units.ts";

/**
 * Whether a statement is about one of the query's words it holds: the word (in any of its forms)
 * is among the statement's first content words (subjectOf: "reminders: a job texts ...",
 * "fix(cache): ...", "the watering reminders are ..."), not one said in passing.
 */
export function aboutQuery(u: Unit, groups: QueryGroup[]): boolean {
  return aboutGroups(u, groups).length > 0;
}

/**
 * A Conventional Commits message (https://www.conventionalcommits.org/en/v1.0.0/: "type(scope):
 * description", then a blank line, then the body) says what it is about twice: in its header
 * ("refactor(pipeline)!: one process") and in the first words of its body, the sentence that
 * says what changed ("Parser and writer share ..."). Both are its subject. The types are those of
 * @commitlint/config-conventional (its type-enum rule), so "note: ..." or "project: ..." with a
 * paragraph below is not taken for a commit message.
 */
const COMMIT_WITH_BODY =
  /^\s*(?:build|chore|ci|docs|feat|fix|perf|refactor|revert|style|test)(?:\([^()\s]{1,40}\))?!?:[^\n]*\n[ \t]*\n\s*(\S[\s\S]*)$/i;

function subjectsOf(text: string): readonly string[] {
  const head = subjectOf(text);
  const body = COMMIT_WITH_BODY.exec(text.slice(0, 600))?.[1];
  return body === undefined ? head : [...new Set([...head, ...subjectOf(body)])];
}

/** The query groups a unit is about (aboutQuery): matched, and among its subject's words. */
function aboutGroups(u: Unit, groups: QueryGroup[]): number[] {
  const subject = subjectsOf(lineBody(u.text));
  if (subject.length === 0) return [];
  return groups.filter((g) => u.match.groups.has(g.group) && g.forms.some((f) => subject.includes(familyKey(f.word)))).map((g) => g.group);
}

/** Whether a unit holds a query group by a value standing for its word ("24x24" for "big": search.ts heldFor), besides its words. */
export type HoldsByValue = (u: Unit, group: number) => boolean;

/**
 * The earlier statement holds a rare word of the query (a number, a name: isRare) the later one
 * does not (nor a value standing for it: byValue): the query asks for that one, whatever was said
 * later on its subject.
 */
function narrowerTest(rare: Set<number>, byValue: HoldsByValue = () => false): (older: Unit, newer: Unit) => boolean {
  // Each unit's rare groups worked out once: the tests below compare every pair of statements.
  const rareOf = new Map<Unit, number[]>();
  return (older, newer) => {
    let held = rareOf.get(older);
    if (!held) {
      held = [...older.match.groups.keys()].filter((g) => rare.has(g));
      rareOf.set(older, held);
    }
    return held.some((g) => !newer.match.groups.has(g) && !byValue(newer, g));
  };
}

/**
 * The earlier record holds a word of the query more specific than the subject the two share (rarer
 * in this memory than the rarest shared subject word) that the later one does not: it answers the
 * narrower question the query asks ("cache key"), the later one speaks of the subject at large
 * ("cache"). A word more common than the subject ("nightly" beside "backups") narrows nothing.
 */
function moreSpecific(older: Unit, newer: Unit, shared: number[]): boolean {
  const subject = Math.max(...shared.map((g) => older.match.groups.get(g) ?? 0));
  return [...older.match.groups].some(([g, idf]) => !newer.match.groups.has(g) && idf > subject);
}

/**
 * Of two records (decisions, notes, corrections) about the same word of the query (aboutQuery), the
 * later ranks right above the earlier: the later record is what holds now, whether or not it said
 * it replaces the other (a link made when it was written marks the earlier one as well,
 * conflicts.ts), unless the earlier one is more specific (moreSpecific): then the later one is
 * about another part of the subject, and is left as it ranks. Chatter is not a record and is left
 * as it ranks.
 */
export function laterRecordFirst(hits: Hit[], groups: QueryGroup[], rare: Set<number>): void {
  const records = units(hits)
    .filter((u) => u.record && u.replacedBy === null && u.event !== null)
    .map((u) => ({ u, about: aboutGroups(u, groups) }))
    .filter((r) => r.about.length > 0)
    .sort((a, b) => a.u.order - b.u.order);
  const narrower = narrowerTest(rare);
  for (let i = 0; i < records.length; i++) {
    const older = records[i]!;
    for (let j = i + 1; j < records.length; j++) {
      const newer = records[j]!;
      if (
        newer.u.order !== older.u.order &&
        newer.about.some((g) => older.about.includes(g)) &&
        !narrower(older.u, newer.u) &&
        !moreSpecific(
          older.u,
          newer.u,
          newer.about.filter((g) => older.about.includes(g)),
        )
      )
        newer.u.score = Math.max(newer.u.score, older.u.score * ABOVE);
    }
  }
}

/**
 * A later statement that says it changes something (stored as a correction, or with a cue of
 * change: "moved to", "dropped", "now", classify.ts) ranks right above an earlier statement that
 * holds one of the same words of the query, linked or not: what the query found in the earlier one
 * is what the later one changed, as far as the words tell. A rare word the later one holds by a
 * value standing for it (byValue: "raised the cap to 8192x8192" for "how big") is held.
 */
export function changeFirst(hits: Hit[], rare: Set<number>, byValue?: HoldsByValue): void {
  const kindOf = (text: string) => /^- e\d+ (\w+)/.exec(text)?.[1] ?? "";
  const statements = hits
    .flatMap((h) =>
      h.type === "event" ? [{ u: h.unit, kind: h.row.kind as string }] : h.lines.map((l) => ({ u: l, kind: kindOf(l.text) })),
    )
    .filter((x) => x.u.event !== null && x.u.replacedBy === null && (x.u.claim || x.u.record));
  const changing = statements.filter((x) => x.kind === "correction" || statementOf(lineBody(x.u.text), x.kind).changes).map((x) => x.u);
  const narrower = narrowerTest(rare, byValue);
  for (const newer of changing) {
    const words = [...newer.match.groups.keys()];
    for (const { u: older } of statements)
      if (older.order < newer.order && words.some((g) => older.match.groups.has(g)) && !narrower(older, newer))
        newer.score = Math.max(newer.score, older.score * ABOVE);
  }
}
